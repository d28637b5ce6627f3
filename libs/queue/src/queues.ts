/**
 * Queue names. These values are persistent (they name keys in Redis): renaming one strands the
 * jobs already queued under the old name. Jobs carry ids only; payloads stay in PostgreSQL.
 */
export const QUEUES = {
  webhookDeliveries: 'webhook-deliveries',
} as const;

/** Job name of a webhook delivery (persistent, like the queue names). */
export const DELIVERY_JOB = 'deliver';

/** Name of the retry schedule the dispatcher registers as its BullMQ backoff strategy. */
export const DELIVERY_BACKOFF = 'delivery-schedule';
