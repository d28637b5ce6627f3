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
    const load = new WebhookLoad(1, 200, 30_000);
    load.tryStart('fast', 1_000);
    expect(load.deferMs('fast', 1_010, 0)).toBe(200);
    load.tryStart('hanging', 0);
    expect(load.deferMs('hanging', 12_000, 0)).toBe(12_000);
    expect(load.deferMs('hanging', 12_000, 0.5)).toBe(18_000);
    expect(load.deferMs('hanging', 100_000, 0)).toBe(30_000);
  });
});
