import { expectError } from '@edu/testing';
import { AlertsStack, SCOPES, UNKNOWN_ID } from './support/alerts-stack';

/** A webhook's optional rate_limit (deliveries a second) through newWebhook and updateWebhook. */
describe('alerts API: webhook rate limits', () => {
  const s = new AlertsStack();
  let token: string;

  beforeAll(async () => {
    await s.start();
    token = await s.token();
  });
  afterAll(() => s.stop());

  const as = (t: string) => ({ Authorization: `Bearer ${t}` });
  const stored = async (id: string) =>
    (await s.ds.query(`SELECT rate_limit FROM webhooks WHERE id = $1`, [id]))[0].rate_limit;

  it('sets a rate limit at registration, changes it, and removes it with null', async () => {
    const created = await s
      .http()
      .post('/v2/alerts/webhook')
      .set(as(token))
      .send({ endpoint: 'https://hooks.partner.example/slow', type: 'notification-only', rate_limit: 5 })
      .expect(200);
    const id = created.body.webhook_id;
    expect((await s.http().get(`/v2/alerts/webhook/${id}`).set(as(token)).expect(200)).body.rate_limit).toBe(5);
    const changed = await s
      .http()
      .patch(`/v2/alerts/webhook/${id}`)
      .set(as(token))
      .send({ rate_limit: 20 })
      .expect(200);
    expect(changed.body.updated_props).toEqual({ rate_limit: 20 });
    expect(await stored(id)).toBe(20);
    const removed = await s
      .http()
      .patch(`/v2/alerts/webhook/${id}`)
      .set(as(token))
      .send({ rate_limit: null })
      .expect(200);
    expect(removed.body.updated_props).toEqual({ rate_limit: null });
    expect(await stored(id)).toBeNull();
    const plain = await s.webhook(token);
    expect(await stored(plain.id)).toBeNull();
  });

  it.each([[0], [1001], [1.5], [-3], ['5'], [true], [{}]])(
    'answers a rate_limit of %j 400 naming the field, at registration and update, and stores nothing',
    async (rate) => {
      const before = (await s.ds.query(`SELECT count(*)::int AS n FROM webhooks`))[0].n;
      const res = await s
        .http()
        .post('/v2/alerts/webhook')
        .set(as(token))
        .send({ endpoint: 'https://hooks.partner.example/x', type: 'notification-only', rate_limit: rate });
      expectError(res, 400, 'validation_failed');
      expect(res.body.fields.map((f: { field: string }) => f.field)).toEqual(['rate_limit']);
      expect((await s.ds.query(`SELECT count(*)::int AS n FROM webhooks`))[0].n).toBe(before);
      const { id } = await s.webhook(token);
      const upd = await s.http().patch(`/v2/alerts/webhook/${id}`).set(as(token)).send({ rate_limit: rate });
      expectError(upd, 400, 'validation_failed');
      expect(upd.body.message).toContain('rate_limit');
      expect(await stored(id)).toBeNull();
    },
  );

  it("answers no token 401, the wrong scope 403, another app's or an unknown webhook 404", async () => {
    const { id } = await s.webhook(token);
    const patch = (target: string) => s.http().patch(`/v2/alerts/webhook/${target}`);
    expectError(await patch(id).send({ rate_limit: 1 }), 401, 'invalid_token');
    const reader = await s.token({ scopes: [SCOPES.read] });
    expectError(await patch(id).set(as(reader)).send({ rate_limit: 1 }), 403, 'insufficient_scope');
    const other = await s.token({ app: s.other });
    for (const target of [id, UNKNOWN_ID])
      expectError(await patch(target).set(as(other)).send({ rate_limit: 1 }), 404, 'not_found');
    expect(await stored(id)).toBeNull();
  });
});
