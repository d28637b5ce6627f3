import { createPublicKey, verify as verifySignature, type JsonWebKey } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { loadConfig } from '@edu/config';
import { ScopeCatalog } from '@edu/domain';
import { SigningKeyEntity } from '@edu/persistence';
import { baseTestEnv, createTestApp, createTestDatabase, World, type TestDatabase } from '@edu/testing';
import { IdentityEnv, DEMO_OPERATOR_SECRET } from '../src/config/identity.env';
import { IdentityModule } from '../src/identity.module';

const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
});
const ROSTER_CORE = catalog.uri('roster-core.readonly');
const DEMOGRAPHICS = catalog.uri('roster-demographics.readonly');
const TENANT_READ = catalog.uri('id.tenant-core.readonly');
const APPS_READ = catalog.uri('id.apps.readonly');
const APPS_WRITE = catalog.uri('id.apps.write');
const ADMIN = catalog.uri('platform.admin');

function decode(token: string): { header: Record<string, unknown>; payload: Record<string, unknown> } {
  const [h, p] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(h, 'base64url').toString()),
    payload: JSON.parse(Buffer.from(p, 'base64url').toString()),
  };
}

describe('OAuth token endpoint and JWKS', () => {
  let db: TestDatabase;
  let app: NestExpressApplication;
  let world: World;
  let tenantId: string;
  let otherTenantId: string;
  let partner: { clientId: string; clientSecret: string; appId: string; developerId: string };
  let deploymentCreds: { clientId: string; clientSecret: string; deploymentId: string };

  beforeAll(async () => {
    db = await createTestDatabase();
    const env = loadConfig(IdentityEnv, baseTestEnv({ DATABASE_URL: db.url, TOKEN_ISSUER: 'http://identity.test' }));
    app = await createTestApp(IdentityModule.forRoot(env));
    world = new World(app.get(DataSource));
    const tenant = await world.tenant({ region: 'SG' });
    const other = await world.tenant();
    tenantId = tenant.id;
    otherTenantId = other.id;
    const dev = await world.developer();
    const created = await world.app({ type: 'developer', id: dev.id });
    partner = {
      clientId: created.clientId,
      clientSecret: created.clientSecret,
      appId: created.app.id,
      developerId: dev.id,
    };
    const dep = await world.deploy(created.app.id, tenant.id, [ROSTER_CORE, TENANT_READ, ADMIN], {
      withCredentials: true,
    });
    deploymentCreds = { clientId: dep.clientId!, clientSecret: dep.clientSecret!, deploymentId: dep.deployment.id };
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const token = () => request(app.getHttpServer()).post('/oauth/token').type('form');
  const basic = (id: string, secret: string) =>
    `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

  it('issues a tenant-context token with HTTP Basic client authentication', async () => {
    const res = await token()
      .set('Authorization', basic(partner.clientId, partner.clientSecret))
      .send({ grant_type: 'client_credentials', tenant_id: tenantId })
      .expect(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 3600,
      scope: `${ROSTER_CORE} ${TENANT_READ}`,
    });
    const { header, payload } = decode(res.body.access_token);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'at+jwt', kid: expect.stringMatching(/^at-/) });
    expect(payload).toMatchObject({
      iss: 'http://identity.test',
      aud: 'https://api.edu.example',
      sub: partner.appId,
      client_id: partner.clientId,
      tenant_id: tenantId,
      deployment_id: deploymentCreds.deploymentId,
      region: 'SG',
      scope: `${ROSTER_CORE} ${TENANT_READ}`,
    });
    expect(payload).not.toHaveProperty('developer_id');
    expect(typeof payload.jti).toBe('string');
    expect((payload.exp as number) - (payload.iat as number)).toBe(3600);
  });

  it('accepts client_id and client_secret in the form body', async () => {
    const res = await token()
      .send({
        grant_type: 'client_credentials',
        client_id: partner.clientId,
        client_secret: partner.clientSecret,
        tenant_id: tenantId,
        scope: ROSTER_CORE,
      })
      .expect(200);
    expect(res.body.scope).toBe(ROSTER_CORE);
  });

  it('grants the intersection of requested and deployed scopes', async () => {
    const res = await token()
      .set('Authorization', basic(partner.clientId, partner.clientSecret))
      .send({
        grant_type: 'client_credentials',
        tenant_id: tenantId,
        scope: `${DEMOGRAPHICS} ${TENANT_READ} https://unknown.example/scope`,
      })
      .expect(200);
    expect(res.body.scope).toBe(TENANT_READ);
  });

  it('never grants platform.admin through a deployment, even when the deployment lists it', async () => {
    const res = await token()
      .set('Authorization', basic(partner.clientId, partner.clientSecret))
      .send({ grant_type: 'client_credentials', tenant_id: tenantId, scope: ADMIN });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_scope');
  });

  it('answers invalid_scope when nothing requested can be granted', async () => {
    const res = await token()
      .set('Authorization', basic(partner.clientId, partner.clientSecret))
      .send({ grant_type: 'client_credentials', tenant_id: tenantId, scope: DEMOGRAPHICS })
      .expect(400);
    expect(res.body).toMatchObject({ error: 'invalid_scope', error_description: expect.any(String) });
  });

  it('refuses a wrong secret with 401 invalid_client and a Basic challenge', async () => {
    const res = await token()
      .set('Authorization', basic(partner.clientId, 'wrong'))
      .send({ grant_type: 'client_credentials', tenant_id: tenantId })
      .expect(401);
    expect(res.body.error).toBe('invalid_client');
    expect(res.headers['www-authenticate']).toMatch(/^Basic/);
  });

  it('refuses an unknown client the same way as a wrong secret', async () => {
    const res = await token()
      .send({ grant_type: 'client_credentials', client_id: 'app_nope', client_secret: 'x' })
      .expect(401);
    expect(res.body.error).toBe('invalid_client');
    expect(res.body.error_description).toBe('Client authentication failed');
  });

  it('refuses a tenant where the app is not deployed', async () => {
    const res = await token()
      .set('Authorization', basic(partner.clientId, partner.clientSecret))
      .send({ grant_type: 'client_credentials', tenant_id: otherTenantId })
      .expect(400);
    expect(res.body.error).toBe('unauthorized_client');
  });

  it('issues developer-context tokens with only apps.* scopes when no tenant is named', async () => {
    const res = await token()
      .set('Authorization', basic(partner.clientId, partner.clientSecret))
      .send({ grant_type: 'client_credentials' })
      .expect(200);
    expect(res.body.scope).toBe(`${APPS_READ} ${APPS_WRITE}`);
    const { payload } = decode(res.body.access_token);
    expect(payload).toMatchObject({ developer_id: partner.developerId, sub: partner.appId });
    expect(payload).not.toHaveProperty('tenant_id');

    const refused = await token()
      .set('Authorization', basic(partner.clientId, partner.clientSecret))
      .send({ grant_type: 'client_credentials', scope: ROSTER_CORE })
      .expect(400);
    expect(refused.body.error).toBe('invalid_scope');
  });

  it('issues a tenant-context token to per-deployment credentials without tenant_id (stock OAuth clients)', async () => {
    const res = await token()
      .set('Authorization', basic(deploymentCreds.clientId, deploymentCreds.clientSecret))
      .send({ grant_type: 'client_credentials' })
      .expect(200);
    const { payload } = decode(res.body.access_token);
    expect(payload).toMatchObject({
      tenant_id: tenantId,
      sub: partner.appId,
      client_id: deploymentCreds.clientId,
      deployment_id: deploymentCreds.deploymentId,
    });
    const mismatch = await token()
      .set('Authorization', basic(deploymentCreds.clientId, deploymentCreds.clientSecret))
      .send({ grant_type: 'client_credentials', tenant_id: otherTenantId });
    expect(mismatch.status).toBe(400);
  });

  it('issues platform.admin to the operator credentials from configuration', async () => {
    const res = await token()
      .set('Authorization', basic('operator', DEMO_OPERATOR_SECRET))
      .send({ grant_type: 'client_credentials' })
      .expect(200);
    expect(res.body.scope).toBe(ADMIN);
    expect(decode(res.body.access_token).payload).toMatchObject({ sub: 'operator' });
    await token()
      .set('Authorization', basic('operator', 'not-the-secret'))
      .send({ grant_type: 'client_credentials' })
      .expect(401);
  });

  it.each([
    ['unsupported grant type', { grant_type: 'password' }, 400, 'unsupported_grant_type'],
    ['missing grant type', {}, 400, 'invalid_request'],
    ['malformed tenant_id', { grant_type: 'client_credentials', tenant_id: 'not-a-uuid' }, 400, 'invalid_request'],
  ])('answers RFC 6749 errors: %s', async (_name, form, status, error) => {
    const res = await token()
      .set('Authorization', basic(partner.clientId, partner.clientSecret))
      .send(form)
      .expect(status);
    expect(res.body.error).toBe(error);
  });

  it('requires a form-encoded body and some client authentication', async () => {
    const json = await request(app.getHttpServer())
      .post('/oauth/token')
      .send({ grant_type: 'client_credentials' })
      .expect(400);
    expect(json.body.error).toBe('invalid_request');
    const anonymous = await token().send({ grant_type: 'client_credentials' }).expect(401);
    expect(anonymous.body.error).toBe('invalid_client');
  });

  it('creates the signing keys at boot, before anyone asks for the JWKS (the dispatcher never creates the webhook key)', async () => {
    const rows: { use: string }[] = await app
      .get(DataSource)
      .query(`SELECT use FROM signing_keys WHERE status = 'active' ORDER BY use`);
    // The SAML identity provider's key too: sign-in prepares it at boot (SignInWarmUp).
    expect(rows.map((r) => r.use)).toEqual(['access-token', 'oidc', 'saml', 'webhook']);
  });

  it('publishes a JWKS whose key verifies issued tokens with an independent verifier (node:crypto)', async () => {
    const issued = await token()
      .set('Authorization', basic(partner.clientId, partner.clientSecret))
      .send({ grant_type: 'client_credentials', tenant_id: tenantId })
      .expect(200);
    const jwks = await request(app.getHttpServer()).get('/.well-known/jwks.json').expect(200);
    expect(jwks.body.keys.length).toBeGreaterThanOrEqual(2); // access-token and webhook keys
    for (const key of jwks.body.keys) {
      expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig', kid: expect.any(String) });
      expect(key).not.toHaveProperty('d'); // never the private part
    }
    const [h, p, s] = issued.body.access_token.split('.');
    const { kid } = JSON.parse(Buffer.from(h, 'base64url').toString());
    const jwk = jwks.body.keys.find((k: { kid: string }) => k.kid === kid) as JsonWebKey;
    const publicKey = createPublicKey({ key: jwk, format: 'jwk' });
    const ok = verifySignature(
      'sha256',
      Buffer.from(`${h}.${p}`),
      { key: publicKey, dsaEncoding: 'ieee-p1363' },
      Buffer.from(s, 'base64url'),
    );
    expect(ok).toBe(true);
  });

  it('stores private keys encrypted and client secrets hashed', async () => {
    const ds = app.get(DataSource);
    const keys = await ds.getRepository(SigningKeyEntity).find();
    for (const k of keys) expect(k.privateJwkEncrypted).toMatch(/^v1\./);
    const rows: { client_secret_hash: string }[] = await ds.query('SELECT client_secret_hash FROM apps');
    for (const r of rows) {
      expect(r.client_secret_hash).toMatch(/^sha256\$/);
      expect(r.client_secret_hash).not.toContain(partner.clientSecret);
    }
  });
});
