import { randomInt, randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import type { Response } from 'supertest';
import type { TenantEntity } from '@edu/persistence';
import { expectError } from '@edu/testing';
import { bearer, IdentityHarness, uri } from './support/harness';
import { APP, DEPLOYMENT, DEVELOPER, expectArrayOf, expectShape } from './support/schemas';

const oauthApp = (name = 'Class Roster Sync') => ({
  name,
  auth_type: 'oauth2',
  oauth2: { redirect_uris: ['https://sync.partner.example/callback'] },
});
const newTenant = () => ({
  name: 'Seaview Primary',
  customer_id: randomInt(1, 2_000_000_000),
  govt_id: 'NSW-9001',
  region: 'AU-NSW',
  licences: ['data-operations'],
  root_org_sourced_id: 'org-seaview',
});
const newDeveloper = () => ({
  name: 'Brightpath Learning',
  email: `partners-${randomUUID().slice(0, 8)}@brightpath.example`,
});

/**
 * The operator (platform.admin) onboards a school and a partner with HTTP calls alone, and every
 * new or widened route refuses what it should. Tenant- and developer-context rules stay as they were.
 */
describe('operator onboarding over the identity API (platform.admin)', () => {
  let h: IdentityHarness;
  let A: TenantEntity;
  let B: TenantEntity;
  let devId: string;
  const t: Record<string, string> = {};

  beforeAll(async () => {
    h = await IdentityHarness.start();
    const w = h.world();
    A = await w.tenant({ name: 'Alpha' });
    B = await w.tenant({ name: 'Beta' });
    devId = (await w.developer('Existing Dev')).id;
    t.aWrite = await h.tenantToken(A.id, ['id.tenant-core.write']);
    t.aRead = await h.tenantToken(A.id, ['id.tenant-core.readonly']);
    t.aRoster = await h.tenantToken(A.id, ['roster.readonly']);
    t.dev = await h.developerToken(devId, ['id.apps.write']);
    t.devRead = await h.developerToken(devId, ['id.apps.readonly']);
    t.op = await h.operatorToken();
  });

  afterAll(async () => {
    await h?.stop();
  });

  const call = (method: 'get' | 'post' | 'patch' | 'delete', path: string, token?: string, body?: unknown) => {
    let req = h.http()[method](path);
    if (token) req = req.set(bearer(token));
    return body === undefined ? req : req.send(body as object);
  };

  async function tokenFor(form: Record<string, string>): Promise<Response> {
    return h
      .http()
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'client_credentials', ...form });
  }

  /** 400 validation_failed naming `field`, and nothing in the database changed. */
  async function expectRefused(
    method: 'post' | 'patch',
    path: string,
    token: string,
    body: unknown,
    field: string,
  ): Promise<Response> {
    const before = await h.snapshot();
    const res = await call(method, path, token, body);
    expectError(res, 400, 'validation_failed');
    const fields = (res.body.fields as { field: string }[]).map((f) => f.field);
    if (!fields.includes(field)) throw new Error(`expected field "${field}" among ${JSON.stringify(res.body.fields)}`);
    expect(await h.snapshot()).toEqual(before);
    return res;
  }

  it('onboards a school end to end: tenant, developer, app, deployment with alerts scopes and settings, per-deployment credentials', async () => {
    const opToken = await tokenFor({
      client_id: h.env.OPERATOR_CLIENT_ID,
      client_secret: h.env.OPERATOR_CLIENT_SECRET,
    });
    expect(opToken.status).toBe(200);
    const op = opToken.body.access_token as string;

    const tenant = (await call('post', '/tenants', op, newTenant()).expect(201)).body;
    const developer = (await call('post', '/developers', op, newDeveloper()).expect(201)).body;
    expectShape(DEVELOPER, developer);

    const app = (
      await call('post', '/apps', op, { ...oauthApp(), owner: { type: 'developer', id: developer.id } }).expect(201)
    ).body;
    const { client_id: appClientId, client_secret: appSecret, ...appView } = app;
    expectShape(APP, appView);
    expect(appView.owner).toEqual({ type: 'developer', id: developer.id });
    expect(appClientId).toMatch(/^app_/);
    expect(appSecret).toEqual(expect.any(String));
    const stored = await h.ds.query('SELECT client_secret_hash FROM apps WHERE id = $1', [app.id]);
    expect(stored[0].client_secret_hash).not.toContain(appSecret);

    const scope = [uri('roster-core.readonly'), uri('alerts.messages.read'), uri('alerts.webhooks.write')];
    const deployment = (
      await call('post', `/tenants/${tenant.id}/apps`, op, {
        app_id: app.id,
        scope,
        settings: { oneroster_date_format: 'iso8601' },
      }).expect(201)
    ).body;
    expectShape(DEPLOYMENT, deployment);
    expect(deployment).toMatchObject({
      app_id: app.id,
      tenant_id: tenant.id,
      scope,
      settings: { oneroster_date_format: 'iso8601', oneroster_booleans: 'string' },
    });

    const creds = (await call('post', `/tenants/${tenant.id}/apps/${app.id}/secret`, op).expect(200)).body;
    expect(creds).toEqual({ client_id: expect.stringMatching(/^dep_/), client_secret: expect.any(String) });

    // the school's OneRoster key and secret give a tenant-context token without tenant_id (design §3)
    const partner = await tokenFor({ client_id: creds.client_id, client_secret: creds.client_secret });
    expect(partner.status).toBe(200);
    expect(partner.body.scope.split(' ')).toEqual(scope);
    expect(decodeJwt(partner.body.access_token)).toMatchObject({
      tenant_id: tenant.id,
      deployment_id: deployment.deployment_id,
      sub: app.id,
    });
    // so do the app's own credentials with tenant_id, and a developer-context token for its owner without
    const viaApp = await tokenFor({
      client_id: appClientId,
      client_secret: appSecret,
      tenant_id: tenant.id,
      scope: uri('alerts.webhooks.write'),
    });
    expect(viaApp.body.scope).toBe(uri('alerts.webhooks.write'));
    const devCtx = await tokenFor({ client_id: appClientId, client_secret: appSecret });
    expect(decodeJwt(devCtx.body.access_token)).toMatchObject({ developer_id: developer.id });

    // the operator reads back what it built
    expect((await call('get', `/developers/${developer.id}`, op).expect(200)).body).toEqual([developer]);
    expect((await call('get', `/apps/${app.id}`, op).expect(200)).body).toEqual([appView]);
    expect((await call('get', `/tenants/${tenant.id}/apps`, op).expect(200)).body).toEqual([deployment]);
  });

  it('rotating per-deployment credentials keeps the client id and retires the old secret', async () => {
    const appId = (await h.world().app({ type: 'developer', id: devId }, 'Rotated')).app.id;
    await call('post', `/tenants/${B.id}/apps`, t.op, { app_id: appId, scope: [uri('roster.readonly')] }).expect(201);
    const first = (await call('post', `/tenants/${B.id}/apps/${appId}/secret`, t.op).expect(200)).body;
    const second = (await call('post', `/tenants/${B.id}/apps/${appId}/secret`, t.op).expect(200)).body;
    expect(second.client_id).toBe(first.client_id);
    expect((await tokenFor({ client_id: first.client_id, client_secret: first.client_secret })).status).toBe(401);
    expect((await tokenFor({ client_id: second.client_id, client_secret: second.client_secret })).status).toBe(200);
  });

  describe('developers', () => {
    it('lists, reads and changes developers; e-mail addresses are unique and case-insensitive', async () => {
      const body = newDeveloper();
      const created = (
        await call('post', '/developers', t.op, { ...body, email: body.email.toUpperCase() }).expect(201)
      ).body;
      expect(created.email).toBe(body.email);
      expectError(await call('post', '/developers', t.op, { name: 'Copy', email: body.email }), 409, 'conflict');
      const all = (await call('get', '/developers', t.op).expect(200)).body;
      expectArrayOf(DEVELOPER, all);
      expect(all.map((d: { id: string }) => d.id)).toEqual(expect.arrayContaining([devId, created.id]));
      const renamed = (
        await call('patch', `/developers/${created.id.toUpperCase()}`, t.op, {
          name: 'Brightpath Learning Pty Ltd',
        }).expect(200)
      ).body;
      expect(renamed).toEqual({ ...created, name: 'Brightpath Learning Pty Ltd' });
      const existing = (await call('get', `/developers/${devId}`, t.op).expect(200)).body[0];
      expectError(
        await call('patch', `/developers/${created.id}`, t.op, { email: existing.email.toUpperCase() }),
        409,
        'conflict',
      );
      await call('patch', `/developers/${created.id}`, t.op, { email: created.email }).expect(200);
    });

    it.each([
      ['a missing name', { email: 'x@dev.example' }, 'name'],
      ['an e-mail that is not one', { name: 'X', email: 'not-an-email' }, 'email'],
      ['a server-assigned id', { name: 'X', email: 'x@dev.example', id: randomUUID() }, 'id'],
      ['a name that is not a string', { name: ['X'], email: 'x@dev.example' }, 'name'],
    ])('POST refuses %s', async (_name, body, field) => {
      await expectRefused('post', '/developers', t.op, body, field);
    });

    it('PATCH refuses null and unknown fields; unknown and malformed ids are 404', async () => {
      await expectRefused('patch', `/developers/${devId}`, t.op, { name: null }, 'name');
      await expectRefused('patch', `/developers/${devId}`, t.op, { apps: [] }, 'apps');
      for (const id of [randomUUID(), 'not-a-uuid', `${devId}x`]) {
        expectError(await call('get', `/developers/${id}`, t.op), 404, 'not_found');
        expectError(await call('patch', `/developers/${id}`, t.op, { name: 'X' }), 404, 'not_found');
      }
    });
  });

  describe('apps', () => {
    it('the operator creates a tenant-owned app and changes, rotates and deletes any app', async () => {
      const own = (
        await call('post', '/apps', t.op, {
          ...oauthApp('Beta Admin'),
          owner: { type: 'tenant', id: B.id.toUpperCase() },
        }).expect(201)
      ).body;
      expect(own.owner).toEqual({ type: 'tenant', id: B.id });
      // a tenant-owned app deploys only at its owner
      await expectRefused('post', `/tenants/${A.id}/apps`, t.op, { app_id: own.id, scope: [] }, 'app_id');
      await call('post', `/tenants/${B.id}/apps`, t.op, {
        app_id: own.id,
        scope: [uri('id.tenant-core.readonly')],
      }).expect(201);

      const theirs = (await call('post', '/apps', t.dev, oauthApp('Developer Made')).expect(201)).body;
      const changed = (await call('patch', `/apps/${theirs.id}`, t.op, { name: 'Renamed by operator' }).expect(200))
        .body;
      expect(changed).toMatchObject({
        id: theirs.id,
        name: 'Renamed by operator',
        owner: { type: 'developer', id: devId },
      });
      const rotated = (await call('post', `/apps/${theirs.id}/secret`, t.op).expect(200)).body;
      expect((await tokenFor({ client_id: theirs.client_id, client_secret: theirs.client_secret })).status).toBe(401);
      expect((await tokenFor({ client_id: rotated.client_id, client_secret: rotated.client_secret })).status).toBe(200);
      const all = (await call('get', '/apps', t.op).expect(200)).body;
      expectArrayOf(APP, all);
      expect(all.map((a: { id: string }) => a.id)).toEqual(expect.arrayContaining([own.id, theirs.id]));
      await call('delete', `/apps/${theirs.id}`, t.op).expect(204);
      expectError(await call('delete', `/apps/${theirs.id}`, t.op), 404, 'not_found');
    });

    it.each([
      ['no owner', () => oauthApp(), 'owner'],
      ['an owner of an unknown type', () => ({ ...oauthApp(), owner: { type: 'school', id: A.id } }), 'owner.type'],
      ['an owner id that is not a uuid', () => ({ ...oauthApp(), owner: { type: 'tenant', id: 'alpha' } }), 'owner.id'],
      ['an unknown tenant', () => ({ ...oauthApp(), owner: { type: 'tenant', id: randomUUID() } }), 'owner.id'],
      ['an unknown developer', () => ({ ...oauthApp(), owner: { type: 'developer', id: randomUUID() } }), 'owner.id'],
      ['a developer id named as a tenant', () => ({ ...oauthApp(), owner: { type: 'tenant', id: devId } }), 'owner.id'],
      [
        'an owner with extra keys',
        () => ({ ...oauthApp(), owner: { type: 'tenant', id: A.id, name: 'x' } }),
        'owner.name',
      ],
      ['a null owner', () => ({ ...oauthApp(), owner: null }), 'owner'],
      ['an owner as an array', () => ({ ...oauthApp(), owner: [{ type: 'tenant', id: A.id }] }), 'owner'],
      ['a missing auth_type', () => ({ name: 'X', owner: { type: 'tenant', id: A.id } }), 'auth_type'],
    ])('the operator\u2019s POST /apps refuses %s', async (_name, body, field) => {
      await expectRefused('post', '/apps', t.op, body(), field);
    });

    it('tenant and developer tokens still create only their own apps: an owner in the body is refused', async () => {
      await expectRefused('post', '/apps', t.aWrite, { ...oauthApp(), owner: { type: 'tenant', id: B.id } }, 'owner');
      await expectRefused('post', '/apps', t.dev, { ...oauthApp(), owner: { type: 'developer', id: devId } }, 'owner');
      const mine = (await call('post', '/apps', t.aWrite, oauthApp('Alpha Own')).expect(201)).body;
      expect(mine.owner).toEqual({ type: 'tenant', id: A.id });
    });

    it('unknown and malformed app ids are 404 for the operator too', async () => {
      for (const id of [randomUUID(), 'nope']) {
        expectError(await call('get', `/apps/${id}`, t.op), 404, 'not_found');
        expectError(await call('patch', `/apps/${id}`, t.op, { name: 'X' }), 404, 'not_found');
        expectError(await call('post', `/apps/${id}/secret`, t.op), 404, 'not_found');
        expectError(await call('delete', `/apps/${id}`, t.op), 404, 'not_found');
      }
    });
  });

  describe('deployments at any tenant', () => {
    let appId: string;
    beforeAll(async () => {
      appId = (await h.world().app({ type: 'developer', id: devId }, 'Wellbeing Pulse')).app.id;
    });

    it('the operator deploys with alerts scopes, changes them and removes the deployment; duplicates are 409', async () => {
      const path = `/tenants/${A.id}/apps`;
      const alerts = [uri('roster.readonly'), uri('alerts.messages.read')];
      await call('post', path, t.op, { app_id: appId, scope: alerts }).expect(201);
      expectError(await call('post', path, t.op, { app_id: appId, scope: [] }), 409, 'conflict');
      const changed = (
        await call('patch', `${path}/${appId}`, t.op, { scope: [...alerts, uri('alerts.webhooks.write')] }).expect(200)
      ).body;
      expect(changed.scope).toEqual([...alerts, uri('alerts.webhooks.write')]);
      // the tenant keeps or drops what the operator granted, never adds
      await call('patch', `${path}/${appId}`, t.aWrite, { scope: [uri('alerts.messages.read')] }).expect(200);
      await expectRefused(
        'patch',
        `${path}/${appId}`,
        t.aWrite,
        { scope: [uri('alerts.messages.read'), uri('alerts.webhooks.write')] },
        'scope',
      );
      await call('delete', `${path}/${appId}`, t.op).expect(204);
      expectError(await call('delete', `${path}/${appId}`, t.op), 404, 'not_found');
    });

    it.each([
      ['platform.admin', () => [uri('platform.admin')]],
      ['a developer-context scope', () => [uri('id.apps.write')]],
      ['an unknown scope URI', () => ['https://api.edu.example/scope/everything']],
      ['a near miss of a known URI', () => [`${uri('roster.readonly')}/`]],
    ])('the operator cannot grant %s', async (_name, scope) => {
      await expectRefused('post', `/tenants/${A.id}/apps`, t.op, { app_id: appId, scope: scope() }, 'scope');
    });

    it.each([
      [
        'an alerts scope at deployment',
        'post',
        () => `/tenants/${A.id}/apps`,
        () => ({ app_id: appId, scope: [uri('alerts.webhooks.write')] }),
      ],
      [
        'platform.admin at deployment',
        'post',
        () => `/tenants/${A.id}/apps`,
        () => ({ app_id: appId, scope: [uri('platform.admin')] }),
      ],
    ] as const)('a tenant token cannot grant %s', async (_name, method, path, body) => {
      const res = await expectRefused(method, path(), t.aWrite, body(), 'scope');
      expect(res.body.message).toMatch(/operator/);
    });

    it('a tenant token cannot add alerts scopes or platform.admin to an existing deployment', async () => {
      const path = `/tenants/${A.id}/apps/${appId}`;
      await call('post', `/tenants/${A.id}/apps`, t.aWrite, { app_id: appId, scope: [uri('roster.readonly')] }).expect(
        201,
      );
      for (const s of [uri('alerts.messages.read'), uri('alerts.webhooks.write'), uri('platform.admin')]) {
        await expectRefused('patch', path, t.aWrite, { scope: [uri('roster.readonly'), s] }, 'scope');
      }
      await call('delete', path, t.aWrite).expect(204);
    });

    it('unknown tenants and apps: 404 in the path, 400 on app_id in the body', async () => {
      for (const tenant of [randomUUID(), 'not-a-tenant']) {
        expectError(await call('get', `/tenants/${tenant}/apps`, t.op), 404, 'not_found');
        expectError(
          await call('post', `/tenants/${tenant}/apps`, t.op, { app_id: appId, scope: [] }),
          404,
          'not_found',
        );
        expectError(await call('post', `/tenants/${tenant}/apps/${appId}/secret`, t.op), 404, 'not_found');
      }
      await expectRefused('post', `/tenants/${A.id}/apps`, t.op, { app_id: randomUUID(), scope: [] }, 'app_id');
      for (const app of [randomUUID(), 'nope']) {
        expectError(await call('get', `/tenants/${A.id}/apps/${app}`, t.op), 404, 'not_found');
        expectError(await call('patch', `/tenants/${A.id}/apps/${app}`, t.op, { scope: [] }), 404, 'not_found');
        expectError(await call('post', `/tenants/${A.id}/apps/${app}/secret`, t.op), 404, 'not_found');
      }
    });
  });

  describe('who may call the new and widened routes', () => {
    const routes = (): [method: 'get' | 'post' | 'patch' | 'delete', path: string, body?: object][] => [
      ['get', '/developers'],
      ['get', `/developers/${devId}`],
      ['post', '/developers', newDeveloper()],
      ['patch', `/developers/${devId}`, { name: 'X' }],
      ['get', '/apps'],
      ['post', '/apps', { ...oauthApp(), owner: { type: 'tenant', id: B.id } }],
      ['get', `/apps/${randomUUID()}`],
      ['patch', `/apps/${randomUUID()}`, { name: 'X' }],
      ['delete', `/apps/${randomUUID()}`],
      ['post', `/apps/${randomUUID()}/secret`],
      ['get', `/tenants/${B.id}/apps`],
      ['post', `/tenants/${B.id}/apps`, { app_id: randomUUID(), scope: [] }],
      ['get', `/tenants/${B.id}/apps/${randomUUID()}`],
      ['patch', `/tenants/${B.id}/apps/${randomUUID()}`, { scope: [] }],
      ['delete', `/tenants/${B.id}/apps/${randomUUID()}`],
      ['post', `/tenants/${B.id}/apps/${randomUUID()}/secret`],
    ];

    it('no token and a bad token are 401 with WWW-Authenticate on every one', async () => {
      const forged = `${t.op.split('.').slice(0, 2).join('.')}.${Buffer.from('forged').toString('base64url')}`;
      for (const [method, path, body] of routes()) {
        expectError(await call(method, path, undefined, body), 401, 'invalid_token');
        expectError(await call(method, path, forged, body), 401, 'invalid_token');
        expectError(await call(method, path, 'not.a.jwt', body), 401, 'invalid_token');
      }
    });

    it('a token without an accepted scope is 403 on every one', async () => {
      for (const [method, path, body] of routes())
        expectError(await call(method, path, t.aRoster, body), 403, 'insufficient_scope');
    });

    it('developers are the operator\u2019s alone: tenant and developer tokens get 403', async () => {
      for (const [method, path, body] of routes().filter(([, p]) => p.startsWith('/developers'))) {
        for (const token of [t.aWrite, t.aRead, t.dev, t.devRead])
          expectError(await call(method, path, token, body), 403, 'insufficient_scope');
      }
    });

    it('tenant and developer tokens keep their old limits: another tenant is 404, deployments need a tenant', async () => {
      for (const [method, path, body] of routes().filter(([, p]) => p.startsWith('/tenants/'))) {
        expectError(await call(method, path, t.aWrite, body), 404, 'not_found');
        expectError(await call(method, path, t.dev, body), 403, 'insufficient_scope');
      }
      const theirs = (await h.world().app({ type: 'tenant', id: B.id }, 'Beta Private')).app.id;
      for (const token of [t.aWrite, t.dev]) expectError(await call('get', `/apps/${theirs}`, token), 404, 'not_found');
      const mine = (await call('get', '/apps', t.devRead).expect(200)).body as { owner: { id: string } }[];
      expect(mine.every((a) => a.owner.id === devId)).toBe(true);
    });

    it('no junk body makes a new or widened route answer 500', async () => {
      const JUNK: unknown[] = [null, [], 'x', 7, true, {}, { $ne: 1 }, '', 'x'.repeat(5000), '\u00e9\u{1F600}'];
      const appId = (await h.world().app({ type: 'developer', id: devId }, 'Junk Target')).app.id;
      await h.world().deploy(appId, B.id, []);
      const bodies: ['post' | 'patch', string, Record<string, unknown>][] = [
        ['post', '/developers', newDeveloper()],
        ['patch', `/developers/${devId}`, { name: 'X', email: 'x@junk.example' }],
        ['post', '/apps', { ...oauthApp(), owner: { type: 'developer', id: devId } }],
        [
          'patch',
          `/apps/${appId}`,
          { name: 'X', auth_type: 'oauth2', oauth2: { redirect_uris: ['https://x.example/cb'] } },
        ],
        [
          'post',
          `/tenants/${A.id}/apps`,
          { app_id: appId, scope: [uri('alerts.messages.read')], settings: { oneroster_date_format: 'iso8601' } },
        ],
        [
          'patch',
          `/tenants/${B.id}/apps/${appId}`,
          { scope: [uri('alerts.messages.read')], settings: { oneroster_booleans: 'json' } },
        ],
      ];
      const failures: string[] = [];
      for (const [method, path, body] of bodies) {
        for (const whole of JUNK) {
          const res = await h
            .http()
            [method](path)
            .set(bearer(t.op))
            .set('Content-Type', 'application/json')
            .send(JSON.stringify(whole));
          // `{}` is a valid (empty) PATCH; everything else whole is refused
          const refused = res.status >= 400 && res.status < 500;
          if (!refused && !(method === 'patch' && res.status === 200 && JSON.stringify(whole) === '{}'))
            failures.push(`${method} ${path} body=${JSON.stringify(whole).slice(0, 40)}: ${res.status}`);
        }
        for (const [key, value] of Object.entries(body)) {
          const inner =
            value && typeof value === 'object' && !Array.isArray(value)
              ? Object.keys(value).map((k) => `${key}.${k}`)
              : [];
          for (const field of [key, ...inner]) {
            for (const junk of JUNK) {
              const changed = JSON.parse(JSON.stringify(body));
              const [outer, nested] = field.split('.');
              if (nested) changed[outer][nested] = junk;
              else changed[outer] = junk;
              const res = await h.http()[method](path).set(bearer(t.op)).send(changed);
              if (res.status >= 500)
                failures.push(`${method} ${path} ${field}=${JSON.stringify(junk).slice(0, 40)}: ${res.status}`);
            }
          }
        }
      }
      expect(failures).toEqual([]);
    }, 120_000);
  });
});
