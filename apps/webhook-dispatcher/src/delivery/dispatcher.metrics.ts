import { Injectable } from '@nestjs/common';
import { Counter, Gauge, Histogram } from 'prom-client';
import { MetricsRegistry } from '@edu/http';
import { WEBHOOK_DISABLED_REASONS } from '@edu/persistence';
import { DeliveryQueue } from '@edu/queue';

/** Outcomes of attempts; `retry` = failed, another attempt is scheduled. */
export type AttemptOutcomeLabel = 'delivered' | 'retry' | 'undeliverable' | 'cancelled' | 'expired';

/** Dispatcher metrics (names documented in apps/webhook-dispatcher/src/README.md). */
@Injectable()
export class DispatcherMetrics {
  readonly deliveries: Counter<'outcome'>;
  readonly attemptDuration: Histogram<'outcome' | 'error_code'>;
  readonly queueJobs: Gauge<'state'>;
  readonly oldestWaitingAge: Gauge;
  readonly deferred: Counter;
  readonly requeued: Counter<'reason'>;
  readonly webhooksDisabled: Counter<'reason'>;
  readonly retryAfter: Counter<'capped'>;
  readonly held: Counter;
  readonly throttled: Counter;

  constructor(metrics: MetricsRegistry, queue: DeliveryQueue) {
    const registers = [metrics.registry];
    this.deliveries = new Counter({
      name: 'webhook_deliveries_total',
      help: 'Delivery attempts by outcome (delivered, retry, undeliverable) and deliveries cancelled or expired (payload purged) before sending',
      labelNames: ['outcome'],
      registers,
    });
    this.attemptDuration = new Histogram({
      name: 'webhook_attempt_duration_seconds',
      help: 'Duration of delivery attempts (connect, send, response headers)',
      labelNames: ['outcome', 'error_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    // Read from Redis on every scrape, so the figures are never older than the scrape.
    let stats: ReturnType<DeliveryQueue['stats']> | undefined;
    const freshStats = () => (stats ??= queue.stats().finally(() => setImmediate(() => (stats = undefined))));
    this.queueJobs = new Gauge({
      name: 'webhook_queue_jobs',
      help: 'Jobs in the delivery queue by state (waiting, delayed, active)',
      labelNames: ['state'],
      registers,
      async collect() {
        const s = await freshStats();
        this.set({ state: 'waiting' }, s.waiting);
        this.set({ state: 'delayed' }, s.delayed);
        this.set({ state: 'active' }, s.active);
      },
    });
    this.oldestWaitingAge = new Gauge({
      name: 'webhook_queue_oldest_waiting_age_seconds',
      help: 'How long the oldest job waiting in the delivery queue has been due (0 when none waits)',
      registers,
      async collect() {
        this.set((await freshStats()).oldestWaitingAgeMs / 1000);
      },
    });
    this.deferred = new Counter({
      name: 'webhook_deliveries_deferred_total',
      help: 'Jobs put back for a moment because their webhook had the most deliveries in flight allowed',
      registers,
    });
    this.requeued = new Counter({
      name: 'webhook_deliveries_requeued_total',
      help: 'Deliveries queued by the outbox relay (reason=unqueued) or re-queued by the sweeper after Redis lost their job (reason=lost)',
      labelNames: ['reason'],
      registers,
    });
    this.webhooksDisabled = new Counter({
      name: 'webhook_endpoints_disabled_total',
      help: 'Webhooks disabled by the dispatcher, by reason (endpoint_gone: a 410 answer; failing; undeliverable)',
      labelNames: ['reason'],
      registers,
    });
    for (const reason of WEBHOOK_DISABLED_REASONS) this.webhooksDisabled.inc({ reason }, 0);
    this.retryAfter = new Counter({
      name: 'webhook_retry_after_total',
      help: 'Failed attempts whose 429 or 503 answer asked for a later retry with Retry-After (capped="true": beyond the cap)',
      labelNames: ['capped'],
      registers,
    });
    for (const capped of ['true', 'false']) this.retryAfter.inc({ capped }, 0);
    this.throttled = new Counter({
      name: 'webhook_deliveries_throttled_total',
      help: "Jobs put back until their slot because their webhook's rate_limit was reached (no attempt spent)",
      registers,
    });
    this.held = new Counter({
      name: 'webhook_deliveries_held_total',
      help: 'Deliveries found open for a disabled webhook at their turn and held (not sent) until it is re-enabled',
      registers,
    });
  }
}
