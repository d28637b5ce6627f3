import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { loadConfig } from '@edu/config';
import { ScopeCatalog, type ScopeKey } from '@edu/domain';
import { configureHttpApp } from '@edu/http';
import { baseTestEnv, createTestDatabase, World, type TestDatabase } from '@edu/testing';
import { DEMO_OPERATOR_SECRET, IdentityEnv } from '../../src/config/identity.env';
import { IdentityModule } from '../../src/identity.module';
import { setupOpenApi } from '../../src/openapi';

export const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
});
export const uri = (key: ScopeKey) => catalog.uri(key);

/**
 * The identity app over real HTTP on its own cloned database, configured like main.ts (including
 * the OpenAPI routes), with tokens minted by its real /oauth/token endpoint.
 */
export class IdentityHarness {
  private constructor(
    readonly app: NestExpressApplication,
    readonly db: TestDatabase,
    readonly env: IdentityEnv,
  ) {}

  readonly world = () => new World(this.ds);

  get ds(): DataSource {
    return this.app.get(DataSource);
  }

  static async start(): Promise<IdentityHarness> {
    const db = await createTestDatabase();
    const env = loadConfig(IdentityEnv, baseTestEnv({ DATABASE_URL: db.url, TOKEN_ISSUER: 'http://identity.test' }));
    const ref = await Test.createTestingModule({ imports: [IdentityModule.forRoot(env)] }).compile();
    const app = ref.createNestApplication<NestExpressApplication>({ bodyParser: false, bufferLogs: true });
    configureHttpApp(app, { bodyLimitBytes: env.BODY_LIMIT_BYTES });
    setupOpenApi(app);
    await app.init();
    return new IdentityHarness(app, db, env);
  }

  async stop(): Promise<void> {
    await this.app?.close();
    await this.db?.drop();
  }

  http() {
    return request(this.app.getHttpServer());
  }

  private async token(form: Record<string, string>): Promise<string> {
    const res = await this.http()
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'client_credentials', ...form });
    if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.access_token as string;
  }

  /** A tenant-context token: a developer app deployed at the tenant with exactly these scopes. */
  async tenantToken(tenantId: string, keys: ScopeKey[]): Promise<string> {
    const world = this.world();
    const dev = await world.developer();
    const created = await world.app({ type: 'developer', id: dev.id }, 'Token App');
    await world.deploy(created.app.id, tenantId, keys.map(uri));
    return this.token({ client_id: created.clientId, client_secret: created.clientSecret, tenant_id: tenantId });
  }

  /** A developer-context token from one of the developer's apps. */
  async developerToken(developerId: string, keys: ScopeKey[] = ['id.apps.readonly', 'id.apps.write']): Promise<string> {
    const created = await this.world().app({ type: 'developer', id: developerId }, 'Developer Console');
    return this.token({
      client_id: created.clientId,
      client_secret: created.clientSecret,
      scope: keys.map(uri).join(' '),
    });
  }

  operatorToken(): Promise<string> {
    return this.token({ client_id: this.env.OPERATOR_CLIENT_ID, client_secret: DEMO_OPERATOR_SECRET });
  }

  /** Row counts and contents of every identity table, to prove a refused write changed nothing. */
  async snapshot(): Promise<Record<string, unknown[]>> {
    const tables = [
      'tenants',
      'developers',
      'apps',
      'tenant_app_deployments',
      'identity_providers',
      'constituencies',
      'users',
      'tenant_users',
      'vanity_domains',
    ];
    const out: Record<string, unknown[]> = {};
    for (const t of tables) out[t] = await this.ds.query(`SELECT * FROM "${t}" ORDER BY 1, 2`);
    return out;
  }
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
