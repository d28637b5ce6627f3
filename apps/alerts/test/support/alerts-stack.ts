import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { loadConfig } from '@edu/config';
import { ScopeCatalog } from '@edu/domain';
import {
  baseTestEnv,
  createTestApp,
  createTestDatabase,
  TestIssuer,
  testRedis,
  World,
  type TestDatabase,
} from '@edu/testing';
import { alertsHttpOptions } from '../../src/alerts-http';
import { AlertsModule } from '../../src/alerts.module';
import { AlertsEnv } from '../../src/config/alerts.env';

export const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
});
export const SCOPES = {
  admin: catalog.uri('platform.admin'),
  read: catalog.uri('alerts.messages.read'),
  hooks: catalog.uri('alerts.webhooks.write'),
  tenantAdmin: catalog.uri('id.tenant-core.write'),
};
export const UNKNOWN_ID = '6f1c1f0e-4a4b-4c1e-9b7a-3d2f1e0c9b8a';

/**
 * The alerts API over a fresh database (no dispatcher): two partner apps deployed at two tenants,
 * and tokens for each, for the specs of webhook controls, retention and the portal.
 */
export class AlertsStack {
  db!: TestDatabase;
  issuer!: TestIssuer;
  app!: NestExpressApplication;
  ds!: DataSource;
  world!: World;
  env!: AlertsEnv;
  partner = '';
  other = '';
  tenantA = '';
  tenantB = '';

  async start(env: Record<string, string> = {}): Promise<this> {
    this.db = await createTestDatabase();
    this.issuer = await new TestIssuer().start();
    const redis = testRedis();
    this.env = loadConfig(
      AlertsEnv,
      baseTestEnv({
        DATABASE_URL: this.db.url,
        REDIS_URL: redis.url,
        QUEUE_PREFIX: redis.prefix,
        JWKS_URL: this.issuer.jwksUrl,
        TOKEN_ISSUER: this.issuer.issuer,
        WEBHOOK_TEST_WAIT_MS: '200',
        ...env,
      }),
    );
    this.app = await createTestApp(AlertsModule.forRoot(this.env), alertsHttpOptions(this.env));
    this.ds = this.app.get(DataSource);
    this.world = new World(this.ds);
    const dev = await this.world.developer();
    this.partner = (await this.world.app({ type: 'developer', id: dev.id }, 'Wellbeing')).app.id;
    this.other = (await this.world.app({ type: 'developer', id: dev.id }, 'Other')).app.id;
    this.tenantA = (await this.world.tenant()).id;
    this.tenantB = (await this.world.tenant()).id;
    for (const t of [this.tenantA, this.tenantB]) await this.world.deploy(this.partner, t, [SCOPES.read, SCOPES.hooks]);
    await this.world.deploy(this.other, this.tenantA, [SCOPES.hooks]);
    return this;
  }

  async stop(): Promise<void> {
    await this.app?.close();
    await this.issuer?.stop();
    await this.db?.drop();
  }

  http() {
    return request(this.app.getHttpServer());
  }

  /** A tenant-context token of `app` (default: the partner) at `tenant` (default: tenant A). */
  token(o: { scopes?: string[]; app?: string; tenant?: string } = {}): Promise<string> {
    return this.issuer.mint({
      scopes: o.scopes ?? [SCOPES.hooks],
      tenantId: o.tenant ?? this.tenantA,
      sub: o.app ?? this.partner,
    });
  }

  operatorToken(): Promise<string> {
    return this.issuer.mint({ scopes: [SCOPES.admin], sub: 'operator' });
  }

  /** Registers a webhook through the API; returns its id and its secret. */
  async webhook(token: string, endpoint = 'https://hooks.partner.example/a'): Promise<{ id: string; secret: string }> {
    const res = await this.http()
      .post('/v2/alerts/webhook')
      .set('Authorization', `Bearer ${token}`)
      .send({ endpoint, type: 'notification-only' })
      .expect(200);
    return { id: res.body.webhook_id, secret: res.body.secret };
  }
}
