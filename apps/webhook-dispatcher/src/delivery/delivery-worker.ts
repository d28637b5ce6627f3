import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import {
  DELIVERY_BACKOFF,
  QUEUES,
  attemptOffsetOf,
  deliveryJobOf,
  redisOptionsFromUrl,
  retryDelayMs,
  type DeliveryJobData,
} from '@edu/queue';
import { DispatcherEnv } from '../config/dispatcher.env';
import { DeliveryJobRouter } from './delivery-job-handlers';
import { DeliveryService } from './delivery.service';
import type { JobSettlement } from './job-settlement';
import { WORKER_ID } from './worker-id.token';

/** A failed attempt whose next one is due `delayMs` later at least (handed to the backoff strategy). */
class RetryLaterError extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
  }
}

/**
 * The BullMQ worker of the delivery queue. It hands each job to the handler of its kind and
 * settles the job as the delivery service says; the retry schedule is BullMQ's (attempts + a
 * backoff strategy from config).
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('DeliveryWorker');
  private readonly worker: Worker<DeliveryJobData>;

  constructor(
    env: DispatcherEnv,
    private readonly router: DeliveryJobRouter,
    private readonly service: DeliveryService,
    @Inject(WORKER_ID) readonly workerId: string,
  ) {
    this.worker = new Worker<DeliveryJobData>(QUEUES.webhookDeliveries, (job, token) => this.process(job, token), {
      connection: redisOptionsFromUrl(env.REDIS_URL),
      prefix: env.QUEUE_PREFIX,
      name: workerId,
      autorun: false,
      concurrency: env.WEBHOOK_CONCURRENCY,
      lockDuration: env.WEBHOOK_LOCK_DURATION_MS,
      stalledInterval: env.WEBHOOK_STALLED_INTERVAL_MS,
      maxStalledCount: env.WEBHOOK_MAX_STALLED_COUNT,
      settings: {
        backoffStrategy: (attemptsMade, type, err, job) => {
          if (type !== DELIVERY_BACKOFF || !job) return 0;
          const scheduled = retryDelayMs(
            env.WEBHOOK_RETRY_BASE_MS,
            attemptOffsetOf(deliveryJobOf(job.data as DeliveryJobData)) + attemptsMade,
          );
          // The receiver asked for a longer wait (Retry-After): at least that, never sooner than the schedule.
          return err instanceof RetryLaterError ? Math.max(scheduled, err.delayMs) : scheduled;
        },
      },
    });
    this.worker.on('error', (err) => this.logger.error({ err }, 'Delivery worker error'));
  }

  onApplicationBootstrap(): void {
    void this.worker.run().catch((err) => this.logger.error({ err }, 'Delivery worker stopped'));
  }

  /** Stops taking jobs, lets the active ones finish and record their outcome, then closes. */
  async onModuleDestroy(): Promise<void> {
    await this.worker.close();
    await this.service.finish();
  }

  private async process(job: Job<DeliveryJobData>, token?: string): Promise<void> {
    const settlement = await this.router.route(job.data, job.attemptsMade);
    if (settlement.kind !== 'done') await this.settle(job, token, settlement);
  }

  /** Puts the job back without spending an attempt, or fails this attempt (retried or final). */
  private async settle(
    job: Job<DeliveryJobData>,
    token: string | undefined,
    s: Exclude<JobSettlement, { kind: 'done' }>,
  ): Promise<never> {
    switch (s.kind) {
      case 'postpone':
        await job.moveToDelayed(Date.now() + Math.round(s.ms), token);
        throw new DelayedError();
      case 'retry':
        throw s.delayMs === undefined ? new Error(s.reason) : new RetryLaterError(s.reason, s.delayMs);
      case 'give-up':
        throw new UnrecoverableError(s.reason);
    }
  }
}
