import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { loadConfig } from '@edu/config';
import { ScopeCatalog } from '@edu/domain';
import { WebhookDeliveryEntity } from '@edu/persistence';
import {
  baseTestEnv,
  createTestApp,
  createTestDatabase,
  expectError,
  sampleAlertMessage,
  TestIssuer,
  testRedis,
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
const ADMIN = catalog.uri('platform.admin');
const READ = catalog.uri('alerts.messages.read');
const HOOKS = catalog.uri('alerts.webhooks.write');
const UNKNOWN_ID = '6f1c1f0e-4a4b-4c1e-9b7a-3d2f1e0c9b8a';

/**
 * The delivery log of an app's own webhooks. No dispatcher runs here: attempts are written the
 * way the dispatcher writes them, so the endpoints' reading, scoping and paging are what is tested.
 */
describe('alerts API: delivery log, redelivery and test deliveries', () => {
  let db: TestDatabase;
  let issuer: TestIssuer;
  let app: NestExpressApplication;
  let ds: DataSource;
  let tenantA: string;
  let tenantB: string;
  let partner: string;
  let other: string;
  let tokenA: string;
  let tokenB: string;
  let tokenOther: string;
  let operator: string;
  let hook: string;
  let deliveries: string[];

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
        WEBHOOK_TEST_WAIT_MS: '300',
      }),
    );
    app = await createTestApp(AlertsModule.forRoot(env), alertsHttpOptions(env));
    ds = app.get(DataSource);
    const world = new World(ds);
    const dev = await world.developer();
    partner = (await world.app({ type: 'developer', id: dev.id }, 'Wellbeing')).app.id;
    other = (await world.app({ type: 'developer', id: dev.id }, 'Other')).app.id;
    tenantA = (await world.tenant()).id;
    tenantB = (await world.tenant()).id;
    for (const t of [tenantA, tenantB]) await world.deploy(partner, t, [READ, HOOKS]);
    await world.deploy(other, tenantA, [HOOKS]);
    tokenA = await issuer.mint({ scopes: [HOOKS], tenantId: tenantA, sub: partner });
    tokenB = await issuer.mint({ scopes: [HOOKS], tenantId: tenantB, sub: partner });
    tokenOther = await issuer.mint({ scopes: [HOOKS], tenantId: tenantA, sub: other });
    operator = await issuer.mint({ scopes: [ADMIN], sub: 'operator' });
    hook = (
      await http()
        .post('/v2/alerts/webhook')
        .set('Authorization', `Bearer ${tokenA}`)
        .send({ endpoint: 'https://hooks.partner.example/in', type: 'notification-only' })
        .expect(200)
    ).body.webhook_id;
    const messages = Array.from({ length: 5 }, () => sampleAlertMessage());
    await http()
      .post('/v2/alerts/messages')
      .set('Authorization', `Bearer ${operator}`)
      .send({ tenant_id: tenantA, messages })
      .expect(201);
    await http()
      .post('/v2/alerts/messages')
      .set('Authorization', `Bearer ${operator}`)
      .send({ tenant_id: tenantB, messages: [sampleAlertMessage()] })
      .expect(201);
    deliveries = (
      await ds
        .getRepository(WebhookDeliveryEntity)
        .find({ where: { webhookId: hook, tenantId: tenantA }, order: { createdAt: 'DESC', id: 'DESC' } })
    ).map((d) => d.id);
    // The first delivery failed twice and is awaiting its third attempt; the second was delivered.
    await recordAttempt(deliveries[0], 1, 503, 'E_HTTP');
    await recordAttempt(deliveries[0], 2, null, 'E_TIMEOUT');
    await ds.query(
      `UPDATE webhook_deliveries SET status = 'awaiting_retry', attempt_count = 2, due_at = now() + interval '10 seconds', last_error_code = 'E_TIMEOUT' WHERE id = $1`,
      [deliveries[0]],
    );
    await recordAttempt(deliveries[1], 1, 200, null);
    await ds.query(
      `UPDATE webhook_deliveries SET status = 'delivered', attempt_count = 1, due_at = NULL, last_status_code = 200, finished_at = now() WHERE id = $1`,
      [deliveries[1]],
    );
  });

  afterAll(async () => {
    await app?.close();
    await issuer?.stop();
    await db?.drop();
  });

  const http = () => request(app.getHttpServer());
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });
  const recordAttempt = (id: string, n: number, status: number | null, code: string | null) =>
    ds.query(
      `INSERT INTO webhook_delivery_attempts (delivery_id, attempt_number, started_at, duration_ms, url, resolved_ip, kid, request_bytes, response_status, error_code, error_message, response_excerpt, worker_id)
       VALUES ($1, $2, now(), 12, 'https://hooks.partner.example/in', '93.184.216.34', 'wh-test', 900, $3, $4, $5, 'body', 'w1')`,
      [id, n, status, code, code ? `failed: ${code}` : null],
    );

  it("lists the webhook's deliveries at the token's tenant, newest first, in pages with a cursor", async () => {
    const first = await http().get(`/v2/alerts/webhook/${hook}/deliveries?limit=2`).set(as(tokenA)).expect(200);
    expect(first.body.deliveries.map((d: { delivery_id: string }) => d.delivery_id)).toEqual(deliveries.slice(0, 2));
    expect(first.body.deliveries[0]).toEqual({
      delivery_id: deliveries[0],
      webhook_id: hook,
      message_id: expect.any(String),
      type: 'notification-only',
      trigger: 'message',
      event_type: null,
      redelivery_of: null,
      status: 'awaiting_retry',
      attempt_count: 2,
      next_attempt_at: expect.any(String),
      last_status_code: null,
      last_error_code: 'E_TIMEOUT',
      created_at: expect.any(String),
      first_attempt_at: null,
      finished_at: null,
      reason: null,
    });
    const seen = [...first.body.deliveries];
    let cursor = first.body.next_cursor;
    while (cursor) {
      const page = await http()
        .get(`/v2/alerts/webhook/${hook}/deliveries`)
        .query({ limit: 2, cursor })
        .set(as(tokenA))
        .expect(200);
      seen.push(...page.body.deliveries);
      cursor = page.body.next_cursor;
    }
    expect(seen.map((d) => d.delivery_id)).toEqual(deliveries);
    // The same webhook's deliveries at tenant B are B's business only.
    const atB = await http().get(`/v2/alerts/webhook/${hook}/deliveries`).set(as(tokenB)).expect(200);
    expect(atB.body.deliveries).toHaveLength(1);
    expect(deliveries).not.toContain(atB.body.deliveries[0].delivery_id);
  });

  it('filters by status', async () => {
    const res = await http().get(`/v2/alerts/webhook/${hook}/deliveries?status=delivered`).set(as(tokenA)).expect(200);
    expect(res.body.deliveries.map((d: { delivery_id: string }) => d.delivery_id)).toEqual([deliveries[1]]);
    expect(res.body.next_cursor).toBeNull();
  });

  it.each([
    ['unknown status', 'status=lost', 'status'],
    ['limit above 100', 'limit=101', 'limit'],
    ['limit not a number', 'limit=ten', 'limit'],
    ['a forged cursor', `cursor=${Buffer.from('yesterday|x').toString('base64url')}`, 'cursor'],
    ['an unknown parameter', 'sort=asc', 'sort'],
  ])('refuses a malformed query (%s) with 400', async (_name, query, field) => {
    const res = await http().get(`/v2/alerts/webhook/${hook}/deliveries?${query}`).set(as(tokenA));
    expectError(res, 400, 'validation_failed');
    expect(res.body.message).toContain(field);
  });

  it('shows one delivery with every attempt', async () => {
    const res = await http().get(`/v2/alerts/webhook/${hook}/deliveries/${deliveries[0]}`).set(as(tokenA)).expect(200);
    expect(res.body.attempts).toEqual([
      {
        attempt_number: 1,
        started_at: expect.any(String),
        duration_ms: 12,
        url: 'https://hooks.partner.example/in',
        resolved_ip: '93.184.216.34',
        response_status: 503,
        error_code: 'E_HTTP',
        error_message: 'failed: E_HTTP',
        response_excerpt: 'body',
        request_bytes: 900,
        kid: 'wh-test',
      },
      expect.objectContaining({ attempt_number: 2, response_status: null, error_code: 'E_TIMEOUT' }),
    ]);
  });

  it("answers another app's webhook, another tenant's delivery, unknown ids with 404 and malformed ids with 400", async () => {
    expectError(await http().get(`/v2/alerts/webhook/${hook}/deliveries`).set(as(tokenOther)), 404, 'not_found');
    expectError(
      await http().get(`/v2/alerts/webhook/${hook}/deliveries/${deliveries[0]}`).set(as(tokenOther)),
      404,
      'not_found',
    );
    expectError(
      await http().get(`/v2/alerts/webhook/${hook}/deliveries/${deliveries[0]}`).set(as(tokenB)),
      404,
      'not_found',
    );
    expectError(
      await http().get(`/v2/alerts/webhook/${hook}/deliveries/${UNKNOWN_ID}`).set(as(tokenA)),
      404,
      'not_found',
    );
    expectError(await http().get(`/v2/alerts/webhook/${UNKNOWN_ID}/deliveries`).set(as(tokenA)), 404, 'not_found');
    expectError(
      await http().post(`/v2/alerts/webhook/${hook}/deliveries/${deliveries[1]}/redeliver`).set(as(tokenOther)),
      404,
      'not_found',
    );
    expectError(await http().post(`/v2/alerts/webhook/${hook}/test`).set(as(tokenOther)), 404, 'not_found');
    expectError(
      await http().get(`/v2/alerts/webhook/${hook}/deliveries/not-a-uuid`).set(as(tokenA)),
      400,
      'validation_failed',
    );
  });

  it('redelivers a finished delivery as a new delivery with a new schedule, and refuses one still under way', async () => {
    const res = await http()
      .post(`/v2/alerts/webhook/${hook}/deliveries/${deliveries[1]}/redeliver`)
      .set(as(tokenA))
      .expect(201);
    expect(res.body).toMatchObject({
      trigger: 'redeliver',
      redelivery_of: deliveries[1],
      status: 'pending',
      attempt_count: 0,
      webhook_id: hook,
    });
    expect(res.body.delivery_id).not.toBe(deliveries[1]);
    const row = await ds.getRepository(WebhookDeliveryEntity).findOneByOrFail({ id: res.body.delivery_id });
    expect(row.enqueuedAt).not.toBeNull();
    expectError(
      await http().post(`/v2/alerts/webhook/${hook}/deliveries/${deliveries[0]}/redeliver`).set(as(tokenA)),
      409,
      'conflict',
    );
  });

  it('answers a test delivery that no dispatcher has sent yet with 202 and its pending state', async () => {
    const res = await http().post(`/v2/alerts/webhook/${hook}/test`).set(as(tokenA)).expect(202);
    expect(res.body).toEqual({ delivery_id: expect.any(String), success: false, status: 'pending', attempt: null });
    const row = await ds.getRepository(WebhookDeliveryEntity).findOneByOrFail({ id: res.body.delivery_id });
    expect(row).toMatchObject({ trigger: 'test', messageId: null, tenantId: tenantA, webhookId: hook });
  });

  it('cancels the deliveries under way when the webhook is deleted; finished ones keep their state', async () => {
    await http().delete(`/v2/alerts/webhook/${hook}`).set(as(tokenA)).expect(200);
    const rows = await ds.getRepository(WebhookDeliveryEntity).find({ where: { webhookId: hook } });
    const byId = new Map(rows.map((r) => [r.id, r.status]));
    expect(byId.get(deliveries[0])).toBe('cancelled');
    expect(byId.get(deliveries[1])).toBe('delivered');
    expect(rows.filter((r) => r.status === 'pending' || r.status === 'awaiting_retry')).toEqual([]);
  });

  it('requires webhooks.write: no token 401, messages.read only 403', async () => {
    expectError(await http().get(`/v2/alerts/webhook/${hook}/deliveries`), 401, 'invalid_token');
    const readOnly = await issuer.mint({ scopes: [READ], tenantId: tenantA, sub: partner });
    expectError(await http().get(`/v2/alerts/webhook/${hook}/deliveries`).set(as(readOnly)), 403, 'insufficient_scope');
    expectError(await http().post(`/v2/alerts/webhook/${hook}/test`).set(as(readOnly)), 403, 'insufficient_scope');
  });
});
