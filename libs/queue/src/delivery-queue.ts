import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import type { JobsOptions, Queue } from 'bullmq';
import { totalAttempts } from './delivery-schedule';
import { attemptOffsetOf, deliveryJobData, type DeliveryJob, type DeliveryJobData } from './delivery-jobs';
import { DELIVERY_BACKOFF, DELIVERY_JOB, QUEUES } from './queues';

export const DELIVERY_QUEUE_SETTINGS = Symbol('DELIVERY_QUEUE_SETTINGS');

export interface DeliveryQueueSettings {
  /** Retries after the first attempt (spec: 10). */
  maxRetries: number;
}

/** A delivery job to add, optionally after a wait before its first attempt. */
export type DeliveryJobToQueue = DeliveryJob & { delayMs?: number };

/** Completed jobs are kept an hour so a re-add of the same delivery id is ignored meanwhile. */
const KEEP_COMPLETED = { age: 3600 };
const KEEP_FAILED = { age: 7 * 24 * 3600 };
const ADD_BATCH = 500;

/**
 * Producer of delivery jobs. The job id is the delivery id, so adding a delivery that is already
 * queued does nothing; BullMQ's attempts and backoff realise the retry schedule.
 */
@Injectable()
export class DeliveryQueue {
  constructor(
    @InjectQueue(QUEUES.webhookDeliveries) private readonly queue: Queue<DeliveryJobData>,
    @Inject(DELIVERY_QUEUE_SETTINGS) private readonly settings: DeliveryQueueSettings,
  ) {}

  /** Adds jobs; a delivery whose job is still in the queue is left as it is. */
  async enqueue(deliveries: readonly DeliveryJobToQueue[]): Promise<void> {
    for (let i = 0; i < deliveries.length; i += ADD_BATCH) {
      const batch = deliveries.slice(i, i + ADD_BATCH);
      await this.queue.addBulk(
        batch.map((job) => ({ name: DELIVERY_JOB, data: deliveryJobData(job), opts: this.jobOptions(job) })),
      );
    }
  }

  /**
   * Adds jobs for deliveries that may have had a job before (held deliveries of a re-enabled
   * webhook): a finished job of the same id is removed first, since BullMQ ignores adding an id it
   * still keeps; a job still waiting or delayed stays and runs at its time.
   */
  async requeue(deliveries: readonly DeliveryJobToQueue[]): Promise<void> {
    const states = await Promise.all(deliveries.map((d) => this.queue.getJobState(d.deliveryId)));
    await this.remove(
      deliveries.filter((_, i) => states[i] === 'completed' || states[i] === 'failed').map((d) => d.deliveryId),
    );
    await this.enqueue(deliveries);
  }

  /** Removes finished jobs so their delivery ids can be queued again. */
  async remove(deliveryIds: readonly string[]): Promise<void> {
    for (const id of deliveryIds) await this.queue.remove(id);
  }

  /** Jobs by state, and the age of the oldest waiting job (0 when none waits). */
  async stats(): Promise<{ waiting: number; delayed: number; active: number; oldestWaitingAgeMs: number }> {
    const counts = await this.queue.getJobCounts('waiting', 'delayed', 'active');
    const [oldest] = counts.waiting > 0 ? await this.queue.getWaiting(0, 0) : [];
    return {
      waiting: counts.waiting ?? 0,
      delayed: counts.delayed ?? 0,
      active: counts.active ?? 0,
      oldestWaitingAgeMs: oldest ? Math.max(0, Date.now() - (oldest.timestamp + (oldest.delay ?? 0))) : 0,
    };
  }

  /** Where a delivery's job is, or `unknown` when Redis has no such job. */
  state(deliveryId: string): Promise<string> {
    return this.queue.getJobState(deliveryId);
  }

  private jobOptions(job: DeliveryJobToQueue): JobsOptions {
    return {
      jobId: job.deliveryId,
      attempts: Math.max(1, totalAttempts(this.settings.maxRetries) - attemptOffsetOf(job)),
      backoff: { type: DELIVERY_BACKOFF },
      delay: job.delayMs && job.delayMs > 0 ? Math.round(job.delayMs) : undefined,
      lifo: job.kind === 'test' || undefined,
      removeOnComplete: KEEP_COMPLETED,
      removeOnFail: KEEP_FAILED,
    };
  }
}
