import { expectError, sampleAlertMessage } from '@edu/testing';
import { AlertsStack, SCOPES, UNKNOWN_ID } from './support/alerts-stack';

/**
 * Payload retention through the API: a tenant's delivery_payload_retention_days (operator or the
 * school's admins), the expunge of one message's payload, and what a purged message answers.
 */
describe('alerts API: payload retention and expunge', () => {
  const s = new AlertsStack();
  let operator: string;
  let adminA: string;
  let adminB: string;
  let partner: string;
  let reader: string;

  beforeAll(async () => {
    await s.start();
    operator = await s.operatorToken();
    adminA = await s.token({ scopes: [SCOPES.tenantAdmin], app: s.other });
    adminB = await s.token({ scopes: [SCOPES.tenantAdmin], app: s.other, tenant: s.tenantB });
    partner = await s.token({ scopes: [SCOPES.hooks, SCOPES.read] });
    reader = await s.token({ scopes: [SCOPES.read], app: s.other });
  });
  afterAll(() => s.stop());

  const as = (t: string) => ({ Authorization: `Bearer ${t}` });
  const settings = (tenant: string) => `/v2/alerts/tenants/${tenant}/settings`;
  const payload = (tenant: string, message: string) => `/v2/alerts/tenants/${tenant}/messages/${message}/payload`;

  /** A message at tenant A delivered (as stored) to the partner's webhook. */
  async function message(): Promise<{ id: string; hook: string; delivery: string }> {
    const { id: hook } = await s.webhook(partner, `https://hooks.partner.example/r-${Date.now()}`);
    const res = await s
      .http()
      .post('/v2/alerts/messages')
      .set(as(operator))
      .send({ tenant_id: s.tenantA, messages: [sampleAlertMessage()] })
      .expect(201);
    const id = res.body.messages[0].message_id;
    const [row] = await s.ds.query(`SELECT id FROM webhook_deliveries WHERE message_id = $1 AND webhook_id = $2`, [
      id,
      hook,
    ]);
    await s.ds.query(`UPDATE webhook_deliveries SET status = 'undeliverable', finished_at = now() WHERE id = $1`, [
      row.id,
    ]);
    return { id, hook, delivery: row.id };
  }

  it('answers the default retention, sets it (operator or the school admins), and keeps it per tenant', async () => {
    const got = await s.http().get(settings(s.tenantA)).set(as(adminA)).expect(200);
    expect(got.body).toEqual({ tenant_id: s.tenantA, delivery_payload_retention_days: 30, customised: false });
    const set = await s
      .http()
      .patch(settings(s.tenantA))
      .set(as(adminA))
      .send({ delivery_payload_retention_days: 7 })
      .expect(200);
    expect(set.body).toEqual({ tenant_id: s.tenantA, delivery_payload_retention_days: 7, customised: true });
    await s
      .http()
      .patch(settings(s.tenantB))
      .set(as(operator))
      .send({ delivery_payload_retention_days: 365 })
      .expect(200);
    expect(
      (await s.http().get(settings(s.tenantA)).set(as(operator)).expect(200)).body.delivery_payload_retention_days,
    ).toBe(7);
    expect(
      (await s.http().get(settings(s.tenantB)).set(as(adminB)).expect(200)).body.delivery_payload_retention_days,
    ).toBe(365);
  });

  it.each([
    [{ delivery_payload_retention_days: 0 }],
    [{ delivery_payload_retention_days: 366 }],
    [{ delivery_payload_retention_days: 1.5 }],
    [{ delivery_payload_retention_days: '30' }],
    [{}],
    [{ delivery_payload_retention_days: 30, extra: 1 }],
  ])('answers %j 400 naming the field, and changes nothing', async (body) => {
    const before = (await s.http().get(settings(s.tenantB)).set(as(operator))).body;
    const res = await s.http().patch(settings(s.tenantB)).set(as(operator)).send(body);
    expectError(res, 400, 'validation_failed');
    expect(res.body.message).toMatch(/delivery_payload_retention_days|extra/);
    expect((await s.http().get(settings(s.tenantB)).set(as(operator))).body).toEqual(before);
  });

  it("refuses no token, a bad token, a partner's token, another tenant's admins and unknown or malformed ids", async () => {
    const target = settings(s.tenantA);
    expectError(await s.http().get(target), 401, 'invalid_token');
    expectError(await s.http().get(target).set('Authorization', 'Bearer a.b.c'), 401, 'invalid_token');
    expectError(await s.http().get(target).set(as(partner)), 403, 'insufficient_scope');
    expectError(await s.http().get(target).set(as(reader)), 403, 'insufficient_scope');
    expectError(await s.http().get(target).set(as(adminB)), 404, 'not_found');
    expectError(await s.http().get(settings(UNKNOWN_ID)).set(as(operator)), 404, 'not_found');
    expectError(await s.http().get(settings('nope')).set(as(operator)), 400, 'validation_failed');
    expectError(
      await s.http().patch(target).set(as(adminB)).send({ delivery_payload_retention_days: 1 }),
      404,
      'not_found',
    );
    expectError(
      await s.http().patch(target).set(as(adminA)).set('Content-Type', 'text/plain').send('30'),
      415,
      'unsupported_media_type',
    );
  });

  it('expunges a message now: its metadata stays, getMessage and redeliver answer 409 payload_purged to its app', async () => {
    const m = await message();
    const res = await s.http().delete(payload(s.tenantA, m.id)).set(as(adminA)).expect(200);
    expect(res.body).toEqual({ message_id: m.id, payload_purged_at: expect.any(String), deliveries_expired: 0 });
    const again = await s.http().delete(payload(s.tenantA, m.id)).set(as(operator)).expect(200);
    expect(again.body.payload_purged_at).toBe(res.body.payload_purged_at);
    const [row] = await s.ds.query(`SELECT recipient, alerts, transaction_id FROM alert_messages WHERE id = $1`, [
      m.id,
    ]);
    expect(row).toMatchObject({ recipient: {}, alerts: [], transaction_id: expect.any(String) });

    const got = await s.http().get(`/v2/alerts/message/${m.id}`).set(as(partner));
    expectError(got, 409, 'conflict');
    expect(got.body.reason).toBe('payload_purged');
    // An app that never had it is answered as for an unknown message.
    expectError(await s.http().get(`/v2/alerts/message/${m.id}`).set(as(reader)), 404, 'not_found');
    const log = await s
      .http()
      .get(`/v2/alerts/webhook/${m.hook}/deliveries/${m.delivery}`)
      .set(as(partner))
      .expect(200);
    expect(log.body).toMatchObject({ delivery_id: m.delivery, message_id: m.id, status: 'undeliverable' });
    const redo = await s
      .http()
      .post(`/v2/alerts/webhook/${m.hook}/deliveries/${m.delivery}/redeliver`)
      .set(as(partner));
    expectError(redo, 409, 'conflict');
    expect(redo.body.reason).toBe('payload_purged');
  });

  it('expires deliveries of the message that had not finished sending', async () => {
    const m = await message();
    await s.ds.query(`UPDATE webhook_deliveries SET status = 'awaiting_retry', finished_at = NULL WHERE id = $1`, [
      m.delivery,
    ]);
    const [{ n }] = await s.ds.query(
      `SELECT count(*)::int AS n FROM webhook_deliveries WHERE message_id = $1 AND status IN ('pending', 'awaiting_retry', 'held')`,
      [m.id],
    );
    const res = await s.http().delete(payload(s.tenantA, m.id)).set(as(operator)).expect(200);
    expect(res.body.deliveries_expired).toBe(n);
    expect(n).toBeGreaterThanOrEqual(1);
    const log = await s
      .http()
      .get(`/v2/alerts/webhook/${m.hook}/deliveries/${m.delivery}`)
      .set(as(partner))
      .expect(200);
    expect(log.body).toMatchObject({ status: 'expired', reason: 'payload_purged', next_attempt_at: null });
  });

  it("refuses to expunge another tenant's, an unknown or a malformed message, and without the right token", async () => {
    const m = await message();
    expectError(await s.http().delete(payload(s.tenantB, m.id)).set(as(adminB)), 404, 'not_found');
    expectError(await s.http().delete(payload(s.tenantA, m.id)).set(as(adminB)), 404, 'not_found');
    expectError(await s.http().delete(payload(s.tenantA, UNKNOWN_ID)).set(as(adminA)), 404, 'not_found');
    expectError(await s.http().delete(payload(s.tenantA, 'x')).set(as(adminA)), 400, 'validation_failed');
    expectError(await s.http().delete(payload(s.tenantA, m.id)), 401, 'invalid_token');
    expectError(await s.http().delete(payload(s.tenantA, m.id)).set(as(partner)), 403, 'insufficient_scope');
    const [row] = await s.ds.query(`SELECT payload_purged_at FROM alert_messages WHERE id = $1`, [m.id]);
    expect(row.payload_purged_at).toBeNull();
  });
});
