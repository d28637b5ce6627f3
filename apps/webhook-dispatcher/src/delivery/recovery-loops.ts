import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DeliveryQueue } from '@edu/queue';
import { DispatcherEnv } from '../config/dispatcher.env';
import { DispatchRepository } from '@edu/persistence';
import { DispatcherMetrics } from './dispatcher.metrics';

const RELAY_BATCH = 1_000;
/** The API queues its own deliveries right after its commit; the relay leaves them that long. */
const RELAY_MIN_AGE_MS = 2_000;
const SWEEP_PAGE = 500;
/** Job states that mean Redis no longer holds a live job for a delivery PostgreSQL says is open. */
const LOST_STATES = new Set(['unknown', 'completed', 'failed']);

/**
 * PostgreSQL is the record of every delivery; these loops make Redis agree with it.
 * - Outbox relay: deliveries stored but never queued (Redis was down when the API committed, or
 *   the API died in between) are queued.
 * - Sweeper: open deliveries overdue by a grace period whose job Redis no longer has (flushed,
 *   restarted without its data) are queued again, continuing their schedule where it stopped.
 * Every replica runs both; the job id (= delivery id) makes a double add harmless.
 */
@Injectable()
export class RecoveryLoops implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('DeliveryRecovery');
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;

  constructor(
    private readonly env: DispatcherEnv,
    private readonly repo: DispatchRepository,
    private readonly queue: DeliveryQueue,
    private readonly metrics: DispatcherMetrics,
  ) {}

  onApplicationBootstrap(): void {
    this.every('relay', this.env.WEBHOOK_RELAY_INTERVAL_MS, () => this.relay());
    this.every('sweep', this.env.WEBHOOK_SWEEP_INTERVAL_MS, () => this.sweep());
  }

  onModuleDestroy(): void {
    this.stopped = true;
    this.timers.forEach((t) => clearTimeout(t));
  }

  /** Queues unqueued deliveries; returns how many. */
  async relay(): Promise<number> {
    let total = 0;
    for (;;) {
      // Ids only: a relayed redelivery or test goes as a first attempt (the same schedule; a test
      // delivery's stored trigger still gives it one attempt).
      const n = await this.repo.relayUnqueued(RELAY_BATCH, RELAY_MIN_AGE_MS, (ids) =>
        this.queue.enqueue(ids.map((deliveryId) => ({ kind: 'first-attempt', deliveryId }))),
      );
      total += n;
      if (n < RELAY_BATCH || this.stopped) break;
    }
    if (total) {
      this.metrics.requeued.inc({ reason: 'unqueued' }, total);
      this.logger.log({ deliveries: total }, 'Outbox relay queued deliveries');
    }
    return total;
  }

  /** Re-queues overdue deliveries whose job is gone; returns how many. */
  async sweep(): Promise<number> {
    let total = 0;
    let after: { dueAt: Date; id: string } | undefined;
    for (;;) {
      const page = await this.repo.overdue(this.env.WEBHOOK_SWEEP_GRACE_MS, after, SWEEP_PAGE);
      if (page.length === 0 || this.stopped) break;
      const states = await Promise.all(page.map((d) => this.queue.state(d.id)));
      const lost = page.filter((_, i) => LOST_STATES.has(states[i]));
      if (lost.length) {
        // A finished job for an open delivery is stale (its outcome never reached PostgreSQL): replace it.
        await this.queue.remove(
          page.filter((_, i) => states[i] === 'completed' || states[i] === 'failed').map((d) => d.id),
        );
        // The schedule continues: attempts already made are carried as the job's offset.
        await this.queue.enqueue(
          lost.map((d) => ({ kind: 'requeued', deliveryId: d.id, attemptOffset: d.attempt_count })),
        );
        total += lost.length;
      }
      // Oldest first: a page whose jobs are all still in Redis means the queue is merely behind
      // (a long burst), not robbed; stop there instead of asking Redis about the whole backlog.
      if (lost.length === 0) break;
      const last = page[page.length - 1];
      after = { dueAt: last.due_at, id: last.id };
    }
    if (total) {
      this.metrics.requeued.inc({ reason: 'lost' }, total);
      this.logger.warn({ deliveries: total }, 'Sweeper re-queued deliveries whose job Redis had lost');
    }
    return total;
  }

  /** Runs `task` every `ms` after the previous run ended (runs never overlap). */
  private every(name: string, ms: number, task: () => Promise<unknown>): void {
    const run = async () => {
      try {
        await task();
      } catch (err) {
        this.logger.warn({ err, loop: name }, 'Delivery recovery pass failed; it runs again');
      }
      if (!this.stopped) this.timers.set(name, setTimeout(run, ms));
    };
    this.timers.set(name, setTimeout(run, ms));
  }
}
