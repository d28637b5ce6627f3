import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { DispatchHarness } from './support/dispatch-harness';

/** One Retry-After second = 10 ms here: the scaled clock of the schedule tests (base 20 ms). */
const SECOND_MS = 10;

/**
 * A receiver controls its deliveries: 410 Gone disables its webhook at once (every delivery held,
 * no further attempt), 429/503 with Retry-After pushes the next attempt back at least that long
 * (up to a cap, logged), and the attempt still counts.
 */
describe('webhook dispatcher: 410 and Retry-After', () => {
  const h = new DispatchHarness();

  beforeAll(() =>
    h.start({
      WEBHOOK_RETRY_AFTER_SECOND_MS: String(SECOND_MS),
      WEBHOOK_RETRY_AFTER_MAX_SECONDS: '300',
    }),
  );
  afterAll(() => h.stop());
  beforeEach(() => {
    h.receiver.responder = () => ({ status: 200 });
  });

  const webhookRow = async (id: string) =>
    (await h.ds.query(`SELECT status, disabled_reason, disabled_at FROM webhooks WHERE id = $1`, [id]))[0];
  const statuses = async (ids: string[]) =>
    (await h.ds.query(`SELECT id, status, reason FROM webhook_deliveries WHERE id = ANY($1::uuid[])`, [ids])).map(
      (r: { status: string; reason: string }) => `${r.status}/${r.reason}`,
    );

  it('410 Gone disables the webhook at once: every delivery of it is held and nothing more is sent; re-enabling sends what was held', async () => {
    const hook = await h.webhook(`${h.receiver.url}/gone`);
    const messages = await Promise.all([1, 2, 3, 4].map(() => h.message()));
    const ids = await h.deliveries(
      hook,
      messages.map((m) => m.id),
      { queued: false },
    );
    // The endpoint fails the others (they retry), then answers one delivery 410 Gone.
    let goneAt = 0;
    h.receiver.responder = (d) => {
      if (d.claims.jti !== ids[0] || h.receiver.deliveries.length < 6) return { status: 500 };
      goneAt ||= Date.now();
      return { status: 410 };
    };
    await h.queue.enqueue(ids.map((deliveryId) => ({ kind: 'first-attempt', deliveryId })));
    await h.until(ids, ['held']);
    await h.jobsSettled(ids);
    expect(await webhookRow(hook.id)).toMatchObject({ status: 'disabled', disabled_reason: 'endpoint_gone' });
    expect(await statuses(ids)).toEqual(ids.map(() => 'held/webhook_disabled'));
    const sent = h.receiver.deliveries.filter((d) => d.path === '/gone').length;
    // Nothing was sent after the 410 but what was already on its way (at most one per delivery).
    expect(h.receiver.deliveries.filter((d) => d.path === '/gone' && d.at > goneAt).length).toBeLessThanOrEqual(3);
    const gone = (await h.attempts(ids[0])).filter((a) => a.response_status === 410);
    expect(gone).toHaveLength(1);

    // A new message for the disabled webhook is held at its turn, without an attempt.
    const [later] = await h.deliveries(hook, [(await h.message()).id]);
    await h.until([later], ['held']);
    expect(await h.attempts(later)).toEqual([]);
    // A test delivery still goes: it is how the partner checks the endpoint before re-enabling.
    h.receiver.responder = () => ({ status: 200 });
    const [test] = await h.deliveries(hook, [null], { trigger: 'test' });
    await h.until([test], ['delivered']);
    expect(await webhookRow(hook.id)).toMatchObject({ status: 'disabled' });
    expect(h.receiver.deliveries.filter((d) => d.path === '/gone' && d.claims.type !== 'test')).toHaveLength(sent);

    const released = await h.reenable(hook);
    // The held deliveries, and the endpoint.disabled event held in the webhook's own log.
    expect(released).toEqual(expect.arrayContaining([...ids, later]));
    expect(released).toHaveLength(ids.length + 2);
    await h.until(released, ['delivered']);
    for (const id of ids) {
      const attempts = await h.attempts(id);
      // The schedule continues after the attempts made before the webhook was disabled.
      expect(attempts.map((a) => a.attempt_number)).toEqual(attempts.map((_, i) => i + 1));
      expect(attempts[attempts.length - 1].response_status).toBe(200);
    }
    expect(await h.attempts(later)).toHaveLength(1);
    const metrics = await request(h.app.getHttpServer()).get('/metrics').expect(200);
    expect(metrics.text).toMatch(/^webhook_endpoints_disabled_total\{reason="endpoint_gone"\} 1$/m);
  });

  it.each([
    ['503 with Retry-After: 120 (seconds)', 503, () => '120', 120, false],
    ['429 with an HTTP-date 120 s ahead', 429, () => new Date(Date.now() + 120_000).toUTCString(), 120, false],
    ['503 with a huge Retry-After', 503, () => '99999999', 300, true],
  ])(
    '%s: the next attempt comes at least that much later, and the attempt counts',
    async (_n, code, header, honoured, capped) => {
      const hook = await h.webhook(`${h.receiver.url}/busy-${code}-${honoured}`);
      h.receiver.responder = (_d, nth) =>
        nth === 1 ? { status: code, headers: { 'retry-after': header() } } : { status: 200 };
      const [id] = await h.deliveries(hook, [(await h.message()).id]);
      await h.receiver.until(() => h.receiver.byJti(id).length >= 1);
      await waitFor(async () => (await h.attempts(id)).length === 1);
      const waiting = await h.delivery(id);
      expect(waiting).toMatchObject({ status: 'awaiting_retry', attempt_count: 1 });
      const [first] = await h.attempts(id);
      expect(new Date(waiting.due_at).getTime() - new Date(first.started_at).getTime()).toBeGreaterThanOrEqual(
        (honoured - 1) * SECOND_MS,
      );
      expect(first.error_message).toMatch(
        capped ? /Retry-After 99999999 s capped at 300 s$/ : /Retry-After 1(19|20) s honoured$/,
      );
      await h.until([id], ['delivered'], 20_000);
      const [a, b] = h.receiver.byJti(id);
      const gap = b.at - a.at;
      // Asked 120 s: at least 1.2 scaled seconds (the schedule alone would wait 20 ms).
      expect(gap).toBeGreaterThanOrEqual((honoured - 1) * SECOND_MS);
      expect(gap).toBeLessThan(honoured * SECOND_MS + 3_000);
      expect([a.attempt, b.attempt]).toEqual([1, 2]);
      expect(await h.delivery(id)).toMatchObject({ status: 'delivered', attempt_count: 2 });
    },
  );

  it('keeps the schedule for a Retry-After shorter than it, and for other codes', async () => {
    const hook = await h.webhook(`${h.receiver.url}/short`);
    h.receiver.responder = (_d, nth) =>
      nth === 1 ? { status: 500, headers: { 'retry-after': '120' } } : { status: 200 };
    const [id] = await h.deliveries(hook, [(await h.message()).id]);
    await h.until([id], ['delivered']);
    const [a, b] = h.receiver.byJti(id);
    expect(b.at - a.at).toBeLessThan(1_000);
    expect((await h.attempts(id))[0].error_message).toBe('HTTP 500');
  });

  it('times out a receiver that answers byte by byte, as any slow answer', async () => {
    const dribbler = await byteByByte();
    try {
      const hook = await h.webhook(`http://127.0.0.1:${(dribbler.address() as AddressInfo).port}/slow`);
      const [id] = await h.deliveries(hook, [(await h.message()).id]);
      await waitFor(async () => (await h.attempts(id)).length >= 1, 15_000);
      const [first] = await h.attempts(id);
      expect(first).toMatchObject({ error_code: 'E_TIMEOUT', response_status: null });
      expect(first.duration_ms).toBeLessThan(4_000); // WEBHOOK_TIMEOUT_MS is 2 s here
      await h.ds.query(`DELETE FROM webhooks WHERE id = $1`, [hook.id]);
    } finally {
      dribbler.close();
    }
  });
});

/** A server that reads the request, then writes a status line one byte every 200 ms, forever. */
async function byteByByte(): Promise<Server> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    const line = Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n');
    let i = 0;
    const timer = setInterval(() => {
      if (socket.destroyed) return clearInterval(timer);
      socket.write(line.subarray(i % line.length, (i % line.length) + 1));
      i++;
    }, 200);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      sockets.delete(socket);
    });
  });
  const close = server.close.bind(server);
  server.close = ((cb?: (err?: Error) => void) => {
    sockets.forEach((s) => s.destroy());
    return close(cb);
  }) as typeof server.close;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
