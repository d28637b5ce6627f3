/**
 * Queue and job names. These values are persistent (they name keys in Redis): renaming one
 * strands the jobs already queued under the old name.
 */
export const QUEUES = {
  webhookDeliveries: 'webhook-deliveries',
} as const;

export const JOBS = {
  deliverWebhook: 'deliver-webhook',
} as const;

/** Job payloads carry ids only; bodies are read from PostgreSQL (design §6). */
export interface DeliverWebhookJob {
  name: typeof JOBS.deliverWebhook;
  data: { deliveryId: string };
}

export type QueueJob = DeliverWebhookJob;
