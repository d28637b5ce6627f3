import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { loadConfig } from '@edu/config';
import { ScopeCatalog } from '@edu/domain';
import { WebhookEntity } from '@edu/persistence';
import {
  baseTestEnv,
  createTestApp,
  createTestDatabase,
  expectError,
  routeInventory,
  TestIssuer,
  World,
  type TestDatabase,
} from '@edu/testing';
import { alertsHttpOptions } from '../src/alerts-http';
import { AlertsModule } from '../src/alerts.module';
import { AlertsEnv } from '../src/config/alerts.env';

const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
});
const WEBHOOKS = catalog.uri('alerts.webhooks.write');
const MESSAGES = catalog.uri('alerts.messages.read');
const UNKNOWN_ID = '6f1c1f0e-4a4b-4c1e-9b7a-3d2f1e0c9b8a';

describe('alerts API: webhook management', () => {
  let db: TestDatabase;
  let issuer: TestIssuer;
  let app: NestExpressApplication;
  let ds: DataSource;
  let appA: string;
  let appB: string;
  let tenantId: string;
  let tokenA: string;
  let tokenB: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    issuer = await new TestIssuer().start();
    const env = loadConfig(
      AlertsEnv,
      baseTestEnv({
        DATABASE_URL: db.url,
        REDIS_URL: process.env.REDIS_URL,
        QUEUE_PREFIX: '{t-alerts}',
        JWKS_URL: issuer.jwksUrl,
        TOKEN_ISSUER: issuer.issuer,
      }),
    );
    app = await createTestApp(AlertsModule.forRoot(env), alertsHttpOptions(env));
    ds = app.get(DataSource);
    const world = new World(ds);
    const dev = await world.developer();
    appA = (await world.app({ type: 'developer', id: dev.id }, 'App A')).app.id;
    appB = (await world.app({ type: 'developer', id: dev.id }, 'App B')).app.id;
    tenantId = (await world.tenant()).id;
    tokenA = await issuer.mint({ scopes: [WEBHOOKS], tenantId, sub: appA });
    tokenB = await issuer.mint({ scopes: [WEBHOOKS], tenantId, sub: appB });
  });

  afterAll(async () => {
    await app?.close();
    await issuer?.stop();
    await db?.drop();
  });

  const http = () => request(app.getHttpServer());
  const count = () => ds.getRepository(WebhookEntity).count();

  it('registers, reads, updates and deletes a webhook with the spec shapes', async () => {
    const created = await http()
      .post('/v2/alerts/webhook')
      .set('Authorization', `Bearer ${tokenA}`)
      .send({ endpoint: 'https://hooks.partner.example/a', type: 'full-payload' })
      .expect(200);
    expect(created.body).toEqual({
      webhook_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      action: 'newWebhook',
      success: true,
      secret: expect.stringMatching(/^whsec_/),
    });
    const id = created.body.webhook_id;

    const got = await http().get(`/v2/alerts/webhook/${id}`).set('Authorization', `Bearer ${tokenA}`).expect(200);
    expect(got.body).toEqual({
      webhook_id: id,
      endpoint: 'https://hooks.partner.example/a',
      type: 'full-payload',
      kind: 'alerts',
      filter: null,
      signing_secret_set: true,
      previous_secret_expires_at: null,
      status: 'active',
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
      rate_limit: null,
    });

    const listed = await http().get('/v2/alerts/webhook').set('Authorization', `Bearer ${tokenA}`).expect(200);
    expect(listed.body).toEqual([got.body]);

    const updated = await http()
      .patch(`/v2/alerts/webhook/${id}`)
      .set('Authorization', `Bearer ${tokenA}`)
      .send({ endpoint: 'https://hooks.partner.example/b', type: 'full-payload' })
      .expect(200);
    expect(updated.body).toEqual({
      webhook_id: id,
      action: 'updateWebhook',
      success: true,
      updated_props: { endpoint: 'https://hooks.partner.example/b' },
    });

    const deleted = await http()
      .delete(`/v2/alerts/webhook/${id}`)
      .set('Authorization', `Bearer ${tokenA}`)
      .expect(200);
    expect(deleted.body).toEqual({ webhook_id: id, action: 'deleteWebhook', success: true });
    expectError(
      await http().delete(`/v2/alerts/webhook/${id}`).set('Authorization', `Bearer ${tokenA}`),
      404,
      'not_found',
    );
  });

  it("answers another app's webhook exactly like an unknown one", async () => {
    const created = await http()
      .post('/v2/alerts/webhook')
      .set('Authorization', `Bearer ${tokenA}`)
      .send({ endpoint: 'https://hooks.partner.example/x', type: 'notification-only' })
      .expect(200);
    const id = created.body.webhook_id;
    for (const target of [id, UNKNOWN_ID]) {
      expectError(
        await http().get(`/v2/alerts/webhook/${target}`).set('Authorization', `Bearer ${tokenB}`),
        404,
        'not_found',
      );
      expectError(
        await http()
          .patch(`/v2/alerts/webhook/${target}`)
          .set('Authorization', `Bearer ${tokenB}`)
          .send({ type: 'full-payload' }),
        404,
        'not_found',
      );
      expectError(
        await http().delete(`/v2/alerts/webhook/${target}`).set('Authorization', `Bearer ${tokenB}`),
        404,
        'not_found',
      );
    }
    const listed = await http().get('/v2/alerts/webhook').set('Authorization', `Bearer ${tokenB}`).expect(200);
    expect(listed.body).toEqual([]);
    const still = await http().get(`/v2/alerts/webhook/${id}`).set('Authorization', `Bearer ${tokenA}`).expect(200);
    expect(still.body.type).toBe('notification-only');
  });

  it("answers 503 with Retry-After while the token's app has not reached this database (replication lag), and stores nothing", async () => {
    const notYetHere = await issuer.mint({ scopes: [WEBHOOKS], tenantId, sub: UNKNOWN_ID });
    const before = await count();
    const res = await http()
      .post('/v2/alerts/webhook')
      .set('Authorization', `Bearer ${notYetHere}`)
      .send({ endpoint: 'https://hooks.partner.example/early', type: 'full-payload' });
    expectError(res, 503, 'service_unavailable');
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body.message).toContain('retry later');
    expect(await count()).toBe(before);
  });

  it('refuses a malformed id with 400', async () => {
    const res = await http().get('/v2/alerts/webhook/not-a-uuid').set('Authorization', `Bearer ${tokenA}`);
    expectError(res, 400, 'validation_failed');
    expect(res.body.message).toContain('id');
  });

  it.each([
    ['missing type', { endpoint: 'https://hooks.partner.example/a' }, 'type'],
    ['unknown type', { endpoint: 'https://hooks.partner.example/a', type: 'everything' }, 'type'],
    ['unknown property', { endpoint: 'https://hooks.partner.example/a', type: 'full-payload', secret: 'x' }, 'secret'],
    ['endpoint not a string', { endpoint: 42, type: 'full-payload' }, 'endpoint'],
    ['plain http endpoint', { endpoint: 'http://hooks.partner.example/a', type: 'full-payload' }, 'endpoint'],
    ['loopback endpoint (SSRF)', { endpoint: 'https://127.0.0.1/a', type: 'full-payload' }, 'endpoint'],
    [
      'cloud metadata endpoint (SSRF)',
      { endpoint: 'https://169.254.169.254/latest', type: 'full-payload' },
      'endpoint',
    ],
    ['IPv4-mapped loopback (SSRF)', { endpoint: 'https://[::ffff:7f00:1]/a', type: 'full-payload' }, 'endpoint'],
    ['decimal loopback (SSRF)', { endpoint: 'https://2130706433/a', type: 'full-payload' }, 'endpoint'],
    [
      'port of an internal service (Redis)',
      { endpoint: 'https://hooks.partner.example:6379/a', type: 'full-payload' },
      'port',
    ],
    ['port outside the allow-list', { endpoint: 'https://hooks.partner.example:8081/a', type: 'full-payload' }, 'port'],
  ])('refuses a bad registration (%s) and writes nothing', async (_name, body, field) => {
    const before = await count();
    const res = await http().post('/v2/alerts/webhook').set('Authorization', `Bearer ${tokenA}`).send(body);
    expectError(res, 400, 'validation_failed');
    expect(res.body.message).toContain(field);
    expect(await count()).toBe(before);
  });

  it('accepts the allowed ports (443, 80 for http where allowed, 8443, 8080) and refuses an update to another port', async () => {
    for (const endpoint of [
      'https://hooks.partner.example:443/a',
      'https://hooks.partner.example:8443/a',
      'https://hooks.partner.example:8080/a',
    ]) {
      await http()
        .post('/v2/alerts/webhook')
        .set('Authorization', `Bearer ${tokenA}`)
        .send({ endpoint, type: 'full-payload' })
        .expect(200);
    }
    const created = await http()
      .post('/v2/alerts/webhook')
      .set('Authorization', `Bearer ${tokenA}`)
      .send({ endpoint: 'https://hooks.partner.example/p', type: 'full-payload' })
      .expect(200);
    const res = await http()
      .patch(`/v2/alerts/webhook/${created.body.webhook_id}`)
      .set('Authorization', `Bearer ${tokenA}`)
      .send({ endpoint: 'https://hooks.partner.example:5432/p' });
    expectError(res, 400, 'validation_failed');
    expect(res.body.message).toContain('port');
  });

  it('requires at least one property on update', async () => {
    const created = await http()
      .post('/v2/alerts/webhook')
      .set('Authorization', `Bearer ${tokenA}`)
      .send({ endpoint: 'https://hooks.partner.example/u', type: 'full-payload' })
      .expect(200);
    expectError(
      await http()
        .patch(`/v2/alerts/webhook/${created.body.webhook_id}`)
        .set('Authorization', `Bearer ${tokenA}`)
        .send({}),
      400,
      'validation_failed',
    );
  });

  it('answers bodies that are not JSON, malformed or too large with 415, 400 and 413', async () => {
    const auth = { Authorization: `Bearer ${tokenA}` };
    expectError(
      await http().post('/v2/alerts/webhook').set(auth).set('Content-Type', 'text/plain').send('endpoint=x'),
      415,
      'unsupported_media_type',
    );
    expectError(
      await http().post('/v2/alerts/webhook').set(auth).set('Content-Type', 'application/json').send('{"endpoint":'),
      400,
      'invalid_request',
    );
    const huge = JSON.stringify({
      endpoint: `https://hooks.partner.example/${'a'.repeat(2_000_000)}`,
      type: 'full-payload',
    });
    expectError(
      await http().post('/v2/alerts/webhook').set(auth).set('Content-Type', 'application/json').send(huge),
      413,
      'payload_too_large',
    );
  });

  describe('authentication and scopes', () => {
    it('answers a request without a token with 401 and a Bearer challenge', async () => {
      const res = await http().get('/v2/alerts/webhook');
      expectError(res, 401, 'invalid_token');
      expect(res.headers['www-authenticate']).toBe('Bearer realm="edu-platform"');
    });

    it('refuses every forged, expired or foreign token with 401', async () => {
      const attacks = await issuer.attackTokens({ scopes: [WEBHOOKS], tenantId, sub: appA });
      for (const [name, token] of Object.entries(attacks)) {
        const res = await http().get('/v2/alerts/webhook').set('Authorization', `Bearer ${token}`);
        if (res.status !== 401) throw new Error(`${name}: expected 401, got ${res.status}`);
        expectError(res, 401, 'invalid_token');
        expect(res.headers['www-authenticate']).toContain('error="invalid_token"');
      }
    });

    it('refuses a malformed Authorization header with 401', async () => {
      expectError(
        await http()
          .get('/v2/alerts/webhook')
          .set('Authorization', `Basic ${Buffer.from('a:b').toString('base64')}`),
        401,
        'invalid_token',
      );
    });

    it('refuses a valid token without the webhooks scope with 403', async () => {
      const token = await issuer.mint({ scopes: [MESSAGES], tenantId, sub: appA });
      const res = await http()
        .post('/v2/alerts/webhook')
        .set('Authorization', `Bearer ${token}`)
        .send({ endpoint: 'https://hooks.partner.example/a', type: 'full-payload' });
      expectError(res, 403, 'insufficient_scope');
      expect(res.headers['www-authenticate']).toContain('insufficient_scope');
    });
  });

  it('declares who may call every route (reviewed list: a diff is a permission change)', () => {
    expect(routeInventory(app).map((r) => `${r.method} ${r.path} ${r.access}`)).toEqual([
      'GET /health/live public',
      'GET /health/ready public',
      'GET /metrics public',
      'GET /v2/alerts/message/:id alerts.messages.read',
      'POST /v2/alerts/messages platform.admin',
      'GET /v2/alerts/portal public',
      'POST /v2/alerts/portal-sessions alerts.webhooks.write',
      'GET /v2/alerts/portal/open public',
      'GET /v2/alerts/portal/portal.css public',
      'POST /v2/alerts/portal/webhooks/:id/deliveries/:deliveryId/redeliver public',
      'POST /v2/alerts/portal/webhooks/:id/enable public',
      'POST /v2/alerts/portal/webhooks/:id/rotate-secret public',
      'POST /v2/alerts/portal/webhooks/:id/test public',
      'DELETE /v2/alerts/tenants/:tenant_id/messages/:message_id/payload platform.admin id.tenant-core.write',
      'GET /v2/alerts/tenants/:tenant_id/settings platform.admin id.tenant-core.write',
      'PATCH /v2/alerts/tenants/:tenant_id/settings platform.admin id.tenant-core.write',
      'GET /v2/alerts/webhook alerts.webhooks.write',
      'POST /v2/alerts/webhook alerts.webhooks.write',
      'DELETE /v2/alerts/webhook/:id alerts.webhooks.write',
      'GET /v2/alerts/webhook/:id alerts.webhooks.write',
      'PATCH /v2/alerts/webhook/:id alerts.webhooks.write',
      'GET /v2/alerts/webhook/:id/deliveries alerts.webhooks.write',
      'GET /v2/alerts/webhook/:id/deliveries/:deliveryId alerts.webhooks.write',
      'POST /v2/alerts/webhook/:id/deliveries/:deliveryId/redeliver alerts.webhooks.write',
      'POST /v2/alerts/webhook/:id/secret/rotate alerts.webhooks.write',
      'POST /v2/alerts/webhook/:id/test alerts.webhooks.write',
    ]);
  });

  describe('operations endpoints', () => {
    it('reports liveness and readiness of PostgreSQL and Redis', async () => {
      await http().get('/health/live').expect(200);
      const ready = await http().get('/health/ready').expect(200);
      expect(ready.body).toMatchObject({ status: 'ok', info: { postgres: { status: 'up' }, redis: { status: 'up' } } });
    });

    it('exposes Prometheus metrics', async () => {
      const res = await http().get('/metrics').expect(200);
      expect(res.headers['content-type']).toContain('text/plain');
      expect(res.text).toContain('http_request_duration_seconds');
    });

    it('echoes a request id', async () => {
      const res = await http().get('/health/live').set('X-Request-Id', 'req-123');
      expect(res.headers['x-request-id']).toBe('req-123');
    });
  });
});
