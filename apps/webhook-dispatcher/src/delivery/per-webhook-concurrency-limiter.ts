/**
 * Caps how many deliveries of each webhook one worker process has in flight, knowing since when
 * each runs and how long the webhook usually takes to answer.
 *
 * At most `maxInFlight` deliveries per webhook run at once. Work over that cap for a webhook that
 * answers quickly waits here for a slot (briefly, and no more of it than the cap), since one is
 * about to free up; work for a slow or hanging webhook does not wait (it would hold worker slots
 * other webhooks need): it is put back in the queue for about one usual answer time, so it is
 * neither back at once nor spinning through the queue every second.
 */
export class PerWebhookConcurrencyLimiter {
  private readonly inFlight = new Map<string, number[]>();
  private readonly typicalMs = new Map<string, number>();
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(
    private readonly maxInFlight: number,
    private readonly o = { minDeferMs: 200, maxDeferMs: 30_000, fastMs: 1_000, maxWaitMs: 2_000 },
  ) {}

  /** Starts a delivery unless the webhook is at its cap; returns a function that ends it. */
  tryStart(webhookId: string, now = Date.now()): (() => void) | undefined {
    const started = this.inFlight.get(webhookId) ?? [];
    if (started.length >= this.maxInFlight) return undefined;
    started.push(now);
    this.inFlight.set(webhookId, started);
    return () => this.end(webhookId, now);
  }

  /**
   * Starts a delivery now, or once a slot frees if the webhook answers quickly (within
   * `maxWaitMs`); undefined when the caller should put the work back in the queue instead.
   */
  async acquire(webhookId: string): Promise<(() => void) | undefined> {
    const now = Date.now();
    const started = this.tryStart(webhookId, now);
    if (started) return started;
    const queue = this.waiting.get(webhookId) ?? [];
    if (!this.answersQuickly(webhookId, now) || queue.length >= this.maxInFlight) return undefined;
    return new Promise((resolve) => {
      const handOver = () => {
        clearTimeout(timer);
        resolve(this.tryStart(webhookId));
      };
      const timer = setTimeout(() => {
        const i = queue.indexOf(handOver);
        if (i >= 0) queue.splice(i, 1);
        resolve(undefined);
      }, this.o.maxWaitMs);
      queue.push(handOver);
      this.waiting.set(webhookId, queue);
    });
  }

  /** How long work refused by `acquire` waits in the queue: the usual answer time, or the oldest wait so far. */
  deferMs(webhookId: string, now = Date.now(), random = Math.random()): number {
    const typical = Math.max(this.typicalMs.get(webhookId) ?? 0, this.oldestWait(webhookId, now));
    return Math.round(Math.min(this.o.maxDeferMs, Math.max(this.o.minDeferMs, typical)) * (1 + random));
  }

  inFlightCount(webhookId: string): number {
    return this.inFlight.get(webhookId)?.length ?? 0;
  }

  private answersQuickly(webhookId: string, now: number): boolean {
    const typical = this.typicalMs.get(webhookId);
    return typical !== undefined && typical < this.o.fastMs && this.oldestWait(webhookId, now) < this.o.fastMs;
  }

  private oldestWait(webhookId: string, now: number): number {
    const oldest = this.inFlight.get(webhookId)?.[0];
    return oldest === undefined ? 0 : now - oldest;
  }

  private end(webhookId: string, startedAt: number): void {
    const started = this.inFlight.get(webhookId) ?? [];
    const i = started.indexOf(startedAt);
    if (i >= 0) started.splice(i, 1);
    if (started.length === 0) this.inFlight.delete(webhookId);
    const took = Date.now() - startedAt;
    const before = this.typicalMs.get(webhookId);
    this.typicalMs.set(webhookId, before === undefined ? took : before * 0.8 + took * 0.2);
    const next = this.waiting.get(webhookId)?.shift();
    if (next) next();
  }
}
