import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { loadConfig } from '@edu/config';
import { ScopeCatalog, type ScopeKey } from '@edu/domain';
import { configureHttpApp } from '@edu/http';
import {
  baseTestEnv,
  createTestDatabase,
  docOperations,
  openApiValidators,
  responseSchema,
  routeInventory,
  sampleAlertMessage,
  TestIssuer,
  testRedis,
  World,
  type DocOperation,
  type TestDatabase,
} from '@edu/testing';
import { alertsHttpOptions } from '../src/alerts-http';
import { AlertsModule } from '../src/alerts.module';
import { AlertsEnv } from '../src/config/alerts.env';
import { setupOpenApi } from '../src/openapi';

const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
});

/** Served by every process but not part of the API: left out of the document on purpose. */
const OPERATIONS_ENDPOINTS = ['GET /health/live', 'GET /health/ready', 'GET /metrics'];
/** The delivery portal's HTML pages (public, behind their own session): not API operations. */
const isPortalPage = (route: string) => /^(GET|POST) \/v2\/alerts\/portal(\/|$)/.test(route);

/**
 * The alerts OpenAPI document (/docs-json) against the app that serves it: exactly the routes the
 * app serves (the route inventory, read from the same controllers the guard reads), each with its
 * scopes, parameters, success and error schemas; and real answers validate against those schemas.
 */
