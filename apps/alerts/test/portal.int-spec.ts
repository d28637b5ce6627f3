import { expectError, sampleAlertMessage } from '@edu/testing';
import { AlertsStack, SCOPES } from './support/alerts-stack';

const CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/**
 * The delivery portal over HTTP (the journey in a browser is e2e/test/delivery-portal.int-spec.ts):
 * links made by the app's API, opened once into an HttpOnly session, pages with a strict CSP
 * showing only that app's webhooks at that tenant, forms guarded by a CSRF token, refusals that
 * show nothing.
 */
describe('alerts: the delivery portal', () => {
  const s = new AlertsStack();
  let token: string;
  let hook: string;
  let otherHook: string;

  beforeAll(async () => {
    await s.start({ PUBLIC_BASE_URL: 'https://alerts.portal.example' });
    token = await s.token();
    hook = (await s.webhook(token, 'https://hooks.partner.example/portal')).id;
    otherHook = (await s.webhook(await s.token({ app: s.other }), 'https://hooks.other.example/secret-place')).id;
    await s
      .http()
      .post('/v2/alerts/messages')
      .set('Authorization', `Bearer ${await s.operatorToken()}`)
      .send({ tenant_id: s.tenantA, messages: [sampleAlertMessage(), sampleAlertMessage()] })
      .expect(201);
  });
  afterAll(() => s.stop());

  const link = async (t = token, body?: object) => {
    const req = s.http().post('/v2/alerts/portal-sessions').set('Authorization', `Bearer ${t}`);
    const res = await (body ? req.send(body) : req).expect(201);
    return res.body as { url: string; expires_at: string };
  };
  const pathOf = (url: string) => url.replace('https://alerts.portal.example', '');
  /** Opens a link: the session cookie. */
  const open = async (url: string) => {
    const res = await s.http().get(pathOf(url)).expect(303);
    expect(res.headers.location).toBe('/v2/alerts/portal');
    return (res.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
  };
  const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

  it('makes a short-lived link on the public URL, opened once into an HttpOnly session cookie', async () => {
    const made = await link();
    expect(made.url).toMatch(/^https:\/\/alerts\.portal\.example\/v2\/alerts\/portal\/open\?token=[\w-]+\.[\w-]+$/);
    expect(Date.parse(made.expires_at) - Date.now()).toBeGreaterThan(1_790_000);
    const res = await s.http().get(pathOf(made.url)).expect(303);
    const cookie = (res.headers['set-cookie'] as unknown as string[])[0];
    expect(cookie).toMatch(
      /^edu_portal=[0-9a-f-]{36}\.[\w-]+; Path=\/v2\/alerts\/portal; Expires=.+; HttpOnly; Secure; SameSite=Lax$/,
    );
    // A link works once: found again in a history or a log, it opens nothing.
    const again = await s.http().get(pathOf(made.url)).expect(403);
    expect(again.text).toContain('This portal session has ended');
    expect(again.headers['content-security-policy']).toBe(CSP);
  });

  it("shows the app's webhooks and recent deliveries at the tenant under a strict CSP, and nothing of another app", async () => {
    const cookie = await open((await link()).url);
    const page = await s.http().get('/v2/alerts/portal').set('Cookie', cookie).expect(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers).toMatchObject({
      'content-security-policy': CSP,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
    });
    expect(page.text).toContain('https://hooks.partner.example/portal');
    expect(page.text).toContain(`data-webhook="${hook}"`);
    expect((page.text.match(/class="delivery"/g) ?? []).length).toBeGreaterThanOrEqual(2);
    expect(page.text).not.toContain('secret-place');
    expect(page.text).not.toContain(otherHook);
    expect(page.text).not.toMatch(/<script/i);
    const css = await s.http().get('/v2/alerts/portal/portal.css').expect(200);
    expect(css.headers['content-type']).toContain('text/css');
  });

  it('rotates the secret and re-enables through forms with the CSRF token; refuses forms without it', async () => {
    const cookie = await open((await link()).url);
    const csrf = csrfOf((await s.http().get('/v2/alerts/portal').set('Cookie', cookie)).text);
    const noCsrf = await s
      .http()
      .post(`/v2/alerts/portal/webhooks/${hook}/rotate-secret`)
      .set('Cookie', cookie)
      .type('form')
      .send({});
    expect(noCsrf.status).toBe(403);
    const rotated = await s
      .http()
      .post(`/v2/alerts/portal/webhooks/${hook}/rotate-secret`)
      .set('Cookie', cookie)
      .type('form')
      .send({ csrf })
      .expect(200);
    expect(rotated.text).toMatch(/<code class="secret">whsec_[A-Za-z0-9+/=]+<\/code>/);
    await s.ds.query(
      `UPDATE webhooks SET status = 'disabled', disabled_reason = 'endpoint_gone', disabled_at = now() WHERE id = $1`,
      [hook],
    );
    const enabled = await s
      .http()
      .post(`/v2/alerts/portal/webhooks/${hook}/enable`)
      .set('Cookie', cookie)
      .type('form')
      .send({ csrf })
      .expect(200);
    expect(enabled.text).toContain('Re-enabled');
    expect((await s.ds.query(`SELECT status FROM webhooks WHERE id = $1`, [hook]))[0].status).toBe('active');
  });

  it("refuses another app's webhook, unknown and malformed ids with a page that shows nothing", async () => {
    const cookie = await open((await link()).url);
    const csrf = csrfOf((await s.http().get('/v2/alerts/portal').set('Cookie', cookie)).text);
    for (const path of [
      `/v2/alerts/portal/webhooks/${otherHook}/rotate-secret`,
      `/v2/alerts/portal/webhooks/${otherHook}/enable`,
      `/v2/alerts/portal/webhooks/6f1c1f0e-4a4b-4c1e-9b7a-3d2f1e0c9b8a/test`,
      `/v2/alerts/portal/webhooks/not-an-id/test`,
      `/v2/alerts/portal/webhooks/${hook}/deliveries/x/redeliver`,
    ]) {
      const res = await s.http().post(path).set('Cookie', cookie).type('form').send({ csrf });
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.text).toContain('There is nothing here for your app');
      expect(res.text).not.toContain('hooks.');
    }
    const [{ previous_signing_secret }] = await s.ds.query(
      `SELECT previous_signing_secret FROM webhooks WHERE id = $1`,
      [otherHook],
    );
    expect(previous_signing_secret).toBeNull();
  });

  it('refuses a forged, tampered or expired link, and pages without a live session', async () => {
    const made = await link();
    const [base, tokenText] = made.url.split('token=');
    const [payload, signature] = tokenText.split('.');
    const tampered = `${base}token=${payload}.${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
    await s.http().get(pathOf(tampered)).expect(403);
    await s.http().get('/v2/alerts/portal/open').expect(403);
    await s.http().get('/v2/alerts/portal/open?token=abc.def').expect(403);
    const expiring = await link();
    await s.ds.query(
      `UPDATE alert_portal_sessions SET expires_at = now() - interval '1 second' WHERE opened_at IS NULL`,
    );
    await s.http().get(pathOf(expiring.url)).expect(403);
    const cookie = await open((await link()).url);
    await s.ds.query(`UPDATE alert_portal_sessions SET expires_at = now() - interval '1 second'`);
    const ended = await s.http().get('/v2/alerts/portal').set('Cookie', cookie).expect(403);
    expect(ended.text).not.toContain('hooks.partner.example');
    await s.http().get('/v2/alerts/portal').expect(403);
    await s
      .http()
      .get('/v2/alerts/portal')
      .set('Cookie', 'edu_portal=6f1c1f0e-4a4b-4c1e-9b7a-3d2f1e0c9b8a.forged')
      .expect(403);
  });

  describe('POST /v2/alerts/portal-sessions refuses bad requests', () => {
    const post = () => s.http().post('/v2/alerts/portal-sessions');
    it('without a token, with a bad token or without the webhooks scope', async () => {
      expectError(await post(), 401, 'invalid_token');
      expectError(await post().set('Authorization', 'Bearer x.y.z'), 401, 'invalid_token');
      const reader = await s.token({ scopes: [SCOPES.read] });
      expectError(await post().set('Authorization', `Bearer ${reader}`), 403, 'insufficient_scope');
      expectError(await post().set('Authorization', `Bearer ${await s.operatorToken()}`), 403, 'insufficient_scope');
    });

    it.each([[{ expires_in: 10 }], [{ expires_in: 14_401 }], [{ expires_in: '600' }], [{ app_id: 'x' }]])(
      'with the body %j (400 naming the field)',
      async (body) => {
        const res = await post().set('Authorization', `Bearer ${token}`).send(body);
        expectError(res, 400, 'validation_failed');
        expect(res.body.message).toContain(Object.keys(body)[0]);
      },
    );

    it('with a body that is not JSON (415)', async () => {
      expectError(
        await post().set('Authorization', `Bearer ${token}`).set('Content-Type', 'text/plain').send('x'),
        415,
        'unsupported_media_type',
      );
    });
  });
});
