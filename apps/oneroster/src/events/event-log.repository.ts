import { Injectable } from '@nestjs/common';
import { RosterDb } from '../db/roster-db';
import { ROSTER_EVENTS_PER_CHUNK } from '@edu/persistence';
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
 * Chunks one statement unnests at most: its work stays bounded whatever plan PostgreSQL picks (a
 * generic plan, its batch estimated at one chunk, sorted every chunk of a 300-chunk batch: 120 ms
 * a page). A window that does not fill the page is followed by one twice as large.
 */
const FIRST_CHUNK_WINDOW = 3;
const MAX_CHUNK_WINDOW = 96;

/** An element of a chunk window, or (`n` null) a chunk of it with no event after the position. */
type WindowRow = { chunk: string } & { [K in keyof EventRow]: EventRow[K] | null };

/**
 * The events of a batch ($1 tenant, $2 txid) after position $3, as $4's feed holds them ($5
 * objects): the window of $6 chunks from chunk $8 on (an index range), their elements after $3
 * (NULLs, dropped by compaction, skipped) in order, at most $7 rows. The multi-argument unnest
 * reads (detoasts) each chunk's arrays once.
 */
const CHUNK_WINDOW_SQL = `SELECT c.n::text AS chunk, (c.n * ${ROSTER_EVENTS_PER_CHUNK} + u.i - 1)::text AS n, c.created_at, c.type, c.object,
       u.sourced_id, u.previous, c.deployment_id
  FROM (SELECT e.n, e.created_at, e.type, e.object, e.sourced_ids, e.previous, e.deployment_id FROM roster_events AS e
         WHERE e.tenant_id = $1::uuid AND e.txid = $2::xid8 AND e.n >= $8::bigint
           AND (e.deployment_id IS NULL OR e.deployment_id = $4::uuid) AND e.object = ANY($5::text[])
         ORDER BY e.n LIMIT $6::int) AS c
  LEFT JOIN LATERAL (
    SELECT x.sourced_id, x.previous, x.i FROM unnest(c.sourced_ids, c.previous) WITH ORDINALITY AS x(sourced_id, previous, i)
     WHERE c.n * ${ROSTER_EVENTS_PER_CHUNK} + x.i - 1 > $3::bigint AND x.sourced_id IS NOT NULL) AS u ON true
 ORDER BY c.n, u.i LIMIT $7::int`;

/**
 * Reads the change feed's log (`roster_events`, written by the database's capture triggers, by an
 * import's direct loads (direct-load-events.ts: the triggers' chunks) and by sharing's view
 * changes; numbered at commit in `roster_event_batches`). Walks a batch at a time
 * by primary key, so a page deep inside a 3,000,000-event import costs what its first page does.
 * A row is a chunk of up to 1,000 events (migration ChunkRosterEvents): element i (from 1) of
 * chunk n is at position `n * 1000 + i - 1` of its batch, so a position stays one bigint.
 */
@Injectable()
export class EventLogRepository {
  constructor(private readonly db: RosterDb) {}

  /** A position after the tenant's last committed event: the end of its last batch's last chunk (read by key alone). */
  async head(tenantId: string): Promise<FeedPosition> {
    const [row] = await this.db.query<{ b: string; n: string }>(
      `SELECT b.seq::text AS b,
              COALESCE((SELECT max(e.n) * ${ROSTER_EVENTS_PER_CHUNK} + ${ROSTER_EVENTS_PER_CHUNK - 1} FROM roster_events e
                         WHERE e.tenant_id = b.tenant_id AND e.txid = b.txid), 0)::text AS n
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

  /** Up to `limit` events of one batch after position `after`, a window of chunks at a time. */
  private async eventsOf(
    tenantId: string,
    txid: string,
    after: string,
    deploymentId: string | null,
    objects: readonly string[],
    limit: number,
  ): Promise<EventRow[]> {
    const out: EventRow[] = [];
    // The first chunk that can hold a position after `after`; each next window starts past the last one read.
    let from = (BigInt(after) + 1n) / BigInt(ROSTER_EVENTS_PER_CHUNK);
    for (let chunks = FIRST_CHUNK_WINDOW; ; chunks = Math.min(chunks * 2, MAX_CHUNK_WINDOW)) {
      const rows = await this.db.query<WindowRow>(CHUNK_WINDOW_SQL, [
        tenantId,
        txid,
        after,
        deploymentId,
        [...objects],
        chunks,
        limit - out.length + chunks,
        String(from),
      ]);
      for (const r of rows) if (r.n !== null && out.length < limit) out.push(r as EventRow);
      // Past here the window's rows were not cut: every chunk of it is in them (one row at least each).
      if (out.length >= limit || new Set(rows.map((r) => r.chunk)).size < chunks) return out;
      from = BigInt(rows[rows.length - 1]!.chunk) + 1n;
    }
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
