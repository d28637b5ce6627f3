import { Injectable } from '@nestjs/common';
import { RosterDb } from '../db/roster-db';
import type { FeedPosition } from './event-cursor';

/** One logged change, in feed order. */
export interface LoggedEvent {
  readonly b: string;
  readonly n: string;
  readonly createdAt: Date;
  readonly type: 'created' | 'updated' | 'deleted';
  readonly object: string;
  readonly sourcedId: string;
  readonly previous: Record<string, unknown> | null;
  /** Set on events of one deployment's view. */
  readonly deploymentId: string | null;
}

interface EventRow {
  n: string;
  created_at: Date;
  type: LoggedEvent['type'];
  object: string;
  sourced_id: string;
  previous: Record<string, unknown> | null;
  deployment_id: string | null;
}

/** Batches fetched at once when walking past the current one. */
const BATCH_WINDOW = 200;

/**
 * Reads the change feed's log (`roster_events`, written by the database's capture triggers and by
 * sharing's view changes; numbered at commit in `roster_event_batches`). Walks a batch at a time
 * by primary key, so a page deep inside a 3,000,000-event import costs what its first page does.
 */
@Injectable()
export class EventLogRepository {
  constructor(private readonly db: RosterDb) {}

  /** The position after the tenant's last committed event. */
  async head(tenantId: string): Promise<FeedPosition> {
    const [row] = await this.db.query<{ b: string; n: string }>(
      `SELECT b.seq::text AS b, COALESCE((SELECT max(e.n) FROM roster_events e WHERE e.tenant_id = b.tenant_id AND e.txid = b.txid), 0)::text AS n
         FROM roster_event_batches AS b WHERE b.tenant_id = $1::uuid AND b.seq IS NOT NULL ORDER BY b.seq DESC LIMIT 1`,
      [tenantId],
    );
    return row ?? { b: '0', n: '0' };
  }

  /**
   * Up to `limit` events after `from` of the tenant's feed as `deploymentId` may receive them
   * (the tenant's and its own view's), of `objects` only; `more` says whether any follow.
   */
  async after(
    tenantId: string,
    deploymentId: string | null,
    objects: readonly string[],
    from: FeedPosition,
    limit: number,
  ): Promise<{ events: LoggedEvent[]; more: boolean }> {
    const out: LoggedEvent[] = [];
    let at = from;
    for (;;) {
      const batches = await this.db.query<{ seq: string; txid: string }>(
        `SELECT b.seq::text AS seq, b.txid::text AS txid FROM roster_event_batches AS b
          WHERE b.tenant_id = $1::uuid AND b.seq >= $2::bigint ORDER BY b.seq LIMIT ${BATCH_WINDOW}`,
        [tenantId, at.b],
      );
      if (batches.length === 0) return { events: out, more: false };
      for (const batch of batches) {
        const after = batch.seq === at.b ? at.n : '0';
        const rows = await this.eventsOf(tenantId, batch.txid, after, deploymentId, objects, limit + 1 - out.length);
        for (const r of rows) out.push(toEvent(batch.seq, r));
        if (out.length > limit) return { events: out.slice(0, limit), more: true };
        at = { b: batch.seq, n: '9223372036854775807' };
      }
      if (batches.length < BATCH_WINDOW) return { events: out, more: false };
      at = { b: String(BigInt(at.b) + 1n), n: '0' };
    }
  }

  private eventsOf(
    tenantId: string,
    txid: string,
    after: string,
    deploymentId: string | null,
    objects: readonly string[],
    limit: number,
  ): Promise<EventRow[]> {
    return this.db.query<EventRow>(
      `SELECT e.n::text AS n, e.created_at, e.type, e.object, e.sourced_id, e.previous, e.deployment_id FROM roster_events AS e
        WHERE e.tenant_id = $1::uuid AND e.txid = $2::xid8 AND e.n > $3::bigint
          AND (e.deployment_id IS NULL OR e.deployment_id = $4::uuid) AND e.object = ANY($5::text[])
        ORDER BY e.n LIMIT $6::bigint`,
      [tenantId, txid, after, deploymentId, [...objects], limit],
    );
  }
}

function toEvent(b: string, r: EventRow): LoggedEvent {
  return {
    b,
    n: r.n,
    createdAt: r.created_at,
    type: r.type,
    object: r.object,
    sourcedId: r.sourced_id,
    previous: r.previous,
    deploymentId: r.deployment_id,
  };
}
