import request from 'supertest';
import type { WebhookEntity } from '@edu/persistence';
import type { ReceivedDelivery } from '@edu/testing';
import { DispatchHarness } from './support/dispatch-harness';

const webhookRow = async (h: DispatchHarness, id: string) =>
  (
    await h.ds.query(
      `SELECT status, disabled_reason, disabled_at, failing_since, consecutive_undeliverable FROM webhooks WHERE id = $1`,
      [id],
    )
  )[0];

async function until(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Dead endpoints: a webhook failing continuously past the period is disabled, its app is told
 * (an `endpoint.disabled` event to its other webhooks, and a held line in the disabled webhook's
 * delivery log), and re-enabling it delivers what was held. Periods scaled down by configuration.
 */
describe('webhook dispatcher: a webhook failing for too long is disabled, with notice', () => {
  const h = new DispatchHarness();

  beforeAll(() => h.start({ WEBHOOK_DISABLE_AFTER_FAILING_MS: '1500', WEBHOOK_DISABLE_AFTER_UNDELIVERABLE: '0' }));
  afterAll(() => h.stop());

  it('disables it, holds its deliveries, tells the other endpoints, and delivers everything held once re-enabled', async () => {
    const dead = await h.webhook(`${h.receiver.url}/dead`);
    const other = await h.webhook(`${h.receiver.url}/other`);
    let up = false;
    h.receiver.responder = (d) => ({ status: d.path === '/dead' && !up ? 500 : 200 });
    const ids = await h.deliveries(dead, [(await h.message()).id, (await h.message()).id]);
    await until(async () => (await webhookRow(h, dead.id)).status === 'disabled');
    const row = await webhookRow(h, dead.id);
    expect(row).toMatchObject({ status: 'disabled', disabled_reason: 'failing' });
    expect(new Date(row.disabled_at).getTime() - new Date(row.failing_since).getTime()).toBeGreaterThanOrEqual(1_500);
    await h.until(ids, ['held']);

    // The app's other endpoint is told, with a signed endpoint.disabled event.
    const isEvent = (d: ReceivedDelivery) => d.claims.type === 'endpoint.disabled';
    await h.receiver.until((all) => all.some((d) => d.path === '/other' && isEvent(d)));
    const [notice] = h.receiver.deliveries.filter((d) => d.path === '/other' && isEvent(d));
    expect(notice.verified).toBe(true);
    expect(notice.claims).toMatchObject({
      aud: h.appId,
      sub: dead.id,
      tenant_id: h.tenantId,
      event: {
        webhook_id: dead.id,
        endpoint: dead.endpoint,
        reason: 'failing',
        disabled_at: expect.any(String),
        failing_since: expect.any(String),
        re_enable: `PATCH /v2/alerts/webhook/${dead.id} {"status": "active"}`,
      },
    });
    // The disabled webhook's own delivery log has the line, held.
    const events = await eventsOf(dead);
    expect(events).toEqual([{ status: 'held', reason: 'webhook_disabled', event_type: 'endpoint.disabled' }]);
    expect(h.receiver.deliveries.filter((d) => d.path === '/dead' && isEvent(d))).toHaveLength(0);

    // Fixed and re-enabled: what was held goes, the event included, and the clock starts afresh.
    up = true;
    const released = await h.reenable(dead);
    expect(released).toHaveLength(3);
    await h.until(released, ['delivered']);
    expect(h.receiver.deliveries.filter((d) => d.path === '/dead' && isEvent(d))).toHaveLength(1);
    expect(await webhookRow(h, dead.id)).toMatchObject({
      status: 'active',
      failing_since: null,
      consecutive_undeliverable: 0,
    });
    const metrics = await request(h.app.getHttpServer()).get('/metrics').expect(200);
    expect(metrics.text).toMatch(/^webhook_endpoints_disabled_total\{reason="failing"\} 1$/m);
    expect(await eventsOf(other)).toEqual([{ status: 'delivered', reason: null, event_type: 'endpoint.disabled' }]);
  });

  it('keeps a webhook that recovers before the period ends, and clears its clock', async () => {
    const flaky = await h.webhook(`${h.receiver.url}/flaky`);
    h.receiver.responder = (d, nth) => ({ status: d.path === '/flaky' && nth <= 3 ? 503 : 200 });
    const [id] = await h.deliveries(flaky, [(await h.message()).id]);
    await h.until([id], ['delivered']);
    await until(async () => (await webhookRow(h, flaky.id)).failing_since === null);
    expect(await webhookRow(h, flaky.id)).toMatchObject({ status: 'active', consecutive_undeliverable: 0 });
  });

  const eventsOf = async (hook: WebhookEntity) =>
    h.ds.query(
      `SELECT status, reason, event_type FROM webhook_deliveries WHERE webhook_id = $1 AND trigger = 'event'`,
      [hook.id],
    );
});

describe('webhook dispatcher: a webhook with too many undeliverable deliveries in a row is disabled', () => {
  const h = new DispatchHarness();

  beforeAll(() =>
    h.start({
      WEBHOOK_MAX_RETRIES: '1',
      WEBHOOK_DISABLE_AFTER_FAILING_MS: '0',
      WEBHOOK_DISABLE_AFTER_UNDELIVERABLE: '3',
    }),
  );
  afterAll(() => h.stop());

  it('counts undeliverable deliveries in a row, a delivered one starting the count again', async () => {
    const hook = await h.webhook(`${h.receiver.url}/sometimes`);
    const deliverable = new Set<string>();
    h.receiver.responder = (d) => ({ status: deliverable.has(String(d.claims.jti)) ? 200 : 500 });
    const send = async (ok: boolean) => {
      const [id] = await h.deliveries(hook, [(await h.message()).id], { queued: false });
      if (ok) deliverable.add(id);
      await h.queue.enqueue([{ kind: 'first-attempt', deliveryId: id }]);
      await h.until([id], ['delivered', 'undeliverable', 'held']);
      return (await h.delivery(id)).status;
    };
    expect([await send(false), await send(false), await send(true), await send(false), await send(false)]).toEqual([
      'undeliverable',
      'undeliverable',
      'delivered',
      'undeliverable',
      'undeliverable',
    ]);
    expect(await webhookRow(h, hook.id)).toMatchObject({ status: 'active', consecutive_undeliverable: 2 });
    expect(await send(false)).toBe('undeliverable');
    expect(await webhookRow(h, hook.id)).toMatchObject({
      status: 'disabled',
      disabled_reason: 'undeliverable',
      consecutive_undeliverable: 3,
    });
    // The next message is held, not sent.
    const [held] = await h.deliveries(hook, [(await h.message()).id]);
    await h.until([held], ['held']);
    expect(await h.attempts(held)).toEqual([]);
  });
});
