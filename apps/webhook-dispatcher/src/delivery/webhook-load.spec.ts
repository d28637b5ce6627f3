import { WebhookLoad } from './webhook-load';

describe('WebhookLoad', () => {
  it('lets at most the cap of deliveries run per webhook, independently of other webhooks', () => {
    const load = new WebhookLoad(2);
    const a1 = load.tryStart('a');
    const a2 = load.tryStart('a');
    expect(a1).toBeDefined();
    expect(a2).toBeDefined();
    expect(load.tryStart('a')).toBeUndefined();
    expect(load.tryStart('b')).toBeDefined();
    a1!();
    expect(load.inFlightCount('a')).toBe(1);
    expect(load.tryStart('a')).toBeDefined();
  });

  it('defers work for a fast webhook briefly and work for a hanging one for about as long as it hangs', () => {
    const load = new WebhookLoad(1, { minDeferMs: 200, maxDeferMs: 30_000, fastMs: 1_000, maxWaitMs: 2_000 });
    load.tryStart('fast', 1_000);
    expect(load.deferMs('fast', 1_010, 0)).toBe(200);
    load.tryStart('hanging', 0);
    expect(load.deferMs('hanging', 12_000, 0)).toBe(12_000);
    expect(load.deferMs('hanging', 12_000, 0.5)).toBe(18_000);
    expect(load.deferMs('hanging', 100_000, 0)).toBe(30_000);
  });

  it('hands a freed slot of a quickly answering webhook to work waiting for it', async () => {
    const load = new WebhookLoad(1);
    load.tryStart('fast')!(); // one quick answer makes it known as fast
    const first = await load.acquire('fast');
    expect(first).toBeDefined();
    const waiter = load.acquire('fast');
    first!();
    const second = await waiter;
    expect(second).toBeDefined();
    expect(load.inFlightCount('fast')).toBe(1);
  });

  it('does not let work wait for a webhook whose answers are slow or not yet known', async () => {
    const load = new WebhookLoad(1, { minDeferMs: 200, maxDeferMs: 30_000, fastMs: 1_000, maxWaitMs: 2_000 });
    expect(await load.acquire('new')).toBeDefined();
    expect(await load.acquire('new')).toBeUndefined(); // nothing known about it yet: no waiting
  });

  it('gives up waiting after maxWaitMs, and keeps at most the cap waiting', async () => {
    const load = new WebhookLoad(1, { minDeferMs: 200, maxDeferMs: 30_000, fastMs: 1_000, maxWaitMs: 50 });
    load.tryStart('w')!();
    const held = await load.acquire('w');
    expect(held).toBeDefined();
    const waiting = load.acquire('w');
    expect(await load.acquire('w')).toBeUndefined(); // the one waiting place is taken
    expect(await waiting).toBeUndefined(); // nobody freed the slot within 50 ms
    held!();
  });
});
