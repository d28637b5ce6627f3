import request from 'supertest';
import { refusingUrl } from '@edu/testing';
import { DispatchHarness, ISSUER } from './support/dispatch-harness';

describe('webhook dispatcher: signed deliveries', () => {
  const h = new DispatchHarness();

  beforeAll(() => h.start());
  afterAll(() => h.stop());
  beforeEach(() => {
    h.receiver.responder = () => ({ status: 200 });
  });

  it('POSTs a notification-only delivery as a signed JWT the receiver verifies against the JWKS, and records it', async () => {
    const hook = await h.webhook(`${h.receiver.url}/notify`);
    const msg = await h.message({ groups: 2, items: 3 });
    const [id] = await h.deliveries(hook, [msg.id]);
    await h.until([id], ['delivered']);
    const [got] = h.receiver.byJti(id);
    expect(got).toMatchObject({
      verified: true,
      path: '/notify',
      contentType: 'application/jwt',
      webhookId: id,
      attempt: 1,
    });
    expect(got.header).toEqual({ alg: 'ES256', kid: expect.stringMatching(/^wh-/), typ: 'alert-webhook+jwt' });
    expect(got.claims).toEqual({
      iss: ISSUER,
      aud: h.appId,
      sub: msg.id,
      jti: id,
      iat: expect.any(Number),
      exp: expect.any(Number),
      type: 'notification-only',
      tenant_id: h.tenantId,
      notice: {
        message_id: msg.id,
        tenant_id: h.tenantId,
        transaction_id: msg.body.transaction_id,
        recipient: {
          entity_uuid: msg.body.recipient.entity_uuid,
          ext_id: 'STAFF-7',
          name: 'Ms Jane Citizen',
          identifiers: msg.body.recipient.identifiers,
        },
        alert_count: 6,
        alert_group_count: 2,
        created_at: expect.any(String),
        message_path: `/v2/alerts/message/${msg.id}`,
      },
    });
    const row = await h.delivery(id);
    expect(row).toMatchObject({
      status: 'delivered',
      attempt_count: 1,
      last_status_code: 200,
      last_error_code: null,
      due_at: null,
    });
    expect(row.finished_at).not.toBeNull();
    const [attempt] = await h.attempts(id);
    expect(attempt).toMatchObject({
      attempt_number: 1,
      response_status: 200,
      error_code: null,
      resolved_ip: '127.0.0.1',
      kid: got.header.kid,
      response_excerpt: 'ok',
      url: hook.endpoint,
    });
    expect(attempt.request_bytes).toBe(got.bytes);
  });

  it('delivers a full payload above 1 MB whole, in the getMessage shape', async () => {
    const hook = await h.webhook(`${h.receiver.url}/full`, 'full-payload');
    const msg = await h.message({ groups: 10, items: 40, rowText: 'x'.repeat(2_000) });
    const [id] = await h.deliveries(hook, [msg.id]);
    await h.until([id], ['delivered']);
    const [got] = h.receiver.byJti(id);
    expect(got.verified).toBe(true);
    expect(got.bytes).toBeGreaterThan(1_200_000);
    expect(got.claims.type).toBe('full-payload');
    expect(got.claims.message).toEqual({
      message_id: msg.id,
      method: 'webhook',
      queued_alert_count: 400, // this delivery, still open while its token was signed
      fetched_alert_count: 0,
      sent_alert_count: 0,
      transaction_id: msg.body.transaction_id,
      recipient: msg.body.recipient,
      alerts: msg.body.alerts,
    });
  });

  it("sends each full payload with its own message's body and its own claims when messages go to several webhooks and are retried", async () => {
    const [x, y] = [
      await h.webhook(`${h.receiver.url}/full-x`, 'full-payload'),
      await h.webhook(`${h.receiver.url}/full-y`, 'full-payload'),
    ];
    const [a, b] = [
      await h.message({ groups: 2, items: 3, rowText: 'first: Zoë 🦉 détail' }),
      await h.message({ groups: 1, items: 2, rowText: 'second' }),
    ];
    let yAnswers = 0;
    h.receiver.responder = (d) => (d.path === '/full-y' && yAnswers++ === 0 ? { status: 503 } : { status: 200 });
    const [xa, xb] = await h.deliveries(x, [a.id, b.id]);
    const [ya] = await h.deliveries(y, [a.id]);
    await h.until([xa, xb, ya], ['delivered']);
    const expectMessage = (jti: string, msg: typeof a) =>
      h.receiver.byJti(jti).forEach((got) => {
        expect(got.verified).toBe(true);
        expect(got.claims).toMatchObject({ jti, sub: msg.id, aud: h.appId, type: 'full-payload' });
        expect(got.claims.message).toMatchObject({
          message_id: msg.id,
          transaction_id: msg.body.transaction_id,
          recipient: msg.body.recipient,
          alerts: msg.body.alerts,
        });
      });
    expectMessage(xa, a);
    expectMessage(xb, b);
    expectMessage(ya, a);
    expect(h.receiver.byJti(ya).map((d) => d.attempt)).toEqual([1, 2]);
  });

  it('counts a 302 (never followed), a 404, a 503 and a timeout as failures and schedules a retry', async () => {
    const cases: [
      string,
      (n: number) => { status: number; delayMs?: number; headers?: Record<string, string> },
      string,
      number | null,
    ][] = [
      ['redirect', () => ({ status: 302, headers: { location: `${h.receiver.url}/elsewhere` } }), 'E_REDIRECT', 302],
      ['missing', () => ({ status: 404 }), 'E_HTTP', 404],
      ['unavailable', () => ({ status: 503 }), 'E_HTTP', 503],
      ['slow', () => ({ status: 200, delayMs: 3_000 }), 'E_TIMEOUT', null],
    ];
    for (const [name, answer, code, status] of cases) {
      const hook = await h.webhook(`${h.receiver.url}/${name}`);
      h.receiver.responder = (d) => (d.path === `/${name}` ? answer(1) : { status: 200 });
      const [id] = await h.deliveries(hook, [(await h.message()).id]);
      await h.receiver.until(() => h.receiver.byJti(id).length >= 1);
      await waitFor(async () => (await h.attempts(id)).length >= 1);
      const [first] = await h.attempts(id);
      expect([name, first.error_code, first.response_status]).toEqual([name, code, status]);
      expect(h.receiver.deliveries.filter((d) => d.path === '/elsewhere')).toHaveLength(0);
      // Stop the retries of this case: its webhook goes away.
      await h.ds.query(`DELETE FROM webhooks WHERE id = $1`, [hook.id]);
    }
  }, 30_000);

  it('classifies a refused connection and a failed TLS handshake as failures of their own kind', async () => {
    const down = await refusingUrl();
    const refused = await h.webhook(`${down.url}/x`);
    const tls = await h.webhook(`https://127.0.0.1:${h.receiver.port}/plain-http`); // TLS to a plain HTTP server
    const [a] = await h.deliveries(refused, [(await h.message()).id]);
    const [b] = await h.deliveries(tls, [(await h.message()).id]);
    await waitFor(async () => (await h.attempts(a)).length >= 1 && (await h.attempts(b)).length >= 1);
    expect((await h.attempts(a))[0]).toMatchObject({ error_code: 'E_CONNECT', response_status: null });
    expect((await h.attempts(b))[0]).toMatchObject({ error_code: 'E_TLS', response_status: null });
    for (const hook of [refused, tls]) await h.ds.query(`DELETE FROM webhooks WHERE id = $1`, [hook.id]);
    down.release();
  });

  it('cancels, without sending, a delivery whose webhook was deleted before its turn', async () => {
    const hook = await h.webhook(`${h.receiver.url}/gone`);
    const [id] = await h.deliveries(hook, [(await h.message()).id], { queued: false });
    await h.ds.query(`DELETE FROM webhooks WHERE id = $1`, [hook.id]);
    await h.queue.enqueue([{ kind: 'first-attempt', deliveryId: id }]);
    await h.until([id], ['cancelled']);
    expect(h.receiver.byJti(id)).toHaveLength(0);
    expect(await h.attempts(id)).toHaveLength(0);
  });

  it('queues deliveries the API stored but never queued (outbox relay)', async () => {
    const hook = await h.webhook(`${h.receiver.url}/relay`);
    const ids = await h.deliveries(hook, [(await h.message()).id, (await h.message()).id], { queued: false });
    await h.until(ids, ['delivered'], 15_000);
    expect(ids.map((id) => h.receiver.byJti(id).length)).toEqual([1, 1]);
    const rows = await Promise.all(ids.map((id) => h.delivery(id)));
    expect(rows.every((r) => r.enqueued_at !== null)).toBe(true);
  });

  it('gives a test delivery one attempt and no retry', async () => {
    const hook = await h.webhook(`${h.receiver.url}/test`);
    h.receiver.responder = () => ({ status: 500 });
    const [id] = await h.deliveries(hook, [null], { trigger: 'test' });
    await h.until([id], ['undeliverable']);
    // No retry follows: its job is finished, none is left.
    await h.jobsSettled([id]);
    expect(h.receiver.byJti(id)).toHaveLength(1);
    expect(h.receiver.byJti(id)[0].claims).toMatchObject({
      type: 'test',
      sub: id,
      notice: { test: true, webhook_id: hook.id },
    });
  });

  it('publishes delivery and queue metrics', async () => {
    const res = await request(h.app.getHttpServer()).get('/metrics').expect(200);
    for (const name of [
      'webhook_deliveries_total{outcome="delivered"}',
      'webhook_attempt_duration_seconds_bucket',
      'webhook_queue_jobs{state="waiting"}',
      'webhook_queue_jobs{state="delayed"}',
      'webhook_queue_jobs{state="active"}',
      'webhook_queue_oldest_waiting_age_seconds',
      'webhook_deliveries_requeued_total',
    ]) {
      expect(res.text).toContain(name);
    }
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
