import type { EntityManager } from 'typeorm';
import type { DisabledWebhook } from './webhook-health';

/** The body of an `endpoint.disabled` event: which webhook, why, since when. */
export function endpointDisabledEvent(w: DisabledWebhook): Record<string, unknown> {
  return {
    webhook_id: w.id,
    endpoint: w.endpoint,
    reason: w.disabled_reason,
    disabled_at: new Date(w.disabled_at).toISOString(),
    failing_since: w.failing_since ? new Date(w.failing_since).toISOString() : null,
    consecutive_undeliverable: w.consecutive_undeliverable,
    re_enable: `PATCH /v2/alerts/webhook/${w.id} {"status": "active"}`,
  };
}

/**
 * Tells the app that webhooks of it were disabled: an `endpoint.disabled` event delivery to each
 * of its webhooks (at the tenant of the delivery that disabled it). To its other active webhooks
 * it is sent now (unqueued: the outbox relay queues it); to disabled ones, the disabled webhook
 * included, it is held, a line in that webhook's delivery log sent once it is re-enabled.
 */
export async function insertDisabledEvents(em: EntityManager, disabled: DisabledWebhook[]): Promise<number> {
  if (disabled.length === 0) return 0;
  const rows: unknown[] = await em.query(
    `INSERT INTO webhook_deliveries (id, tenant_id, app_id, webhook_id, message_id, kind, trigger, status, due_at, reason, event_type, event)
     SELECT gen_random_uuid(), e.tenant_id, w.app_id, w.id, NULL, w.type, 'event',
            CASE WHEN w.status = 'disabled' THEN 'held' ELSE 'pending' END,
            CASE WHEN w.status = 'disabled' THEN NULL ELSE now() END,
            CASE WHEN w.status = 'disabled' THEN 'webhook_disabled' END,
            'endpoint.disabled', e.event
       FROM unnest($1::uuid[], $2::uuid[], $3::jsonb[]) WITH ORDINALITY AS e(app_id, tenant_id, event, n)
       JOIN webhooks w ON w.app_id = e.app_id
      ORDER BY e.n, w.id
     RETURNING id`,
    [
      disabled.map((w) => w.app_id),
      disabled.map((w) => w.tenant_id),
      disabled.map((w) => JSON.stringify(endpointDisabledEvent(w))),
    ],
  );
  return rows.length;
}
