import { Injectable } from '@nestjs/common';
import {
  FINISHED_DELIVERY_STATUSES,
  INSERT_ROSTER_EVENTS_DELIVERY_SQL,
  MARK_ENQUEUED_SQL,
  type RosterEventFilter,
} from '@edu/persistence';
import { RosterDb, type SqlTransaction } from '../../db/roster-db';
import type { FeedPosition } from '../event-cursor';

/** After every event of a batch: the position a stream rests at once it has caught up. */
export const END_OF_BATCH = '9223372036854775807';

/** A roster-events webhook's place in one deployment's feed, claimed for its next step. */
export interface ClaimedStream {
  webhookId: string;
  deploymentId: string;
  tenantId: string;
  appId: string;
  /** Delivered up to here. */
  after: FeedPosition;
  filter: RosterEventFilter | null;
  /** The batch in flight, with its delivery's status (null: the delivery is gone). */
  inFlight: { deliveryId: string; status: string | null; end: FeedPosition; events: number } | null;
}

interface StreamRow {
  webhook_id: string;
  deployment_id: string;
  tenant_id: string;
  app_id: string;
  after_b: string;
  after_n: string;
  event_filter: RosterEventFilter | null;
  delivery_id: string | null;
  delivery_status: string | null;
  batch_end_b: string | null;
  batch_end_n: string | null;
  batch_events: number | null;
}

const FINISHED = `ARRAY[${FINISHED_DELIVERY_STATUSES.map((s) => `'${s}'`).join(',')}]`;

/**
 * `roster_event_streams`: where each roster-events webhook stands in the feed of each deployment
 * of its app. A stream is claimed under its row lock (SKIP LOCKED), so every replica may push
 * and each stream still moves one batch at a time, in feed order.
 */
@Injectable()
export class EventStreamsRepository {
  constructor(private readonly db: RosterDb) {}

  /**
   * Opens a stream for every roster-events webhook and deployment of its app that holds
   * `scope` (at tenants of `region`, when given), starting after the last batch committed before
   * the later of the webhook's and the deployment's creation; closes streams that no longer
   * qualify. Returns how many were opened.
   */
  async reconcile(scope: string, region: string | undefined): Promise<number> {
    await this.db.query(
      `DELETE FROM roster_event_streams s
        WHERE NOT EXISTS (SELECT 1 FROM tenant_app_deployments d JOIN webhooks w ON w.app_id = d.app_id
                           WHERE d.id = s.deployment_id AND w.id = s.webhook_id AND $1::text = ANY(d.scope))`,
      [scope],
    );
    const opened = await this.db.query<{ webhook_id: string }>(
      `INSERT INTO roster_event_streams (webhook_id, deployment_id, tenant_id, after_b, after_n)
       SELECT w.id, d.id, d.tenant_id, COALESCE(p.seq, 0), ${END_OF_BATCH}
         FROM webhooks w
         JOIN tenant_app_deployments d ON d.app_id = w.app_id AND $1::text = ANY(d.scope)
         JOIN tenants t ON t.id = d.tenant_id AND ($2::text IS NULL OR t.region_id = $2::text)
         LEFT JOIN LATERAL (
           SELECT b.seq FROM roster_event_batches b
            WHERE b.tenant_id = d.tenant_id AND b.seq IS NOT NULL AND b.committed_at < GREATEST(w.created_at, d.created_at)
            ORDER BY b.seq DESC LIMIT 1) p ON true
        WHERE w.kind = 'roster-events'
          AND NOT EXISTS (SELECT 1 FROM roster_event_streams s WHERE s.webhook_id = w.id AND s.deployment_id = d.id)
       ON CONFLICT DO NOTHING
       RETURNING webhook_id`,
      [scope, region ?? null],
    );
    return opened.length;
  }

