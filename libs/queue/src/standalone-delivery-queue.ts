import { Queue } from 'bullmq';
import { DeliveryQueue } from './delivery-queue';
import type { DeliveryJobData } from './delivery-jobs';
import { QUEUES } from './queues';
import { redisOptionsFromUrl } from './redis-connection';

export interface StandaloneDeliveryQueueOptions {
  redisUrl: string;
  /** Key prefix: the dispatcher's QUEUE_PREFIX. */
  prefix: string;
  /** Retries after the first attempt: the dispatcher's WEBHOOK_MAX_RETRIES. */
  maxRetries: number;
}

/**
 * The delivery queue's producer for a process that only adds a job now and then (the roster
 * change feed's push) and has no BullModule: the same job options as the alerts API's, so the
 * dispatcher treats its jobs like any other.
 */
export function standaloneDeliveryQueue(o: StandaloneDeliveryQueueOptions): {
  deliveries: DeliveryQueue;
  close(): Promise<void>;
} {
  const queue = new Queue<DeliveryJobData>(QUEUES.webhookDeliveries, {
    connection: redisOptionsFromUrl(o.redisUrl),
    prefix: o.prefix,
  });
  queue.on('error', () => undefined); // reported by the add that fails
  return { deliveries: new DeliveryQueue(queue, { maxRetries: o.maxRetries }), close: () => queue.close() };
}
