import { OPEN_DELIVERY_STATUSES_SQL, UNSENT_DELIVERY_STATUSES_SQL } from '../entities';

/**
 * The one cancel statement: the open and held deliveries matching `where` (a condition on `d`,
 * built from constants and placeholders only) end as `cancelled` and are never sent. Used when a
 * webhook is deleted (by its app or by the orphan clean-up) and by the dispatcher for a deleted webhook.
 */
export function cancelOpenDeliveriesSql(where: string): string {
  return `UPDATE webhook_deliveries d SET status = 'cancelled', reason = NULL, finished_at = now(), due_at = NULL
     WHERE (${where}) AND d.status IN ${UNSENT_DELIVERY_STATUSES_SQL}
     RETURNING d.id`;
}

/**
 * The one hold statement: the open deliveries matching `where` (a condition on `d`) wait, without
 * a job, for their disabled webhook to be re-enabled (status `held`, reason `webhook_disabled`).
 * Test deliveries are never held: they are how a partner checks an endpoint before re-enabling it.
 */
export function holdOpenDeliveriesSql(where: string): string {
  return `UPDATE webhook_deliveries d SET status = 'held', reason = 'webhook_disabled', due_at = NULL
     WHERE (${where}) AND d.status IN ${OPEN_DELIVERY_STATUSES_SQL} AND d.trigger <> 'test'
     RETURNING d.id`;
}

/** Records that the queue holds these deliveries' jobs (`$1`: their ids); the outbox relay skips them. */
export const MARK_ENQUEUED_SQL = `UPDATE webhook_deliveries SET enqueued_at = now() WHERE id = ANY($1::uuid[]) AND enqueued_at IS NULL`;

/** What the counters of a message count (spec 2.10; the items of the message multiply them). */
export interface MessageCounts {
  /** Deliveries still under way, held ones included (queued_alert_count). */
  open_deliveries: number;
  /** Deliveries answered 2xx (sent_alert_count). */
  delivered_deliveries: number;
  /** Apps that read the message through getMessage (fetched_alert_count). */
  fetching_apps: number;
}

/**
 * The one counters statement: one row of MessageCounts for the message `messageId` (an SQL
 * expression such as `m.id`), for use as a LATERAL subquery.
 */
export function messageCountsSql(messageId: string): string {
  return `SELECT count(*) FILTER (WHERE x.status IN ${UNSENT_DELIVERY_STATUSES_SQL})::int AS open_deliveries,
                  count(*) FILTER (WHERE x.status = 'delivered')::int AS delivered_deliveries,
                  (SELECT count(*)::int FROM alert_message_fetches f WHERE f.message_id = ${messageId}) AS fetching_apps
             FROM webhook_deliveries x WHERE x.message_id = ${messageId}`;
}
