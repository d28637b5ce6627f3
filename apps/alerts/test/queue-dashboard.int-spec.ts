import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { ConfigValidationError, loadConfig } from '@edu/config';
import { DeliveryQueue } from '@edu/queue';
import {
  baseTestEnv,
  createTestApp,
  createTestDatabase,
  routeInventory,
  TestIssuer,
  testRedis,
  type TestDatabase,
} from '@edu/testing';
import { alertsHttpOptions } from '../src/alerts-http';
import { AlertsModule, QUEUE_DASHBOARD_PATH } from '../src/alerts.module';
import { AlertsEnv, DEMO_OPERATOR_SECRET, queueDashboardCredentials } from '../src/config/alerts.env';

const SECRET = 'dashboard-test-operator-secret';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/**
 * The delivery queue's dashboard (Bull Board) on the alerts app. It is Express middleware outside
 * the Nest controllers, so the deny-by-default token guard never sees it: its own HTTP Basic gate
 * with the operator credentials is what keeps it closed, and that is tested here on every kind
 * of path under it (page, static asset, JSON API).
 */
describe('alerts: queue dashboard at /admin/queues', () => {
  let db: TestDatabase;
  let issuer: TestIssuer;
  let app: NestExpressApplication;
  let env: AlertsEnv;

  beforeAll(async () => {
    db = await createTestDatabase();
    issuer = await new TestIssuer().start();
    const redis = testRedis();
    env = loadConfig(
      AlertsEnv,
      baseTestEnv({
        DATABASE_URL: db.url,
        REDIS_URL: redis.url,
        QUEUE_PREFIX: redis.prefix,
        JWKS_URL: issuer.jwksUrl,
        TOKEN_ISSUER: issuer.issuer,
        OPERATOR_CLIENT_SECRET: SECRET,
      }),
    );
    app = await createTestApp(AlertsModule.forRoot(env), alertsHttpOptions(env));
  });

  afterAll(async () => {
    await app?.close();
    await issuer?.stop();
    await db?.drop();
  });

  const http = () => request(app.getHttpServer());
  const RIGHT = basic('operator', SECRET);

  it('refuses every path under it without the operator credentials: 401 with a Basic challenge', async () => {
    const page = await http().get('/admin/queues').redirects(0);
    const js = (await http().get('/admin/queues').set('Authorization', RIGHT)).text.match(
      /src="(static\/js\/main\.[^"]+\.js)"/,
    )?.[1];
    expect(js).toBeDefined();
    const paths = [
      QUEUE_DASHBOARD_PATH,
      `${QUEUE_DASHBOARD_PATH}/`,
      `${QUEUE_DASHBOARD_PATH}/api/queues`,
      `${QUEUE_DASHBOARD_PATH}/${js}`,
      `${QUEUE_DASHBOARD_PATH}/queue/webhook-deliveries`,
    ];
    const wrong: Record<string, string | undefined> = {
      none: undefined,
      'wrong password': basic('operator', `${SECRET}x`),
      'wrong user': basic('operat0r', SECRET),
      'empty password': basic('operator', ''),
      'demo secret': basic('operator', DEMO_OPERATOR_SECRET),
      'a bearer token': `Bearer ${await issuer.mint({ scopes: ['https://api.edu.example/scope/platform.admin'], sub: 'operator' })}`,
      'no colon': `Basic ${Buffer.from(`operator${SECRET}`).toString('base64')}`,
      garbage: 'Basic %%%',
    };
    expect(page.status).toBe(401);
    for (const path of paths) {
      for (const [name, header] of Object.entries(wrong)) {
        const req = http().get(path);
        const res = await (header ? req.set('Authorization', header) : req);
        expect({ path, name, status: res.status }).toEqual({ path, name, status: 401 });
        expect(res.headers['www-authenticate']).toBe('Basic realm="Queue dashboard", charset="UTF-8"');
        expect(res.body).toEqual({ error: 'unauthorized', message: expect.stringContaining('operator credentials') });
        expect(res.text).not.toContain('webhook-deliveries');
      }
    }
  });

  it('serves the board, its assets (from the npm package) and its API with the operator credentials', async () => {
    const page = await http().get(`${QUEUE_DASHBOARD_PATH}/`).set('Authorization', RIGHT).expect(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.text).toContain(`<base href="${QUEUE_DASHBOARD_PATH}/"`);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    const assets = [...page.text.matchAll(/(?:src|href)="(static\/[^"]+)"/g)].map((m) => m[1] as string);
    expect(assets.filter((a) => a.endsWith('.js')).length).toBeGreaterThanOrEqual(1);
    expect(assets.some((a) => a.endsWith('.css'))).toBe(true);
    for (const asset of assets) {
      const res = await http().get(`${QUEUE_DASHBOARD_PATH}/${asset}`).set('Authorization', RIGHT);
      expect({ asset, status: res.status }).toEqual({ asset, status: 200 });
    }
  });

  it('shows the delivery queue with its counts', async () => {
    const queue = app.get(DeliveryQueue);
    await queue.enqueue(
      Array.from({ length: 3 }, () => ({ kind: 'first-attempt' as const, deliveryId: randomUUID() })),
    );
    await queue.enqueue(
      Array.from({ length: 2 }, () => ({ kind: 'first-attempt' as const, deliveryId: randomUUID(), delayMs: 600_000 })),
    );
    const res = await http().get(`${QUEUE_DASHBOARD_PATH}/api/queues`).set('Authorization', RIGHT).expect(200);
    expect(res.body.queues).toHaveLength(1);
    expect(res.body.queues[0]).toMatchObject({
      name: 'webhook-deliveries',
      readOnlyMode: true,
      counts: { waiting: 3, delayed: 2, active: 0, failed: 0 },
    });
  });

  it('is read-only: pausing, emptying, promoting and adding jobs are refused (the delivery log in PostgreSQL is the record)', async () => {
    const q = `${QUEUE_DASHBOARD_PATH}/api/queues/webhook-deliveries`;
    for (const [method, path] of [
      ['put', `${q}/pause`],
      ['put', `${q}/empty`],
      ['put', `${q}/promote`],
      ['put', `${q}/clean/delayed`],
      ['post', `${q}/add`],
    ] as const) {
      const res = await http()[method](path).set('Authorization', RIGHT).send({ name: 'deliver', data: {} });
      expect({ method, path, status: res.status }).toEqual({ method, path, status: 405 });
    }
    const after = await http().get(`${QUEUE_DASHBOARD_PATH}/api/queues`).set('Authorization', RIGHT).expect(200);
    expect(after.body.queues[0]).toMatchObject({ isPaused: false, counts: { waiting: 3, delayed: 2 } });
  });

  it('is not a Nest route: the reviewed route inventory does not list it', () => {
    expect(routeInventory(app).filter((r) => r.path.startsWith('/admin'))).toEqual([]);
  });

  describe('configuration', () => {
    // A key of its own: production refuses the demo one (it seals webhook secrets).
    const base = {
      DATABASE_URL: 'postgres://x@localhost/x',
      REDIS_URL: 'redis://localhost:6379',
      KEY_ENCRYPTION_KEY: 'a-key-encryption-key-of-this-installation',
      PUBLIC_BASE_URL: 'https://api.edu.example',
    };

    it('uses the identity demo secret outside production when none is set, and is off in production without one', () => {
      expect(queueDashboardCredentials(loadConfig(AlertsEnv, baseTestEnv(base)))).toEqual({
        username: 'operator',
        password: DEMO_OPERATOR_SECRET,
      });
      expect(
        queueDashboardCredentials(loadConfig(AlertsEnv, baseTestEnv({ ...base, NODE_ENV: 'production' }))),
      ).toBeUndefined();
      const set = loadConfig(
        AlertsEnv,
        baseTestEnv({ ...base, NODE_ENV: 'production', OPERATOR_CLIENT_ID: 'ops', OPERATOR_CLIENT_SECRET: SECRET }),
      );
      expect(queueDashboardCredentials(set)).toEqual({ username: 'ops', password: SECRET });
    });

    it('refuses the demo secret in production and a short one anywhere', () => {
      expect(() =>
        loadConfig(
          AlertsEnv,
          baseTestEnv({ ...base, NODE_ENV: 'production', OPERATOR_CLIENT_SECRET: DEMO_OPERATOR_SECRET }),
        ),
      ).toThrow(/OPERATOR_CLIENT_SECRET must be changed from its demo value/);
      expect(() => loadConfig(AlertsEnv, baseTestEnv({ ...base, OPERATOR_CLIENT_SECRET: 'short' }))).toThrow(
        ConfigValidationError,
      );
    });

    it('answers 404 when off', async () => {
      const redis = testRedis();
      const offEnv = loadConfig(
        AlertsEnv,
        baseTestEnv({
          DATABASE_URL: db.url,
          REDIS_URL: redis.url,
          QUEUE_PREFIX: redis.prefix,
          JWKS_URL: issuer.jwksUrl,
          NODE_ENV: 'production',
          KEY_ENCRYPTION_KEY: base.KEY_ENCRYPTION_KEY,
          PUBLIC_BASE_URL: base.PUBLIC_BASE_URL,
        }),
      );
      expect(queueDashboardCredentials(offEnv)).toBeUndefined();
      const off = await createTestApp(AlertsModule.forRoot(offEnv), alertsHttpOptions(offEnv));
      try {
        for (const header of [undefined, basic('operator', DEMO_OPERATOR_SECRET)]) {
          const req = request(off.getHttpServer()).get(QUEUE_DASHBOARD_PATH);
          const res = await (header ? req.set('Authorization', header) : req);
          expect(res.status).toBe(404);
        }
      } finally {
        await off.close();
      }
    });
  });
});