describe('alerts OpenAPI document', () => {
  let db: TestDatabase;
  let issuer: TestIssuer;
  let app: NestExpressApplication;
  let doc: ReturnType<typeof JSON.parse>;
  let ops: DocOperation[];
  let validator: ReturnType<typeof openApiValidators>;

  beforeAll(async () => {
    db = await createTestDatabase();
    issuer = await new TestIssuer().start();
    const redis = testRedis();
    const env = loadConfig(
      AlertsEnv,
      baseTestEnv({
        DATABASE_URL: db.url,
        REDIS_URL: redis.url,
        QUEUE_PREFIX: redis.prefix,
        JWKS_URL: issuer.jwksUrl,
        TOKEN_ISSUER: issuer.issuer,
        WEBHOOK_TEST_WAIT_MS: '200',
      }),
    );
    // As main.ts does it: OpenAPI routes before init.
    const ref = await Test.createTestingModule({ imports: [AlertsModule.forRoot(env)] }).compile();
    app = ref.createNestApplication<NestExpressApplication>({ bodyParser: false, bufferLogs: true });
    configureHttpApp(app, alertsHttpOptions(env));
    setupOpenApi(app);
    await app.init();
    doc = (await http().get('/docs-json').expect(200)).body;
    ops = docOperations(doc);
    validator = openApiValidators(doc);
  });

  afterAll(async () => {
    await app?.close();
    await issuer?.stop();
    await db?.drop();
  });

  const http = () => request(app.getHttpServer());

  it('lists exactly the routes the app serves (health and metrics left out)', () => {
    const served = routeInventory(app)
      .map((r) => `${r.method} ${r.path}`)
      .filter((r) => !OPERATIONS_ENDPOINTS.includes(r) && !isPortalPage(r));
    expect(ops.map((o) => `${o.method} ${o.path}`).sort()).toEqual(served.sort());
    expect(served.length).toBe(16);
  });

  it('names the scopes every operation accepts, as the guard enforces them', () => {
    const access = new Map(routeInventory(app).map((r) => [`${r.method} ${r.path}`, r.access]));
    expect(doc.components.securitySchemes).toMatchObject({
      bearer: { type: 'http', scheme: 'bearer' },
      oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: `${issuer.issuer}/oauth/token` } } },
    });
    for (const o of ops) {
      const keys = (access.get(`${o.method} ${o.path}`) as string).split(' ') as ScopeKey[];
      const uris = catalog.uris(keys);
      expect({ route: `${o.method} ${o.path}`, scopes: o.op['x-required-scopes'] }).toEqual({
        route: `${o.method} ${o.path}`,
        scopes: uris,
      });
      expect(o.op.security).toEqual([{ bearer: [] }, { oauth2: uris }]);
    }
  });

  it('declares every path parameter, a success schema and the error schema of each failure', () => {
    for (const o of ops) {
      const route = `${o.method} ${o.path}`;
      const names = [...o.openApiPath.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = (o.op.parameters ?? []).filter((p: { in: string }) => p.in === 'path');
      expect({ route, params: declared.map((p: { name: string; required: boolean }) => [p.name, p.required]) }).toEqual(
        { route, params: names.map((n) => [n, true]) },
      );
      const ok = Object.keys(o.op.responses).filter((s) => s.startsWith('2'));
      expect({ route, ok: ok.length > 0 }).toEqual({ route, ok: true });
      for (const s of ok)
        expect({ route, s, schema: !!responseSchema(o, Number(s)) }).toEqual({ route, s, schema: true });
      for (const s of [401, 403, 503])
        expect({ route, s, schema: responseSchema(o, s) }).toEqual({
          route,
          s,
          schema: { $ref: '#/components/schemas/Error' },
        });
      if (names.length)
        expect({ route, s: 404, schema: responseSchema(o, 404) }).toEqual({
          route,
          s: 404,
          schema: { $ref: '#/components/schemas/Error' },
        });
      if (o.op.requestBody)
        for (const s of [400, 413, 415])
          expect({ route, s, has: !!responseSchema(o, s) }).toEqual({ route, s, has: true });
    }
    const list = ops.find((o) => o.path === '/v2/alerts/webhook/:id/deliveries')!;
    expect(
      list.op.parameters
        .filter((p: { in: string }) => p.in === 'query')
        .map((p: { name: string }) => p.name)
        .sort(),
    ).toEqual(['cursor', 'limit', 'status']);
  });

  it('describes what the app really answers (real answers validate against the document)', async () => {
    const ds = app.get(DataSource);
    const world = new World(ds);
    const dev = await world.developer();
    const partner = (await world.app({ type: 'developer', id: dev.id }, 'Wellbeing')).app.id;
    const tenantId = (await world.tenant()).id;
    await world.deploy(partner, tenantId, catalog.uris(['alerts.messages.read', 'alerts.webhooks.write']));
    const token = await issuer.mint({
      scopes: catalog.uris(['alerts.messages.read', 'alerts.webhooks.write']),
      tenantId,
      sub: partner,
    });
    const operator = await issuer.mint({ scopes: [catalog.uri('platform.admin')], sub: 'operator' });
    const op = (method: string, path: string) => ops.find((o) => o.method === method && o.path === path)!;

    const checked = new Set<string>();
    const check = async (method: string, path: string, url: string, bearer: string, body?: object) => {
      const req = http()[method.toLowerCase() as 'get'](url).set('Authorization', `Bearer ${bearer}`);
      const res = await (body ? req.send(body) : req);
      const schema = responseSchema(op(method, path), res.status);
      expect({ route: `${method} ${path}`, status: res.status, documented: !!schema }).toEqual({
        route: `${method} ${path}`,
        status: res.status,
        documented: true,
      });
      const validate = validator(schema);
      expect({ route: `${method} ${path}`, errors: validate(res.body) ? null : validate.errors }).toEqual({
        route: `${method} ${path}`,
        errors: null,
      });
      checked.add(`${method} ${path} ${res.status}`);
      return res.body;
    };

    const created = await check('POST', '/v2/alerts/webhook', '/v2/alerts/webhook', token, {
      endpoint: 'https://hooks.partner.example/in',
      type: 'notification-only',
    });
    const id = created.webhook_id;
    await check('GET', '/v2/alerts/webhook', '/v2/alerts/webhook', token);
    const webhook = await check('GET', '/v2/alerts/webhook/:id', `/v2/alerts/webhook/${id}`, token);
    // The schemas are strict: a field too many or a wrong type does not pass.
    const webhookSchema = validator(responseSchema(op('GET', '/v2/alerts/webhook/:id'), 200));
    expect([
      webhookSchema({ ...webhook, extra: 1 }),
      webhookSchema({ ...webhook, type: 'other' }),
      webhookSchema(webhook),
    ]).toEqual([false, false, true]);
    await check('PATCH', '/v2/alerts/webhook/:id', `/v2/alerts/webhook/${id}`, token, { type: 'full-payload' });
    const submitted = await check('POST', '/v2/alerts/messages', '/v2/alerts/messages', operator, {
      tenant_id: tenantId,
      messages: [sampleAlertMessage()],
    });
    await check('GET', '/v2/alerts/message/:id', `/v2/alerts/message/${submitted.messages[0].message_id}`, token);
    const page = await check('GET', '/v2/alerts/webhook/:id/deliveries', `/v2/alerts/webhook/${id}/deliveries`, token);
    const deliveryId = page.deliveries[0].delivery_id;
    await check(
      'GET',
      '/v2/alerts/webhook/:id/deliveries/:deliveryId',
      `/v2/alerts/webhook/${id}/deliveries/${deliveryId}`,
      token,
    );
    // Not finished (no dispatcher runs here): a documented 409.
    await check(
      'POST',
      '/v2/alerts/webhook/:id/deliveries/:deliveryId/redeliver',
      `/v2/alerts/webhook/${id}/deliveries/${deliveryId}/redeliver`,
      token,
    );
    await check('POST', '/v2/alerts/webhook/:id/test', `/v2/alerts/webhook/${id}/test`, token);
    // Failures carry the error schema.
    await check('GET', '/v2/alerts/webhook/:id', '/v2/alerts/webhook/6f1c1f0e-4a4b-4c1e-9b7a-3d2f1e0c9b8a', token);
    await check('GET', '/v2/alerts/webhook/:id/deliveries', `/v2/alerts/webhook/${id}/deliveries?limit=0`, token);
    await check(
      'GET',
      '/v2/alerts/message/:id',
      `/v2/alerts/message/${submitted.messages[0].message_id}`,
      'not-a-token',
    );
    await check('POST', '/v2/alerts/messages', '/v2/alerts/messages', token, { tenant_id: tenantId, messages: [] });
    await check('DELETE', '/v2/alerts/webhook/:id', `/v2/alerts/webhook/${id}`, token);
    expect([...checked].sort()).toEqual(
      expect.arrayContaining([
        'POST /v2/alerts/webhook/:id/deliveries/:deliveryId/redeliver 409',
        'POST /v2/alerts/webhook/:id/test 202',
        'GET /v2/alerts/webhook/:id 404',
        'GET /v2/alerts/webhook/:id/deliveries 400',
        'GET /v2/alerts/message/:id 401',
        'POST /v2/alerts/messages 403',
      ]),
    );
  });

  it('serves the UI at /docs', async () => {
    const ui = await http().get('/docs/').redirects(1);
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger');
  });
});
