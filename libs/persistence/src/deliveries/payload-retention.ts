import type { DataSource, EntityManager } from 'typeorm';
import { PAYLOAD_RETENTION_DAYS, UNSENT_DELIVERY_STATUSES_SQL } from '../entities';

/** What a purge did. */
export interface PurgeCount {
  messages: number;
  events: number;
  /** Deliveries that had not finished sending and never will: `expired`. */
  expired: number;
}

/** Deliveries of these messages (`$1`) of the tenant (`$2`) that never finished sending end `expired` (their payload is gone). */
const EXPIRE_UNSENT_OF_MESSAGES = `UPDATE webhook_deliveries SET status = 'expired', reason = 'payload_purged', due_at = NULL, finished_at = now()
  WHERE message_id = ANY($1::uuid[]) AND tenant_id = $2 AND status IN ${UNSENT_DELIVERY_STATUSES_SQL} RETURNING id`;
/** The receivers' answers to deliveries of these messages go too: they may echo what was sent. */
const FORGET_ANSWERS_OF_MESSAGES = `UPDATE webhook_delivery_attempts a SET response_excerpt = NULL
  FROM webhook_deliveries d WHERE a.delivery_id = d.id AND d.message_id = ANY($1::uuid[]) AND d.tenant_id = $2 AND a.response_excerpt IS NOT NULL`;

/** Every tenant of this database with its retention (the default when it set none). */
export function tenantRetentions(ds: DataSource): Promise<{ tenant_id: string; days: number }[]> {
  return ds.query(
    `SELECT t.id AS tenant_id, COALESCE(s.delivery_payload_retention_days, $1)::int AS days
       FROM tenants t LEFT JOIN tenant_delivery_settings s ON s.tenant_id = t.id ORDER BY t.id`,
    [PAYLOAD_RETENTION_DAYS.default],
  );
}

/** Purges messages (`ids` of the tenant) in one transaction: payload emptied, unsent deliveries expired, answers forgotten. */
async function purgeMessages(
  em: EntityManager,
  tenantId: string,
  ids: string[],
): Promise<{ messages: number; expired: number }> {
  if (ids.length === 0) return { messages: 0, expired: 0 };
  const [purged]: [{ id: string }[], number] = await em.query(
    `UPDATE alert_messages SET recipient = '{}'::jsonb, alerts = '[]'::json, payload_purged_at = now()
      WHERE id = ANY($1::uuid[]) AND tenant_id = $2 AND payload_purged_at IS NULL RETURNING id`,
    [ids, tenantId],
  );
  const done = purged.map((r) => r.id);
  const [expired]: [unknown[], number] = await em.query(EXPIRE_UNSENT_OF_MESSAGES, [done, tenantId]);
  await em.query(FORGET_ANSWERS_OF_MESSAGES, [done, tenantId]);
  return { messages: done.length, expired: expired.length };
}

/**
 * One batch of a tenant's payloads older than `days`: up to `limit` messages, then up to `limit`
 * event deliveries (their `event` body). Rows other replicas are purging are skipped.
 */
export async function purgeTenantBatch(
  ds: DataSource,
  tenantId: string,
  days: number,
  limit: number,
): Promise<PurgeCount> {
  return ds.transaction(async (em) => {
    const due: { id: string }[] = await em.query(
      `SELECT id FROM alert_messages WHERE tenant_id = $1 AND payload_purged_at IS NULL
          AND created_at < now() - $2::int * interval '1 day'
        ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED`,
      [tenantId, days, limit],
    );
    const { messages, expired } = await purgeMessages(
      em,
      tenantId,
      due.map((r) => r.id),
    );
    const [events]: [{ id: string; status: string }[], number] = await em.query(
      `UPDATE webhook_deliveries d SET event = NULL,
              status = CASE WHEN d.status IN ${UNSENT_DELIVERY_STATUSES_SQL} THEN 'expired' ELSE d.status END,
              reason = CASE WHEN d.status IN ${UNSENT_DELIVERY_STATUSES_SQL} THEN 'payload_purged' ELSE d.reason END,
              due_at = CASE WHEN d.status IN ${UNSENT_DELIVERY_STATUSES_SQL} THEN NULL ELSE d.due_at END,
              finished_at = COALESCE(d.finished_at, now())
        WHERE d.id IN (SELECT id FROM webhook_deliveries WHERE tenant_id = $1 AND event IS NOT NULL
                          AND created_at < now() - $2::int * interval '1 day'
                        ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING d.id, d.status`,
      [tenantId, days, limit],
    );
    if (events.length)
      await em.query(
        `UPDATE webhook_delivery_attempts a SET response_excerpt = NULL
           FROM webhook_deliveries d WHERE a.delivery_id = d.id AND d.id = ANY($1::uuid[]) AND d.tenant_id = $2 AND a.response_excerpt IS NOT NULL`,
        [events.map((e) => e.id), tenantId],
      );
    return { messages, events: events.length, expired: expired + events.filter((e) => e.status === 'expired').length };
  });
}

/**
 * Purges one message's payload now (the operator's or the tenant's expunge), as retention would.
 * Undefined for a message the tenant does not have; a message already purged keeps its time.
 */
export async function expungeMessagePayload(
  ds: DataSource,
  tenantId: string,
  messageId: string,
): Promise<{ purgedAt: Date; expired: number } | undefined> {
  return ds.transaction(async (em) => {
    const [row]: { payload_purged_at: Date | null }[] = await em.query(
      `SELECT payload_purged_at FROM alert_messages WHERE id = $1 AND tenant_id = $2 FOR UPDATE`,
      [messageId, tenantId],
    );
    if (!row) return undefined;
    const { expired } = row.payload_purged_at ? { expired: 0 } : await purgeMessages(em, tenantId, [messageId]);
    const [after]: { payload_purged_at: Date }[] = await em.query(
      `SELECT payload_purged_at FROM alert_messages WHERE id = $1 AND tenant_id = $2`,
      [messageId, tenantId],
    );
    return { purgedAt: after.payload_purged_at, expired };
  });
}

/**
 * Whether a message of the tenant has had its payload purged, and whether `appId` was ever to get
 * it (a delivery not withheld): such an app is told the payload is gone, any other is answered as
 * for an unknown message. Undefined for a message the tenant does not have.
 */
export async function purgedMessageState(
  ds: DataSource,
  tenantId: string,
  messageId: string,
  appId: string,
): Promise<{ purged: boolean; deliveredToApp: boolean } | undefined> {
  const [row]: { purged: boolean; delivered_to_app: boolean }[] = await ds.query(
    `SELECT m.payload_purged_at IS NOT NULL AS purged,
            EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.message_id = m.id AND d.app_id::text = $3 AND d.status <> 'withheld') AS delivered_to_app
       FROM alert_messages m WHERE m.id = $1 AND m.tenant_id = $2`,
    [messageId, tenantId, appId],
  );
  return row && { purged: row.purged, deliveredToApp: row.delivered_to_app };
}
