import { PerWebhookConcurrencyLimiter } from './per-webhook-concurrency-limiter';

describe('PerWebhookConcurrencyLimiter', () => {
  it('lets at most the cap of deliveries run per webhook, independently of other webhooks', () => {
    const limiter = new PerWebhookConcurrencyLimiter(2);
    const a1 = limiter.tryStart('a');
    const a2 = limiter.tryStart('a');
    expect(a1).toBeDefined();
    expect(a2).toBeDefined();
    expect(limiter.tryStart('a')).toBeUndefined();
    expect(limiter.tryStart('b')).toBeDefined();
    a1!();
    expect(limiter.inFlightCount('a')).toBe(1);
    expect(limiter.tryStart('a')).toBeDefined();
  });

  it('defers work for a fast webhook briefly and work for a hanging one for about as long as it hangs', () => {
    const limiter = new PerWebhookConcurrencyLimiter(1, {
      minDeferMs: 200,
      maxDeferMs: 30_000,
      fastMs: 1_000,
      maxWaitMs: 2_000,
    });
    limiter.tryStart('fast', 1_000);
    expect(limiter.deferMs('fast', 1_010, 0)).toBe(200);
    limiter.tryStart('hanging', 0);
    expect(limiter.deferMs('hanging', 12_000, 0)).toBe(12_000);
    expect(limiter.deferMs('hanging', 12_000, 0.5)).toBe(18_000);
    expect(limiter.deferMs('hanging', 100_000, 0)).toBe(30_000);
  });

  it('hands a freed slot of a quickly answering webhook to work waiting for it', async () => {
    const limiter = new PerWebhookConcurrencyLimiter(1);
    limiter.tryStart('fast')!(); // one quick answer makes it known as fast
    const first = await limiter.acquire('fast');
    expect(first).toBeDefined();
    const waiter = limiter.acquire('fast');
    first!();
    const second = await waiter;
    expect(second).toBeDefined();
    expect(limiter.inFlightCount('fast')).toBe(1);
  });

  it('does not let work wait for a webhook whose answers are slow or not yet known', async () => {
    const limiter = new PerWebhookConcurrencyLimiter(1, {
      minDeferMs: 200,
      maxDeferMs: 30_000,
      fastMs: 1_000,
      maxWaitMs: 2_000,
    });
    expect(await limiter.acquire('new')).toBeDefined();
    expect(await limiter.acquire('new')).toBeUndefined(); // nothing known about it yet: no waiting
  });

  it('gives up waiting after maxWaitMs, and keeps at most the cap waiting', async () => {
    const limiter = new PerWebhookConcurrencyLimiter(1, {
      minDeferMs: 200,
      maxDeferMs: 30_000,
      fastMs: 1_000,
      maxWaitMs: 50,
    });
    limiter.tryStart('w')!();
    const held = await limiter.acquire('w');
    expect(held).toBeDefined();
    const waiting = limiter.acquire('w');
    expect(await limiter.acquire('w')).toBeUndefined(); // the one waiting place is taken
    expect(await waiting).toBeUndefined(); // nobody freed the slot within 50 ms
    held!();
  });
});
