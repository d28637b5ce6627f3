import { retryDelayMs } from '@edu/queue';
import { DispatchHarness } from './support/dispatch-harness';

/**
 * The spec's schedule (first retry after 5 s, doubling, 10 retries, then undeliverable), run with
 * the base delay scaled down to 20 ms by configuration: 20, 40 ... 10,240 ms.
 */
describe('webhook dispatcher: retry schedule (scaled)', () => {
  const BASE = 20;
  const h = new DispatchHarness();

  beforeAll(() => h.start({ WEBHOOK_RETRY_BASE_MS: String(BASE) }));
  afterAll(() => h.stop());

  it('makes exactly 11 attempts with doubling gaps, then marks the delivery and the message undeliverable', async () => {
    const hook = await h.webhook(`${h.receiver.url}/down`);
    h.receiver.responder = () => ({ status: 500 });
    const msg = await h.message();
    const [id] = await h.deliveries(hook, [msg.id]);
    await h.until([id], ['undeliverable'], 40_000);
    // Nothing further arrives after the final failure: its job is finished, none is left to retry.
    await h.jobsSettled([id]);
    const got = h.receiver.byJti(id);
    expect(got).toHaveLength(11);
    expect(got.map((d) => d.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(got.every((d) => d.verified && d.claims.jti === id)).toBe(true);
    // Every attempt is signed afresh: iat never goes back, and the last is later than the first.
    const iats = got.map((d) => d.claims.iat as number);
    expect(iats.every((t, i) => i === 0 || t >= iats[i - 1])).toBe(true);
    expect(iats[10]).toBeGreaterThan(iats[0]);

    const gaps = got.slice(1).map((d, i) => d.at - got[i].at);
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(retryDelayMs(BASE, i + 1)));
    // Doubling, from above too: each gap within 1.25 x its delay plus a slack for BullMQ's ~100 ms
    // promotion granularity and a busy machine's stalls (ratios of the short early gaps swing
    // with a single stall; from 2.5 s on, each gap's window lies above the previous one's).
    const SLACK_MS = 1_500;
    gaps.forEach((gap, i) => expect(gap).toBeLessThanOrEqual(retryDelayMs(BASE, i + 1) * 1.25 + SLACK_MS));
    process.stdout.write(`observed retry gaps (ms, base ${BASE}): ${gaps.join(', ')}\n`);

    const attempts = await h.attempts(id);
    expect(attempts.map((a) => a.attempt_number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(attempts.every((a) => a.response_status === 500 && a.error_code === 'E_HTTP')).toBe(true);
    const row = await h.delivery(id);
    expect(row).toMatchObject({ status: 'undeliverable', attempt_count: 11, due_at: null, last_status_code: 500 });
    const [message] = await h.ds.query(`SELECT undeliverable_at FROM alert_messages WHERE id = $1`, [msg.id]);
    expect(message.undeliverable_at).not.toBeNull();
  }, 60_000);

  it('stops at the attempt that succeeds when the receiver recovers mid-schedule', async () => {
    const hook = await h.webhook(`${h.receiver.url}/flaky`);
    h.receiver.responder = (_d, nth) => ({ status: nth <= 3 ? 503 : 200 });
    const [id] = await h.deliveries(hook, [(await h.message()).id]);
    await h.until([id], ['delivered'], 20_000);
    await h.jobsSettled([id]);
    expect(h.receiver.byJti(id).map((d) => d.answered)).toEqual([503, 503, 503, 200]);
    expect(await h.delivery(id)).toMatchObject({ status: 'delivered', attempt_count: 4, last_status_code: 200 });
    const [message] = await h.ds.query(
      `SELECT m.undeliverable_at FROM alert_messages m JOIN webhook_deliveries d ON d.message_id = m.id WHERE d.id = $1`,
      [id],
    );
    expect(message.undeliverable_at).toBeNull();
  });

  it('shows a delivery awaiting its retry with the time it is due', async () => {
    const hook = await h.webhook(`${h.receiver.url}/later`);
    h.receiver.responder = () => ({ status: 500 });
    const [id] = await h.deliveries(hook, [(await h.message()).id]);
    await h.receiver.until(() => h.receiver.byJti(id).length >= 1);
    // The attempt is recorded once the receiver's answer is in.
    await h.until([id], ['awaiting_retry', 'undeliverable']);
    const row = await h.delivery(id);
    expect(['awaiting_retry', 'undeliverable']).toContain(row.status);
    if (row.status === 'awaiting_retry') expect(row.due_at).not.toBeNull();
    await h.ds.query(`DELETE FROM webhooks WHERE id = $1`, [hook.id]);
  });
});
