/**
 * Per-webhook load of one worker process: how many deliveries are in flight, since when, and how
 * long the webhook usually takes to answer. It decides whether another delivery may start now and,
 * if not, how long it should wait before trying again: about one usual answer time (at least
 * `minDeferMs`), so work for a fast endpoint is back in a moment while work for a hanging one
 * does not spin through the queue every second.
 */
export class WebhookLoad {
  private readonly inFlight = new Map<string, number[]>();
  private readonly typicalMs = new Map<string, number>();

  constructor(
    private readonly maxInFlight: number,
    private readonly minDeferMs = 200,
    private readonly maxDeferMs = 30_000,
  ) {}

  /** Starts a delivery unless the webhook is at its cap; returns a function that ends it. */
  tryStart(webhookId: string, now = Date.now()): (() => void) | undefined {
    const started = this.inFlight.get(webhookId) ?? [];
    if (started.length >= this.maxInFlight) return undefined;
    started.push(now);
    this.inFlight.set(webhookId, started);
    return () => this.end(webhookId, now);
  }

  /** How long a delivery refused by `tryStart` waits: the typical answer time, or the oldest wait so far. */
  deferMs(webhookId: string, now = Date.now(), random = Math.random()): number {
    const oldest = this.inFlight.get(webhookId)?.[0];
    const waiting = oldest === undefined ? 0 : now - oldest;
    const typical = Math.max(this.typicalMs.get(webhookId) ?? 0, waiting);
    return Math.round(Math.min(this.maxDeferMs, Math.max(this.minDeferMs, typical)) * (1 + random));
  }

  inFlightCount(webhookId: string): number {
    return this.inFlight.get(webhookId)?.length ?? 0;
  }

  private end(webhookId: string, startedAt: number): void {
    const started = this.inFlight.get(webhookId) ?? [];
    const i = started.indexOf(startedAt);
    if (i >= 0) started.splice(i, 1);
    if (started.length === 0) this.inFlight.delete(webhookId);
    const took = Date.now() - startedAt;
    const before = this.typicalMs.get(webhookId);
    this.typicalMs.set(webhookId, before === undefined ? took : before * 0.8 + took * 0.2);
  }
}
