import type { DataSource } from 'typeorm';
import type { WebhookDeliveryEntity, WebhookEntity } from '../entities';
import type { ColumnsOf } from './columns-of';

/** One replay at a time per database: two concurrent runs must not both replay a delivery. */
const REPLAY_LOCK_ID = 7_310_077;

/** Which undeliverable deliveries a replay redelivers: those that became so in a window, optionally of one webhook, app or tenant. */
export interface ReplayFilter {
  since: Date;
  until?: Date;
  webhookId?: string;
  appId?: string;
  tenantId?: string;
}

/** Deliveries a replay would redeliver, per webhook and tenant. */
export type ReplayGroup = ColumnsOf<WebhookDeliveryEntity, 'webhookId' | 'tenantId'> &
  ColumnsOf<WebhookEntity, 'appId' | 'endpoint'> & { deliveries: number };

export interface ReplayPlan {
  groups: ReplayGroup[];
  total: number;
  /** Undeliverable deliveries in the window that already have a redelivery (replayed before, or redelivered by the partner). */
  alreadyReplayed: number;
  /** Undeliverable deliveries in the window whose webhook has been deleted since. */
  webhookDeleted: number;
  /** Undeliverable deliveries in the window left out by the caller (`skip`: the app's data sharing no longer shares the message). */
  notShared: number;
  /** Undeliverable deliveries in the window whose message's payload was purged (retention): nothing to send again. */
  payloadPurged: number;
}

/** A delivery a replay would redeliver to an app whose data sharing limits what it sees. */
export type SharingLimitedDelivery = ColumnsOf<WebhookDeliveryEntity, 'id' | 'tenantId' | 'appId' | 'messageId'>;

/** The undeliverable deliveries in the window that a replay would redeliver, as SQL conditions on `d` (deliveries) and `$1..$5`. */
const WINDOW = `d.status = 'undeliverable' AND d.message_id IS NOT NULL
  AND d.finished_at >= $1 AND ($2::timestamptz IS NULL OR d.finished_at < $2)
  AND ($3::uuid IS NULL OR d.webhook_id = $3) AND ($4::uuid IS NULL OR d.app_id = $4) AND ($5::uuid IS NULL OR d.tenant_id = $5)`;
const NOT_REPLAYED = `NOT EXISTS (SELECT 1 FROM webhook_deliveries r WHERE r.redelivery_of = d.id)`;
/** Its message still has its payload (not purged by retention). */
const NOT_PURGED = `NOT EXISTS (SELECT 1 FROM alert_messages pm WHERE pm.id = d.message_id AND pm.payload_purged_at IS NOT NULL)`;
/** Not one of the deliveries the caller skips (`$6`). */
const NOT_SKIPPED = `NOT (d.id = ANY($6::uuid[]))`;

function params(f: ReplayFilter): unknown[] {
  return [f.since, f.until ?? null, f.webhookId ?? null, f.appId ?? null, f.tenantId ?? null];
}

/** What a replay of `filter` would do, leaving out `skip` (read only). */
export async function planReplay(
  ds: DataSource,
  filter: ReplayFilter,
  skip: readonly string[] = [],
): Promise<ReplayPlan> {
  const groups: ReplayGroup[] = await ds.query(
    `SELECT d.webhook_id, w.app_id, d.tenant_id, w.endpoint, count(*)::int AS deliveries
       FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
      WHERE ${WINDOW} AND ${NOT_PURGED} AND ${NOT_REPLAYED} AND ${NOT_SKIPPED}
      GROUP BY d.webhook_id, w.app_id, d.tenant_id, w.endpoint
      ORDER BY count(*) DESC, d.webhook_id, d.tenant_id`,
    [...params(filter), [...skip]],
  );
  const [skipped] = await ds.query(
    `SELECT count(*) FILTER (WHERE ${NOT_PURGED} AND NOT ${NOT_REPLAYED})::int AS replayed,
            count(*) FILTER (WHERE ${NOT_PURGED} AND ${NOT_REPLAYED} AND NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id))::int AS deleted,
            count(*) FILTER (WHERE NOT ${NOT_PURGED} AND ${NOT_REPLAYED})::int AS purged
       FROM webhook_deliveries d WHERE ${WINDOW}`,
    params(filter),
  );
  return {
    groups,
    total: groups.reduce((n, g) => n + g.deliveries, 0),
    alreadyReplayed: skipped.replayed,
    webhookDeleted: skipped.deleted,
    notShared: skip.length,
    payloadPurged: skipped.purged,
  };
}

/**
 * The deliveries a replay of `filter` would redeliver to apps whose active data sharing limits
 * what they see (any mode but `all`): the ones the caller checks against that sharing.
 */
export function sharingLimitedDeliveries(ds: DataSource, filter: ReplayFilter): Promise<SharingLimitedDelivery[]> {
  return ds.query(
    `SELECT d.id, d.tenant_id, d.app_id, d.message_id
       FROM webhook_deliveries d
       JOIN webhooks w ON w.id = d.webhook_id
       JOIN tenant_app_deployments dep ON dep.tenant_id = d.tenant_id AND dep.app_id = d.app_id
       JOIN deployment_sharing s ON s.deployment_id = dep.id
      WHERE ${WINDOW} AND ${NOT_PURGED} AND ${NOT_REPLAYED} AND s.active->>'mode' <> 'all'`,
    params(filter),
  );
}

/**
 * Creates the redeliveries, each as the redeliver endpoint makes one (a new delivery with
 * `trigger = redeliver` and `redelivery_of` naming the original), but for `skip`, in one
 * transaction serialised with other replays. They are stored unqueued: the dispatcher's outbox relay queues them.
 * Returns how many.
 */
export async function replayUndeliverable(
  ds: DataSource,
  filter: ReplayFilter,
  skip: readonly string[] = [],
): Promise<number> {
  return ds.transaction(async (em) => {
    await em.query('SELECT pg_advisory_xact_lock($1)', [REPLAY_LOCK_ID]);
    const rows: { id: string }[] = await em.query(
      `INSERT INTO webhook_deliveries (id, tenant_id, app_id, webhook_id, message_id, kind, trigger, redelivery_of, status, due_at)
       SELECT gen_random_uuid(), d.tenant_id, w.app_id, d.webhook_id, d.message_id, w.type, 'redeliver', d.id, 'pending', now()
         FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
        WHERE ${WINDOW} AND ${NOT_PURGED} AND ${NOT_REPLAYED} AND ${NOT_SKIPPED}
        ORDER BY d.finished_at, d.id
       RETURNING id`,
      [...params(filter), [...skip]],
    );
    return rows.length;
  });
}