  /**
   * Locks one stream that has a step to take (its batch finished, or no batch and the tenant's
   * feed beyond it) and is not paused, skipping `done` (already stepped this round); undefined
   * when none.
   */
  async claim(tx: SqlTransaction, done: readonly (readonly [string, string])[]): Promise<ClaimedStream | undefined> {
    const [row] = await tx.query<StreamRow>(
      `SELECT s.webhook_id, s.deployment_id, s.tenant_id, w.app_id, s.after_b::text AS after_b, s.after_n::text AS after_n,
              w.event_filter, s.delivery_id, d.status AS delivery_status, s.batch_end_b::text AS batch_end_b,
              s.batch_end_n::text AS batch_end_n, s.batch_events
         FROM roster_event_streams s
         JOIN webhooks w ON w.id = s.webhook_id AND w.status = 'active'
         LEFT JOIN webhook_deliveries d ON d.id = s.delivery_id
        WHERE (s.paused_until IS NULL OR s.paused_until < now())
          AND (s.webhook_id, s.deployment_id) NOT IN (SELECT * FROM unnest($1::uuid[], $2::uuid[]))
          AND CASE WHEN s.delivery_id IS NULL
                   THEN EXISTS (SELECT 1 FROM roster_event_heads h WHERE h.tenant_id = s.tenant_id
                                   AND (h.seq > s.after_b OR (h.seq = s.after_b AND s.after_n < ${END_OF_BATCH})))
                   ELSE d.id IS NULL OR d.status = ANY(${FINISHED}) END
        ORDER BY s.updated_at
        LIMIT 1
        FOR UPDATE OF s SKIP LOCKED`,
      [done.map((k) => k[0]), done.map((k) => k[1])],
    );
    return row && toStream(row);
  }

  /** The stream rests at `after` with nothing in flight (`delivered`: events its last batch delivered). */
  async rest(tx: SqlTransaction, s: ClaimedStream, after: FeedPosition, delivered: number): Promise<void> {
    await tx.query(
      `UPDATE roster_event_streams SET after_b = $3::bigint, after_n = $4::bigint, delivery_id = NULL, batch_end_b = NULL,
              batch_end_n = NULL, batch_events = NULL, delivered_events = delivered_events + $5::bigint,
              paused_until = NULL, last_error = NULL, updated_at = now()
        WHERE webhook_id = $1::uuid AND deployment_id = $2::uuid`,
      [s.webhookId, s.deploymentId, after.b, after.n, delivered],
    );
  }

  /**
   * Stores the batch after `after` as a delivery and puts it in flight; undefined (and nothing
   * stored) when the webhook is no longer an active roster-events webhook.
   */
  async send(
    tx: SqlTransaction,
    s: ClaimedStream,
    batch: { after: FeedPosition; end: FeedPosition; events: number; body: string },
    delivered: number,
  ): Promise<string | undefined> {
    const [row] = await tx.query<{ id: string }>(INSERT_ROSTER_EVENTS_DELIVERY_SQL, [
      s.tenantId,
      s.webhookId,
      batch.body,
    ]);
    if (!row) return undefined;
    await tx.query(
      `UPDATE roster_event_streams SET after_b = $3::bigint, after_n = $4::bigint, delivery_id = $5::uuid,
              batch_end_b = $6::bigint, batch_end_n = $7::bigint, batch_events = $8::int,
              delivered_events = delivered_events + $9::bigint, paused_until = NULL, last_error = NULL, updated_at = now()
        WHERE webhook_id = $1::uuid AND deployment_id = $2::uuid`,
      [
        s.webhookId,
        s.deploymentId,
        batch.after.b,
        batch.after.n,
        row.id,
        batch.end.b,
        batch.end.n,
        batch.events,
        delivered,
      ],
    );
    return row.id;
  }

  /** Leaves the stream where it is for `ms` (its step failed or was refused), noting why. */
  async pause(webhookId: string, deploymentId: string, ms: number, reason: string): Promise<void> {
    await this.db.query(
      `UPDATE roster_event_streams SET paused_until = now() + ($3::int * interval '1 millisecond'), last_error = $4::text, updated_at = now()
        WHERE webhook_id = $1::uuid AND deployment_id = $2::uuid`,
      [webhookId, deploymentId, ms, reason.slice(0, 500)],
    );
  }

  /** Records that the queue holds these deliveries' jobs (the dispatcher's outbox relay skips them). */
  async markEnqueued(deliveryIds: string[]): Promise<void> {
    await this.db.query(MARK_ENQUEUED_SQL, [deliveryIds]);
  }
}

function toStream(r: StreamRow): ClaimedStream {
  return {
    webhookId: r.webhook_id,
    deploymentId: r.deployment_id,
    tenantId: r.tenant_id,
    appId: r.app_id,
    after: { b: r.after_b, n: r.after_n },
    filter: r.event_filter,
    inFlight:
      r.delivery_id && r.batch_end_b && r.batch_end_n
        ? {
            deliveryId: r.delivery_id,
            status: r.delivery_status,
            end: { b: r.batch_end_b, n: r.batch_end_n },
            events: r.batch_events ?? 0,
          }
        : null,
  };
}
