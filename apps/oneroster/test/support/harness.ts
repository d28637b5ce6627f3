import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { loadConfig } from '@edu/config';
import { DEFAULT_ONEROSTER_SCOPE_BASE } from '@edu/domain';
import type { DeploymentSettings } from '@edu/persistence';
import { baseTestEnv, createTestApp, createTestDatabase, TestIssuer, World, type TestDatabase } from '@edu/testing';
import { ImsxErrorFilter } from '../../src/common/imsx-error.filter';
import { OnerosterEnv } from '../../src/oneroster.env';
import { OnerosterModule } from '../../src/oneroster.module';

export const PREFIX = '/ims/oneroster/v1p1';
/** PUBLIC_BASE_URL of the app under test: hrefs and links are built on it. */
export const PUBLIC_BASE = 'https://roster.test';
export const HREF_ROOT = `${PUBLIC_BASE}${PREFIX}`;
export const SCOPE = {
  core: `${DEFAULT_ONEROSTER_SCOPE_BASE}/roster-core.readonly`,
  roster: `${DEFAULT_ONEROSTER_SCOPE_BASE}/roster.readonly`,
  demographics: `${DEFAULT_ONEROSTER_SCOPE_BASE}/roster-demographics.readonly`,
  gradebook: `${DEFAULT_ONEROSTER_SCOPE_BASE}/gradebook.readonly`,
  gradebookPut: `${DEFAULT_ONEROSTER_SCOPE_BASE}/gradebook.createput`,
  gradebookDelete: `${DEFAULT_ONEROSTER_SCOPE_BASE}/gradebook.delete`,
  resources: `${DEFAULT_ONEROSTER_SCOPE_BASE}/resource.readonly`,
} as const;

export interface TenantSetup {
  tenantId: string;
  deploymentId: string;
  /** The deployed app (the `sub` of its tokens). */
  appId: string;
}

/** The real OneRoster app over HTTP with its own database and a JWKS-serving token issuer. */
export class RosterHarness {
  db!: TestDatabase;
  issuer!: TestIssuer;
  app!: NestExpressApplication;
  world!: World;
  ds!: DataSource;

  /**
   * @param env extra configuration, or a function of the fresh database returning it (to start
   *   something on the database, e.g. the identity service, before the app boots)
   */
  async start(
    env: Record<string, string> | ((db: TestDatabase) => Promise<Record<string, string>>) = {},
  ): Promise<this> {
    this.db = await createTestDatabase();
    this.issuer = await new TestIssuer().start();
    this.app = await this.boot(typeof env === 'function' ? await env(this.db) : env);
    this.ds = this.app.get(DataSource);
    this.world = new World(this.ds);
    return this;
  }

  /** Another instance of the app on the same database (e.g. a regional host). */
  async boot(env: Record<string, string> = {}): Promise<NestExpressApplication> {
    const config = loadConfig(
      OnerosterEnv,
      baseTestEnv({
        DATABASE_URL: this.db.url,
        JWKS_URL: this.issuer.jwksUrl,
        TOKEN_ISSUER: this.issuer.issuer,
        ONEROSTER_DATA_VERSION_TTL_MS: '0',
        ONEROSTER_TENANT_CACHE_TTL_MS: '0',
        PUBLIC_BASE_URL: PUBLIC_BASE,
        ...env,
      }),
    );
    return createTestApp(OnerosterModule.forRoot(config), { errorFilter: new ImsxErrorFilter() });
  }

  async stop(): Promise<void> {
    await this.app?.close();
    await this.issuer?.stop();
    await this.db?.drop();
  }

  /** A tenant with an app deployed at it (with the given output settings). */
  async tenant(
    o: {
      rootOrg?: string;
      licences?: Array<'data-operations' | 'advanced'>;
      region?: 'AU-NSW' | 'SG';
      settings?: DeploymentSettings;
    } = {},
  ): Promise<TenantSetup> {
    const tenant = await this.world.tenant({
      licences: o.licences ?? ['data-operations'],
      region: o.region,
      rootOrg: o.rootOrg,
    });
    const { app } = await this.world.app({ type: 'tenant', id: tenant.id });
    const { deployment } = await this.world.deploy(app.id, tenant.id, [SCOPE.core, SCOPE.roster, SCOPE.demographics]);
    if (o.settings)
      await this.ds.query('UPDATE tenant_app_deployments SET settings = $2 WHERE id = $1', [
        deployment.id,
        JSON.stringify(o.settings),
      ]);
    return { tenantId: tenant.id, deploymentId: deployment.id, appId: app.id };
  }

  /** Another app deployed at the same tenant. */
  async otherApp(t: TenantSetup, settings?: DeploymentSettings): Promise<TenantSetup> {
    const { app } = await this.world.app({ type: 'tenant', id: t.tenantId }, 'Second App');
    const { deployment } = await this.world.deploy(app.id, t.tenantId, Object.values(SCOPE));
    if (settings)
      await this.ds.query('UPDATE tenant_app_deployments SET settings = $2 WHERE id = $1', [
        deployment.id,
        JSON.stringify(settings),
      ]);
    return { tenantId: t.tenantId, deploymentId: deployment.id, appId: app.id };
  }

  /** A token of the tenant's app (`sub` = its app id) with these scopes. */
  token(t: TenantSetup, scopes: string[] = [SCOPE.roster], extra: { region?: string } = {}): Promise<string> {
    return this.issuer.mint({ scopes, tenantId: t.tenantId, deploymentId: t.deploymentId, sub: t.appId, ...extra });
  }

  put(path: string, body: unknown, token?: string): request.Test {
    const r = request(this.app.getHttpServer())
      .put(`${PREFIX}/${path}`)
      .send(body as object);
    return token ? r.set('Authorization', `Bearer ${token}`) : r;
  }

  delete(path: string, token?: string): request.Test {
    const r = request(this.app.getHttpServer()).delete(`${PREFIX}/${path}`);
    return token ? r.set('Authorization', `Bearer ${token}`) : r;
  }

  get(path: string, token?: string, app: NestExpressApplication = this.app): request.Test {
    const r = request(app.getHttpServer()).get(path.startsWith('/') ? path : `${PREFIX}/${path}`);
    return token ? r.set('Authorization', `Bearer ${token}`) : r;
  }
}
