import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { loadConfig } from '@edu/config';
import { ScopeCatalog, type ScopeKey } from '@edu/domain';
import {
  baseTestEnv,
  concretePath,
  createTestApp,
  createTestDatabase,
  expectError,
  jsonAtShapeLimits,
  jsonShapeAttacks,
  testRedis,
  TestIssuer,
  World,
  writeRoutes,
  type RouteEntry,
  type TestDatabase,
} from '@edu/testing';
import { alertsHttpOptions } from '../src/alerts-http';
import { AlertsModule } from '../src/alerts.module';
import { AlertsEnv } from '../src/config/alerts.env';

const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
});

/** Row counts of every table, to prove a refused body wrote nothing. */
async function rowCounts(ds: DataSource): Promise<Record<string, number>> {
  const tables: { name: string }[] = await ds.query(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
  );
  const out: Record<string, number> = {};
  for (const { name } of tables) out[name] = Number((await ds.query(`SELECT count(*) AS n FROM "${name}"`))[0].n);
  return out;
}

/**
 * Every write route of the alerts service (webhooks and whatever is added later) against bodies
 * nested too deep or too wide: 400 naming the limit, never a 500, nothing written.
 */
describe('alerts: deeply nested and very wide JSON bodies', () => {
  let db: TestDatabase;
  let issuer: TestIssuer;
  let app: NestExpressApplication;
  let ds: DataSource;
  let tenantId: string;
  let appId: string;
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
      }),
    );
    app = await createTestApp(AlertsModule.forRoot(env), alertsHttpOptions(env));
    ds = app.get(DataSource);
    const world = new World(ds);
    const dev = await world.developer();
    appId = (await world.app({ type: 'developer', id: dev.id }, 'Junk App')).app.id;
    tenantId = (await world.tenant()).id;
  });

  afterAll(async () => {
    await app?.close();
    await issuer?.stop();
    await db?.drop();
  });

  /**
   * A token holding exactly the route's scopes, so the body reaches validation (where it used to
   * fail): the operator's for operator routes, an app's tenant-context token otherwise.
   */
  const authFor = async (r: RouteEntry): Promise<Record<string, string>> => {
    if (r.access === 'public') return {};
    const keys = r.access.split(' ') as ScopeKey[];
    const token = keys.includes('platform.admin')
      ? await issuer.mint({ scopes: [catalog.uri('platform.admin')], sub: 'operator' })
      : await issuer.mint({ scopes: keys.map((k) => catalog.uri(k)), tenantId, sub: appId });
    return { Authorization: `Bearer ${token}` };
  };

  const send = async (r: RouteEntry, body: string) => {
    const method = r.method.toLowerCase() as 'post' | 'put' | 'patch' | 'delete';
    return request(app.getHttpServer())
      [method](concretePath(r.path))
      .set(await authFor(r))
      .set('Content-Type', 'application/json')
      .send(body);
  };

  it('has the write routes the sweep is about', () => {
    const routes = writeRoutes(app).map((r) => `${r.method} ${r.path}`);
    expect(routes).toEqual(expect.arrayContaining(['POST /v2/alerts/webhook', 'PATCH /v2/alerts/webhook/:id']));
  });

  /** The attacks for a route, built on its own object limit (the batch submission allows more). */
  const attacksFor = (r: RouteEntry) =>
    jsonShapeAttacks(alertsHttpOptions(env).largeJsonRoutes?.find((l) => l.path === r.path)?.maxContainers);

  it.each(jsonShapeAttacks().map((a, i) => [a.name, i] as const))(
    'refuses %s on every write route with 400 naming the limit',
    async (_name, i) => {
      const before = await rowCounts(ds);
      const wrong: string[] = [];
      for (const route of writeRoutes(app)) {
        const attack = attacksFor(route)[i];
        const res = await send(route, attack.body);
        if (res.status !== 400 || res.body.error !== 'invalid_request' || !attack.names.test(res.body.message)) {
          wrong.push(`${route.method} ${route.path}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
          continue;
        }
        expectError(res, 400, 'invalid_request');
      }
      expect(wrong).toEqual([]);
      expect(await rowCounts(ds)).toEqual(before);
    },
  );

  it('answers a dense batch within the limits (49,500 bad items) with a bounded 400 listing 100 fields', async () => {
    const before = await rowCounts(ds);
    const group = `{"name":"g","badges":[],"alert_count":"1","alerts":[${new Array(9_900).fill('{}').join(',')}]}`;
    const body = `{"tenant_id":"${tenantId}","messages":[{"transaction_id":"t","recipient":{},"alerts":[${new Array(5).fill(group).join(',')}]}]}`;
    const res = await send({ method: 'POST', path: '/v2/alerts/messages', access: 'platform.admin' }, body);
    expectError(res, 400, 'validation_failed');
    expect(res.body.fields).toHaveLength(100);
    expect(res.body.message).toMatch(/and \d+ more fields$/);
    expect(res.text.length).toBeLessThan(50_000); // was 130 MB for twice as many items
    expect(await rowCounts(ds)).toEqual(before);
  });

  it('lets bodies at the limits through to validation (which judges them, never with a 500)', async () => {
    const before = await rowCounts(ds);
    for (const route of writeRoutes(app).filter((r) => r.method !== 'DELETE')) {
      for (const { name, body } of jsonAtShapeLimits()) {
        const res = await send(route, body);
        expect({
          route: `${route.method} ${route.path}`,
          name,
          status: res.status < 500,
          limit: /nested deeper|members/.test(res.body?.message ?? ''),
        }).toEqual({
          route: `${route.method} ${route.path}`,
          name,
          status: true,
          limit: false,
        });
      }
    }
    expect(await rowCounts(ds)).toEqual(before);
  });
});
