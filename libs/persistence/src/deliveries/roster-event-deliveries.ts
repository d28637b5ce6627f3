/** The `event_type` (and token `type`) of a batch of roster change feed events pushed to a webhook. */
export const ROSTER_EVENTS_DELIVERY_TYPE = 'roster.events';

/**
 * Stores one batch of the roster change feed as an event delivery to a `roster-events` webhook
 * that is still active ($1 tenant, $2 webhook, $3 the batch as JSON text): pending and due now,
 * unqueued until the caller queues it after its commit (or the dispatcher's outbox relay does).
 * Returns its id; no row when the webhook is gone or disabled.
 */
export const INSERT_ROSTER_EVENTS_DELIVERY_SQL = `INSERT INTO webhook_deliveries (id, tenant_id, app_id, webhook_id, message_id, kind, trigger, status, due_at, event_type, event)
  SELECT gen_random_uuid(), $1::uuid, w.app_id, w.id, NULL, w.type, 'event', 'pending', now(), '${ROSTER_EVENTS_DELIVERY_TYPE}', $3::jsonb
    FROM webhooks w WHERE w.id = $2::uuid AND w.kind = 'roster-events' AND w.status = 'active'
  RETURNING id`;

/**
 * Delivery statuses after which a batch is finished: `delivered` moves its stream on, the others
 * (undeliverable, cancelled, expired by payload retention before it was sent) have it read and
 * sent again. `held` is not finished: its webhook is disabled, and re-enabling it sends the batch.
 */
export const FINISHED_DELIVERY_STATUSES = ['delivered', 'undeliverable', 'cancelled', 'withheld', 'expired'] as const;
