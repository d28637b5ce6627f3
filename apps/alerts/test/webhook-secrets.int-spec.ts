import { DEMO_KEY_ENCRYPTION_KEY } from '@edu/config';
import { KeyEncryption } from '@edu/signing';
import { expectError } from '@edu/testing';
import { AlertsStack, SCOPES, UNKNOWN_ID } from './support/alerts-stack';

/** Standard Webhooks secrets through the API: shown once at creation and at each rotation, stored sealed. */
describe('alerts API: webhook signing secrets', () => {
  const s = new AlertsStack();
  let token: string;

  beforeAll(async () => {
    await s.start();
    token = await s.token();
  });
  afterAll(() => s.stop());

  const stored = async (id: string) =>
    (
      await s.ds.query(
        `SELECT signing_secret, previous_signing_secret, previous_secret_expires_at FROM webhooks WHERE id = $1`,
        [id],
      )
    )[0];
  const open = (sealed: string) => new KeyEncryption(DEMO_KEY_ENCRYPTION_KEY).decrypt(sealed);

  it('returns the secret once at creation and stores it sealed with KEY_ENCRYPTION_KEY, never as text', async () => {
    const { id, secret } = await s.webhook(token);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const row = await stored(id);
    expect(row.signing_secret).not.toContain(secret.slice(6));
    expect(open(row.signing_secret)).toBe(secret);
    const got = await s.http().get(`/v2/alerts/webhook/${id}`).set('Authorization', `Bearer ${token}`).expect(200);
    expect(JSON.stringify(got.body)).not.toContain('whsec_');
    expect(got.body).toMatchObject({ signing_secret_set: true, previous_secret_expires_at: null });
  });

  it('rotates with a 24 h overlap by default: the old secret keeps signing until then', async () => {
    const { id, secret } = await s.webhook(token);
    const before = Date.now();
    const res = await s
      .http()
      .post(`/v2/alerts/webhook/${id}/secret/rotate`)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(res.body).toEqual({
      webhook_id: id,
      secret: expect.stringMatching(/^whsec_/),
      previous_secret_expires_at: expect.any(String),
    });
    expect(res.body.secret).not.toBe(secret);
    const until = Date.parse(res.body.previous_secret_expires_at);
    expect(until - before).toBeGreaterThan(86_390_000);
    expect(until - before).toBeLessThan(86_410_000);
    const row = await stored(id);
    expect([open(row.signing_secret), open(row.previous_signing_secret)]).toEqual([res.body.secret, secret]);
    const got = await s.http().get(`/v2/alerts/webhook/${id}`).set('Authorization', `Bearer ${token}`).expect(200);
    expect(got.body.previous_secret_expires_at).toBe(res.body.previous_secret_expires_at);
  });

  it('rotates with a chosen overlap, or none (0): the old secret then stops at once', async () => {
    const { id } = await s.webhook(token);
    const short = await s
      .http()
      .post(`/v2/alerts/webhook/${id}/secret/rotate`)
      .set('Authorization', `Bearer ${token}`)
      .send({ overlap_seconds: 60 })
      .expect(200);
    expect(Date.parse(short.body.previous_secret_expires_at) - Date.now()).toBeLessThan(61_000);
    const none = await s
      .http()
      .post(`/v2/alerts/webhook/${id}/secret/rotate`)
      .set('Authorization', `Bearer ${token}`)
      .send({ overlap_seconds: 0 })
      .expect(200);
    expect(none.body.previous_secret_expires_at).toBeNull();
    const row = await stored(id);
    expect(row).toMatchObject({ previous_signing_secret: null, previous_secret_expires_at: null });
    expect(open(row.signing_secret)).toBe(none.body.secret);
  });

  it('gives a webhook registered before secrets existed its first secret at its first rotation, without overlap', async () => {
    const { id } = await s.webhook(token);
    await s.ds.query(`UPDATE webhooks SET signing_secret = NULL WHERE id = $1`, [id]);
    const got = await s.http().get(`/v2/alerts/webhook/${id}`).set('Authorization', `Bearer ${token}`).expect(200);
    expect(got.body.signing_secret_set).toBe(false);
    const res = await s
      .http()
      .post(`/v2/alerts/webhook/${id}/secret/rotate`)
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(res.body.previous_secret_expires_at).toBeNull();
    expect(open((await stored(id)).signing_secret)).toBe(res.body.secret);
  });

  describe('bad input never rotates anything', () => {
    let id: string;
    let sealed: string;
    beforeAll(async () => {
      id = (await s.webhook(token)).id;
      sealed = (await stored(id)).signing_secret;
    });
    afterEach(async () => expect((await stored(id)).signing_secret).toBe(sealed));
    const rotate = (target: string) => s.http().post(`/v2/alerts/webhook/${target}/secret/rotate`);

    it('answers no token 401, a bad token 401 and a token without the webhooks scope 403', async () => {
      expectError(await rotate(id), 401, 'invalid_token');
      expectError(await rotate(id).set('Authorization', 'Bearer not.a.token'), 401, 'invalid_token');
      const reader = await s.token({ scopes: [SCOPES.read] });
      expectError(await rotate(id).set('Authorization', `Bearer ${reader}`), 403, 'insufficient_scope');
      const operator = await s.operatorToken();
      expectError(await rotate(id).set('Authorization', `Bearer ${operator}`), 403, 'insufficient_scope');
    });

    it("answers another app's webhook and an unknown id 404, a malformed id 400", async () => {
      const other = await s.token({ app: s.other });
      for (const target of [id, UNKNOWN_ID])
        expectError(await rotate(target).set('Authorization', `Bearer ${other}`), 404, 'not_found');
      expectError(await rotate('nope').set('Authorization', `Bearer ${token}`), 400, 'validation_failed');
    });

    it.each([
      [{ overlap_seconds: -1 }],
      [{ overlap_seconds: 604_801 }],
      [{ overlap_seconds: 1.5 }],
      [{ overlap_seconds: '60' }],
      [{ secret: 'whsec_mine' }],
    ])('answers a malformed body %j 400 naming the field', async (body) => {
      const res = await rotate(id).set('Authorization', `Bearer ${token}`).send(body);
      expectError(res, 400, 'validation_failed');
      expect(res.body.message).toContain(Object.keys(body)[0]);
    });

    it('answers a body that is not JSON 415 and broken JSON 400', async () => {
      const auth = { Authorization: `Bearer ${token}` };
      expectError(
        await rotate(id).set(auth).set('Content-Type', 'text/plain').send('overlap=1'),
        415,
        'unsupported_media_type',
      );
      expectError(
        await rotate(id).set(auth).set('Content-Type', 'application/json').send('{"overlap_seconds":'),
        400,
        'invalid_request',
      );
    });
  });
});
