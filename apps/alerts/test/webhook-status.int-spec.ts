import { DeliveryQueue } from '@edu/queue';
import { expectError, sampleAlertMessage } from '@edu/testing';
import { AlertsStack, SCOPES, UNKNOWN_ID } from './support/alerts-stack';

/**
 * A webhook the dispatcher disabled (410 Gone, or dead too long) through the API: getWebhook
 * says so and why, redelivery to it is refused, and updateWebhook re-enables it and queues what
 * was held. No dispatcher runs here: the disabling is written as the dispatcher writes it.
 */
describe('alerts API: disabled webhooks and re-enabling', () => {
  const s = new AlertsStack();
  let token: string;
  let operator: string;

  beforeAll(async () => {
    await s.start();
    token = await s.token();
    operator = await s.operatorToken();
  });
  afterAll(() => s.stop());

  const as = (t: string) => ({ Authorization: `Bearer ${t}` });

  /** A webhook with `n` deliveries at tenant A, then disabled as a 410 disables it: its open deliveries held. */
  async function disabledWebhook(n: number): Promise<{ id: string; deliveries: string[] }> {
    const { id } = await s.webhook(token, `https://hooks.partner.example/${n}-${Date.now()}`);
    await s
      .http()
      .post('/v2/alerts/messages')
      .set(as(operator))
      .send({ tenant_id: s.tenantA, messages: Array.from({ length: n }, () => sampleAlertMessage()) })
      .expect(201);
    const rows: { id: string }[] = await s.ds.query(
      `SELECT id FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY created_at, id`,
      [id],
    );
    await s.ds.query(
      `UPDATE webhooks SET status = 'disabled', disabled_reason = 'endpoint_gone', disabled_at = now() WHERE id = $1`,
      [id],
    );
    await s.ds.query(
      `UPDATE webhook_deliveries SET status = 'held', reason = 'webhook_disabled', due_at = NULL, attempt_count = 1 WHERE webhook_id = $1`,
      [id],
    );
    return { id, deliveries: rows.map((r) => r.id) };
  }

  it('shows a disabled webhook with its reason and time, and its deliveries as held', async () => {
    const { id, deliveries } = await disabledWebhook(2);
    const got = await s.http().get(`/v2/alerts/webhook/${id}`).set(as(token)).expect(200);
    expect(got.body).toMatchObject({ status: 'disabled', disabled_reason: 'endpoint_gone' });
    expect(Date.now() - Date.parse(got.body.disabled_at)).toBeLessThan(60_000);
    const log = await s.http().get(`/v2/alerts/webhook/${id}/deliveries?status=held`).set(as(token)).expect(200);
    expect(log.body.deliveries.map((d: { delivery_id: string }) => d.delivery_id).sort()).toEqual(
      [...deliveries].sort(),
    );
    expect(log.body.deliveries[0]).toMatchObject({ status: 'held', reason: 'webhook_disabled', next_attempt_at: null });
  });

  it('refuses to redeliver to a disabled webhook (409 webhook_disabled) and to redeliver a held delivery', async () => {
    const { id, deliveries } = await disabledWebhook(2);
    await s.ds.query(`UPDATE webhook_deliveries SET status = 'undeliverable', reason = NULL WHERE id = $1`, [
      deliveries[0],
    ]);
    const res = await s.http().post(`/v2/alerts/webhook/${id}/deliveries/${deliveries[0]}/redeliver`).set(as(token));
    expectError(res, 409, 'conflict');
    expect(res.body.reason).toBe('webhook_disabled');
    const held = await s.http().post(`/v2/alerts/webhook/${id}/deliveries/${deliveries[1]}/redeliver`).set(as(token));
    expectError(held, 409, 'conflict');
    expect(held.body.message).toContain('held');
  });

  it('re-enables with updateWebhook status active: the held deliveries are pending again and queued, continuing their schedule', async () => {
    const { id, deliveries } = await disabledWebhook(3);
    const res = await s.http().patch(`/v2/alerts/webhook/${id}`).set(as(token)).send({ status: 'active' }).expect(200);
    expect(res.body).toEqual({
      webhook_id: id,
      action: 'updateWebhook',
      success: true,
      updated_props: { status: 'active' },
    });
    const got = await s.http().get(`/v2/alerts/webhook/${id}`).set(as(token)).expect(200);
    expect(got.body).toMatchObject({ status: 'active', disabled_reason: null, disabled_at: null });
    const rows: { status: string; reason: string | null; due_at: Date | null }[] = await s.ds.query(
      `SELECT status, reason, due_at FROM webhook_deliveries WHERE id = ANY($1::uuid[])`,
      [deliveries],
    );
    expect(rows.every((r) => r.status === 'pending' && r.reason === null && r.due_at !== null)).toBe(true);
    const queue = s.app.get(DeliveryQueue);
    expect(await Promise.all(deliveries.map((d) => queue.state(d)))).toEqual(deliveries.map(() => 'waiting'));
    // Again: nothing to re-enable, nothing changes.
    const again = await s
      .http()
      .patch(`/v2/alerts/webhook/${id}`)
      .set(as(token))
      .send({ status: 'active' })
      .expect(200);
    expect(again.body.updated_props).toEqual({});
  });

  it('shows an endpoint.disabled event in the delivery log, which cannot be redelivered, and the failing clock on getWebhook', async () => {
    const { id } = await s.webhook(token, 'https://hooks.partner.example/told');
    await s.ds.query(`UPDATE webhooks SET failing_since = now() - interval '1 hour' WHERE id = $1`, [id]);
    const [{ id: eventId }] = await s.ds.query(
      `INSERT INTO webhook_deliveries (id, tenant_id, app_id, webhook_id, kind, trigger, status, finished_at, event_type, event)
       VALUES (gen_random_uuid(), $1, $2, $3, 'notification-only', 'event', 'delivered', now(), 'endpoint.disabled', '{"webhook_id": "x"}')
       RETURNING id`,
      [s.tenantA, s.partner, id],
    );
    const got = await s.http().get(`/v2/alerts/webhook/${id}`).set(as(token)).expect(200);
    expect(Date.now() - Date.parse(got.body.failing_since)).toBeGreaterThan(3_500_000);
    const one = await s.http().get(`/v2/alerts/webhook/${id}/deliveries/${eventId}`).set(as(token)).expect(200);
    expect(one.body).toMatchObject({ trigger: 'event', event_type: 'endpoint.disabled', message_id: null });
    const res = await s.http().post(`/v2/alerts/webhook/${id}/deliveries/${eventId}/redeliver`).set(as(token));
    expectError(res, 409, 'conflict');
  });

  it('changes the endpoint of a disabled webhook without re-enabling it', async () => {
    const { id } = await disabledWebhook(1);
    await s
      .http()
      .patch(`/v2/alerts/webhook/${id}`)
      .set(as(token))
      .send({ endpoint: 'https://hooks.partner.example/fixed' })
      .expect(200);
    const got = await s.http().get(`/v2/alerts/webhook/${id}`).set(as(token)).expect(200);
    expect(got.body).toMatchObject({ endpoint: 'https://hooks.partner.example/fixed', status: 'disabled' });
  });

  describe('bad input re-enables nothing', () => {
    let id: string;
    beforeAll(async () => {
      id = (await disabledWebhook(1)).id;
    });
    afterEach(async () =>
      expect((await s.ds.query(`SELECT status FROM webhooks WHERE id = $1`, [id]))[0].status).toBe('disabled'),
    );
    const patch = (target: string) => s.http().patch(`/v2/alerts/webhook/${target}`);

    it.each([[{ status: 'disabled' }], [{ status: 'paused' }], [{ status: true }], [{ status: null }]])(
      'answers %j 400 naming status',
      async (body) => {
        const res = await patch(id).set(as(token)).send(body);
        expectError(res, 400, 'validation_failed');
        expect(res.body.message).toContain('status');
      },
    );

    it('answers no token 401, a bad token 401, the wrong scope 403, another app 404, an unknown id 404, a malformed id 400', async () => {
      expectError(await patch(id).send({ status: 'active' }), 401, 'invalid_token');
      expectError(
        await patch(id).set('Authorization', 'Bearer x.y.z').send({ status: 'active' }),
        401,
        'invalid_token',
      );
      const reader = await s.token({ scopes: [SCOPES.read] });
      expectError(await patch(id).set(as(reader)).send({ status: 'active' }), 403, 'insufficient_scope');
      const other = await s.token({ app: s.other });
      for (const target of [id, UNKNOWN_ID])
        expectError(await patch(target).set(as(other)).send({ status: 'active' }), 404, 'not_found');
      expectError(await patch('x').set(as(token)).send({ status: 'active' }), 400, 'validation_failed');
    });
  });
});
