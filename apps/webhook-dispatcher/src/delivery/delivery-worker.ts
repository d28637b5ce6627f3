import { hostname } from 'node:os';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import { webhookTargetPolicy } from '@edu/config';
import { DELIVERY_BACKOFF, QUEUES, redisOptionsFromUrl, retryDelayMs, totalAttempts, type DeliveryJobData } from '@edu/queue';
import { WebhookTokenSigner } from '@edu/signing';
import { DispatcherEnv } from '../config/dispatcher.env';
import { DeliveryAttempt, SigningUnavailableError } from './delivery-attempt';
import { DispatchRepository, type AttemptOutcome, type DeliveryToSend } from '@edu/persistence';
import { DispatcherMetrics } from './dispatcher.metrics';
import { MessageTailCache } from './message-tail-cache';
import { MicroBatch } from './micro-batch';
import { RESOLVER } from './resolver.token';
import type { Resolver } from '@edu/http';
import { WebhookLoad } from './webhook-load';
import { WebhookSender } from './webhook-sender';

const OPEN = new Set(['pending', 'awaiting_retry']);
/** How long a job waits when the database or the signing key is unreachable (no attempt spent). */
const INFRA_PAUSE_MS = 5_000;

/**
 * The BullMQ worker of the delivery queue. A job carries a delivery id; the delivery is read from
 * PostgreSQL (in batches), attempted, and its outcome written (in batches) before the job
 * settles, so a job never completes with its result unrecorded. The retry schedule is BullMQ's
 * (attempts + a backoff strategy from config); the final failure is written here, by the handler.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('DeliveryWorker');
  private readonly worker: Worker<DeliveryJobData>;
  private readonly sender: WebhookSender;
  private readonly attempt: DeliveryAttempt;
  private readonly loads: MicroBatch<string, DeliveryToSend | undefined>;
  private readonly writes: MicroBatch<AttemptOutcome, undefined>;
  private readonly load: WebhookLoad;
  private readonly maxAttempts: number;
  readonly workerId: string;

  constructor(
    private readonly env: DispatcherEnv,
    private readonly repo: DispatchRepository,
    private readonly metrics: DispatcherMetrics,
    signer: WebhookTokenSigner,
    @Inject(RESOLVER) resolver: Resolver,
  ) {
    this.workerId = env.WORKER_ID ?? `${hostname()}:${process.pid}`;
    this.maxAttempts = totalAttempts(env.WEBHOOK_MAX_RETRIES);
    this.load = new WebhookLoad(env.WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK);
    this.sender = new WebhookSender({
      policy: webhookTargetPolicy(env),
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      connectionsPerOrigin: env.WEBHOOK_CONNECTIONS_PER_ORIGIN,
      resolver,
      userAgent: 'edu-platform-webhooks/1.0',
    });
    const tails = new MessageTailCache((ids) => repo.loadMessageBodies(ids), env.WEBHOOK_PAYLOAD_CACHE_BYTES);
    this.attempt = new DeliveryAttempt(signer, this.sender, tails, { retryBaseMs: env.WEBHOOK_RETRY_BASE_MS, alertsBaseUrl: env.ALERTS_PUBLIC_BASE_URL, workerId: this.workerId });
    this.loads = new MicroBatch(async (ids) => {
      const rows = await repo.loadForSending(ids);
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => byId.get(id));
    }, 500, 5);
    this.writes = new MicroBatch(async (outcomes) => {
      await repo.recordOutcomes(outcomes);
      return outcomes.map(() => undefined);
    }, 1_000, 20);
    this.worker = new Worker<DeliveryJobData>(QUEUES.webhookDeliveries, (job, token) => this.process(job, token), {
      connection: redisOptionsFromUrl(env.REDIS_URL),
      prefix: env.QUEUE_PREFIX,
      name: this.workerId,
      autorun: false,
      concurrency: env.WEBHOOK_CONCURRENCY,
      lockDuration: env.WEBHOOK_LOCK_DURATION_MS,
      stalledInterval: env.WEBHOOK_STALLED_INTERVAL_MS,
      maxStalledCount: env.WEBHOOK_MAX_STALLED_COUNT,
      settings: {
        backoffStrategy: (attemptsMade, type, _err, job) => {
          if (type !== DELIVERY_BACKOFF) return 0;
          return retryDelayMs(env.WEBHOOK_RETRY_BASE_MS, ((job?.data as DeliveryJobData | undefined)?.attemptOffset ?? 0) + attemptsMade);
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
    await this.writes.drain();
    await this.sender.close();
  }

  private async process(job: Job<DeliveryJobData>, token?: string): Promise<void> {
    const { deliveryId, attemptOffset } = job.data;
    let d: DeliveryToSend | undefined;
    try {
      d = await this.loads.add(deliveryId);
    } catch (err) {
      return this.pause(job, token, INFRA_PAUSE_MS, err);
    }
    // Finished, cancelled or unknown: a stall re-run, a re-add or a deleted webhook. Nothing to send.
    if (!d || !OPEN.has(d.status)) return;
    if (!d.endpoint) {
      await this.repo.cancel([d.id]);
      this.metrics.deliveries.inc({ outcome: 'cancelled' });
      return;
    }
    const done = await this.load.acquire(d.webhook_id);
    if (!done) {
      this.metrics.deferred.inc();
      return this.pause(job, token, this.load.deferMs(d.webhook_id));
    }
    try {
      const attemptNumber = attemptOffset + job.attemptsMade + 1;
      const final = d.trigger === 'test' || attemptNumber >= this.maxAttempts;
      let outcome: AttemptOutcome;
      try {
        outcome = await this.attempt.run(d, attemptNumber, final);
        await this.writes.add(outcome);
      } catch (err) {
        // Our side failed (signing key or database): try again later without spending an attempt.
        return await this.pause(job, token, INFRA_PAUSE_MS, err);
      }
      this.observe(outcome);
      if (outcome.status === 'awaiting_retry') throw new Error(`attempt ${attemptNumber} failed: ${outcome.errorCode} ${outcome.errorMessage ?? ''}`.trim());
      if (outcome.status === 'undeliverable') throw new UnrecoverableError(`attempt ${attemptNumber} failed (${outcome.errorCode}); the delivery is undeliverable`);
    } finally {
      done();
    }
  }

  /** Puts the job back in the delayed set without counting an attempt. */
  private async pause(job: Job<DeliveryJobData>, token: string | undefined, ms: number, cause?: unknown): Promise<never> {
    if (cause && !(cause instanceof SigningUnavailableError)) this.logger.warn({ err: cause, deliveryId: job.data.deliveryId }, 'Delivery postponed: a dependency is unavailable');
    await job.moveToDelayed(Date.now() + Math.round(ms), token);
    throw new DelayedError();
  }

  private observe(o: AttemptOutcome): void {
    const outcome = o.status === 'awaiting_retry' ? 'retry' : o.status;
    this.metrics.deliveries.inc({ outcome });
    this.metrics.attemptDuration.observe({ outcome, error_code: o.errorCode ?? 'none' }, o.durationMs / 1000);
    if (o.status === 'undeliverable') this.logger.warn({ deliveryId: o.deliveryId, attempt: o.attemptNumber, errorCode: o.errorCode }, 'Delivery undeliverable');
  }
}
