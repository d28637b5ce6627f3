import request from 'supertest';
import { DispatchHarness } from './support/dispatch-harness';

describe('webhook dispatcher: fairness between webhooks', () => {
  const h = new DispatchHarness();
  beforeAll(() =>
    h.start({
      WEBHOOK_CONCURRENCY: '6',
      WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK: '2',
      WEBHOOK_TIMEOUT_MS: '4000',
      WEBHOOK_RETRY_BASE_MS: '60000',
    }),
  );
  afterAll(() => h.stop());

  it('keeps delivering to healthy endpoints while another endpoint hangs (per-webhook in-flight cap)', async () => {
    const slow = await h.webhook(`${h.receiver.url}/hanging`);
    const fast = await h.webhook(`${h.receiver.url}/healthy`);
    h.receiver.responder = (d) => (d.path === '/hanging' ? { status: 200, delayMs: 3_500 } : { status: 200 });
    const msgs = await Promise.all(Array.from({ length: 12 }, () => h.message()));
    const started = Date.now();
    const slowIds = await h.deliveries(
      slow,
      msgs.slice(0, 6).map((m) => m.id),
    );
    const fastIds = await h.deliveries(
      fast,
      msgs.map((m) => m.id),
    );
    await h.until(fastIds, ['delivered'], 10_000);
    const fastDone = Date.now() - started;
    // Without the cap the first six jobs (all to the hanging endpoint) would hold every slot for 3.5 s.
    expect(fastDone).toBeLessThan(3_000);
    const slowSeen = new Set(h.receiver.deliveries.filter((d) => d.path === '/hanging').map((d) => d.claims.jti));
    expect(slowSeen.size).toBeLessThanOrEqual(2);
    // The capped work waited without spending an attempt, and all of it arrives in the end.
    await h.until(slowIds, ['delivered'], 40_000);
    const attempts: { n: number }[] = await h.ds.query(
      `SELECT max(attempt_number)::int AS n FROM webhook_delivery_attempts WHERE delivery_id = ANY($1::uuid[])`,
      [slowIds],
    );
    expect(attempts[0].n).toBe(1);
  }, 60_000);
});

describe('webhook dispatcher: Redis loses its data mid-burst', () => {
  const h = new DispatchHarness();
  beforeAll(() =>
    h.start({ WEBHOOK_CONCURRENCY: '4', WEBHOOK_SWEEP_INTERVAL_MS: '500', WEBHOOK_SWEEP_GRACE_MS: '1000' }),
  );
  afterAll(() => h.stop());

  it('the sweeper re-queues from PostgreSQL and every delivery arrives', async () => {
    const hook = await h.webhook(`${h.receiver.url}/burst`);
    h.receiver.responder = () => ({ status: 200, delayMs: 20 });
    const msgs = await Promise.all(Array.from({ length: 120 }, () => h.message()));
    const ids = await h.deliveries(
      hook,
      msgs.map((m) => m.id),
    );
    await h.receiver.until((all) => all.length >= 20);
    const deleted = await h.loseRedisData();
    expect(deleted).toBeGreaterThan(0);
    await h.until(ids, ['delivered'], 40_000);
    const missing = ids.filter((id) => h.receiver.byJti(id).length === 0);
    expect(missing).toEqual([]);
    const metrics = await request(h.app.getHttpServer()).get('/metrics').expect(200);
    expect(metrics.text).toMatch(/webhook_deliveries_requeued_total\{reason="lost"\} [1-9]/);
  }, 60_000);

  it('continues the schedule of a delivery awaiting a retry instead of restarting it', async () => {
    const hook = await h.webhook(`${h.receiver.url}/later`);
    h.receiver.responder = (d) => (d.path === '/later' ? { status: 200 } : { status: 200 });
    const [id] = await h.deliveries(hook, [(await h.message()).id], { queued: false });
    // Three attempts were made and the job is gone (as after a Redis loss): the sweeper continues at attempt 4.
    await h.ds.query(
      `UPDATE webhook_deliveries SET status = 'awaiting_retry', attempt_count = 3, due_at = now() - interval '5 seconds', enqueued_at = now() WHERE id = $1`,
      [id],
    );
    await h.until([id], ['delivered'], 15_000);
    expect(h.receiver.byJti(id).map((d) => d.attempt)).toEqual([4]);
    expect((await h.attempts(id)).map((a) => a.attempt_number)).toEqual([4]);
  });
});
