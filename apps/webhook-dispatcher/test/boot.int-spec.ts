import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { ConfigValidationError, loadConfig } from '@edu/config';
import {
  baseTestEnv,
  createTestApp,
  createTestDatabase,
  routeInventory,
  testRedis,
  type TestDatabase,
} from '@edu/testing';
import { DispatcherEnv } from '../src/config/dispatcher.env';
import { DispatcherModule } from '../src/dispatcher.module';

describe('webhook-dispatcher boot', () => {
  let db: TestDatabase;
  let app: NestExpressApplication;

  beforeAll(async () => {
    db = await createTestDatabase();
    const env = loadConfig(
      DispatcherEnv,
      baseTestEnv({ DATABASE_URL: db.url, REDIS_URL: process.env.REDIS_URL, QUEUE_PREFIX: testRedis().prefix }),
    );
    app = await createTestApp(DispatcherModule.forRoot(env));
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('defaults the delivery schedule to the spec (30 s timeout, 5 s doubling, 10 retries)', () => {
    const env = loadConfig(DispatcherEnv, baseTestEnv({ DATABASE_URL: db.url, REDIS_URL: 'redis://localhost:6379' }));
    expect(env).toMatchObject({
      PORT: 3003,
      WEBHOOK_TIMEOUT_MS: 30_000,
      WEBHOOK_RETRY_BASE_MS: 5_000,
      WEBHOOK_MAX_RETRIES: 10,
      WEBHOOK_ALLOWED_PORTS: '443,80,8443,8080',
    });
  });

  it('refuses to boot on bad configuration, naming each variable', () => {
    const load = () =>
      loadConfig(
        DispatcherEnv,
        baseTestEnv({ DATABASE_URL: db.url, REDIS_URL: 'http://not-redis', WEBHOOK_TIMEOUT_MS: 'soon' }),
      );
    expect(load).toThrow(ConfigValidationError);
    for (const name of ['REDIS_URL', 'WEBHOOK_TIMEOUT_MS']) expect(load).toThrow(name);
  });

  it('refuses the development conveniences in production, naming each', () => {
    const load = () =>
      loadConfig(
        DispatcherEnv,
        baseTestEnv({
          NODE_ENV: 'production',
          DATABASE_URL: db.url,
          REDIS_URL: 'redis://cache:6379',
          KEY_ENCRYPTION_KEY: 'k'.repeat(40),
          ALERTS_PUBLIC_BASE_URL: 'https://api.edu.example',
          WEBHOOK_ALLOW_HTTP: 'true',
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
          WEBHOOK_ALLOWED_PORTS: '*',
        }),
      );
    for (const name of ['WEBHOOK_ALLOW_HTTP', 'WEBHOOK_ALLOW_PRIVATE_TARGETS', 'WEBHOOK_ALLOWED_PORTS'])
      expect(load).toThrow(name);
  });

  it('needs the demo key replaced and the public alerts URL set in production', () => {
    const load = () =>
      loadConfig(
        DispatcherEnv,
        baseTestEnv({ NODE_ENV: 'production', DATABASE_URL: db.url, REDIS_URL: 'redis://cache:6379' }),
      );
    for (const name of ['KEY_ENCRYPTION_KEY', 'ALERTS_PUBLIC_BASE_URL']) expect(load).toThrow(name);
  });

  it('serves health (PostgreSQL and Redis) and metrics on its ops port', async () => {
    await request(app.getHttpServer()).get('/health/live').expect(200);
    const ready = await request(app.getHttpServer()).get('/health/ready').expect(200);
    expect(ready.body.info).toEqual({ postgres: { status: 'up' }, redis: { status: 'up' } });
    const metrics = await request(app.getHttpServer()).get('/metrics').expect(200);
    expect(metrics.text).toContain('process_cpu_seconds_total');
  });

  it('exposes only public operations routes', () => {
    expect(routeInventory(app).map((r) => `${r.method} ${r.path} ${r.access}`)).toEqual([
      'GET /health/live public',
      'GET /health/ready public',
      'GET /metrics public',
    ]);
  });

  it('has no other routes', async () => {
    const res = await request(app.getHttpServer()).get('/v2/alerts/webhook');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'not_found', message: 'No such route' });
  });
});
