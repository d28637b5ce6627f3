/**
 * Queue names. These values are persistent (they name keys in Redis): renaming one strands the
 * jobs already queued under the old name. Jobs carry ids only; payloads stay in PostgreSQL.
 */
export const QUEUES = {
  webhookDeliveries: 'webhook-deliveries',
} as const;
