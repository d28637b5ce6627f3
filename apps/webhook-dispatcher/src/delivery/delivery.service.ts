import { Injectable, Logger } from '@nestjs/common';
import { DispatchRepository, isOpenDelivery, type DeliveryToSend } from '@edu/persistence';
import { totalAttempts } from '@edu/queue';
import { DispatcherEnv } from '../config/dispatcher.env';
import { DeliveryAttempt, SigningUnavailableError, type AttemptResult } from './delivery-attempt';
import { DeliveryReads, OutcomeWrites } from './delivery-batches';
import { DispatcherMetrics } from './dispatcher.metrics';
import { DONE, type JobSettlement } from './job-settlement';
import { PerWebhookConcurrencyLimiter } from './per-webhook-concurrency-limiter';
import { WebhookSender } from './webhook-sender';
import { WebhookThrottle } from './webhook-throttle';

/** How long a job waits when the database or the signing key is unreachable (no attempt spent). */
const INFRA_PAUSE: JobSettlement = Object.freeze({ kind: 'postpone', ms: 5_000 });

/**
 * One attempt of one delivery: read it from PostgreSQL (batched), take a slot of its webhook,
 * attempt it, and write the outcome (batched) before saying how the job settles, so a job never
 * completes with its result unrecorded. The final failure is written here too.
 */
@Injectable()
export class DeliveryService {
  private readonly logger = new Logger('DeliveryService');
  private readonly maxAttempts: number;

  constructor(
    env: DispatcherEnv,
    private readonly repo: DispatchRepository,
    private readonly metrics: DispatcherMetrics,
    private readonly reads: DeliveryReads,
    private readonly writes: OutcomeWrites,
    private readonly limiter: PerWebhookConcurrencyLimiter,
    private readonly attempts: DeliveryAttempt,
    private readonly sender: WebhookSender,
    private readonly throttle: WebhookThrottle,
  ) {
    this.maxAttempts = totalAttempts(env.WEBHOOK_MAX_RETRIES);
  }

  /**
   * Makes the next attempt of a delivery if it is still open. `attemptsBefore`: attempts already
   * made; `onlyAttempt`: this attempt is the last whatever it gives (a test delivery's, which its
   * stored trigger also says).
   */
  async attempt(deliveryId: string, attemptsBefore: number, onlyAttempt: boolean): Promise<JobSettlement> {
    let d: DeliveryToSend | undefined;
    try {
      d = await this.reads.add(deliveryId);
    } catch (err) {
      return this.postponed(deliveryId, err);
    }
    // Finished, cancelled or unknown: a stall re-run, a re-add or a deleted webhook. Nothing to send.
    if (!d || !isOpenDelivery(d.status)) return DONE;
    const unsendable = await this.unsendable(d);
    if (unsendable) return unsendable;
    try {
      const later = await this.throttled(d);
      if (later) return later;
    } catch (err) {
      return this.postponed(deliveryId, err);
    }
    const release = await this.limiter.acquire(d.webhook_id);
    if (!release) {
      this.metrics.deferred.inc();
      return { kind: 'postpone', ms: this.limiter.deferMs(d.webhook_id) };
    }
    try {
      const attemptNumber = attemptsBefore + 1;
      const final = onlyAttempt || d.trigger === 'test' || attemptNumber >= this.maxAttempts;
      let outcome: AttemptResult;
      let written: { webhookDisabled: boolean };
      try {
        outcome = await this.attempts.run(d, attemptNumber, final);
        written = await this.writes.add(outcome);
      } catch (err) {
        // Our side failed (signing key or database): try again later without spending an attempt.
        return this.postponed(deliveryId, err);
      }
      this.observe(outcome);
      return settlementOf(outcome, written.webhookDisabled);
    } finally {
      release();
    }
  }

  /**
   * For a webhook with a `rate_limit`: waits for the delivery's slot when it is due within a few
   * ms; otherwise the job goes back until its slot (no attempt spent). Undefined: send now.
   */
  private async throttled(d: DeliveryToSend): Promise<JobSettlement | undefined> {
    if (!d.rate_limit) return undefined;
    const slot = await this.throttle.take(d.webhook_id, d.id, d.rate_limit);
    if (!slot.go) {
      this.metrics.throttled.inc();
      return { kind: 'postpone', ms: slot.waitMs };
    }
    if (slot.waitMs > 0) await new Promise((r) => setTimeout(r, slot.waitMs));
    return undefined;
  }

  /**
   * How a delivery that cannot be sent now settles: cancelled when its webhook is gone, expired
   * when its payload was purged, held when its webhook is disabled (tests excepted); undefined
   * when it can be sent.
   */
  private async unsendable(d: DeliveryToSend): Promise<JobSettlement | undefined> {
    if (!d.endpoint) {
      await this.repo.cancel([d.id]);
      this.metrics.deliveries.inc({ outcome: 'cancelled' });
      return DONE;
    }
    if (d.payload_purged) {
      await this.repo.expire([d.id]);
      this.metrics.deliveries.inc({ outcome: 'expired' });
      return DONE;
    }
    if (d.webhook_status === 'disabled' && d.trigger !== 'test') {
      await this.repo.hold([d.id]);
      this.metrics.held.inc();
      return DONE;
    }
    return undefined;
  }

  /** Writes the outcomes still batched and closes the sender's connections; once no job runs. */
  async finish(): Promise<void> {
    await this.writes.drain();
    await this.sender.close();
    this.throttle.close();
  }

  private postponed(deliveryId: string, cause: unknown): JobSettlement {
    // A missing signing key is logged, now and then, where it is detected.
    if (!(cause instanceof SigningUnavailableError))
      this.logger.warn({ err: cause, deliveryId }, 'Delivery postponed: a dependency is unavailable');
    return INFRA_PAUSE;
  }

  private observe(o: AttemptResult): void {
    const outcome = o.status === 'awaiting_retry' ? 'retry' : o.status;
    this.metrics.deliveries.inc({ outcome });
    this.metrics.attemptDuration.observe({ outcome, error_code: o.errorCode ?? 'none' }, o.durationMs / 1000);
    if (o.status === 'undeliverable')
      this.logger.warn(
        { deliveryId: o.deliveryId, attempt: o.attemptNumber, errorCode: o.errorCode },
        'Delivery undeliverable',
      );
    if (o.retryAfter) this.metrics.retryAfter.inc({ capped: String(o.retryAfter.capped) });
  }
}

/** How the job of an attempt settles: done, retried (after the schedule's delay or Retry-After's), or given up. */
function settlementOf(o: AttemptResult, webhookDisabled: boolean): JobSettlement {
  // The attempt disabled its webhook (410): the delivery is held now, no retry.
  if (webhookDisabled && o.status === 'awaiting_retry') return DONE;
  if (o.status === 'awaiting_retry')
    return {
      kind: 'retry',
      reason: `attempt ${o.attemptNumber} failed: ${o.errorCode} ${o.errorMessage ?? ''}`.trim(),
      delayMs: o.nextDelayMs ?? undefined,
    };
  if (o.status === 'undeliverable')
    return {
      kind: 'give-up',
      reason: `attempt ${o.attemptNumber} failed (${o.errorCode}); the delivery is undeliverable`,
    };
  return DONE;
}
