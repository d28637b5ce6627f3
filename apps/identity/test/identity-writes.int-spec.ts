import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { AppEntity, DeploymentEntity, UserEntity, type TenantEntity } from '@edu/persistence';
import { expectError, testBrand, TEST_PNG, TEST_SVG } from '@edu/testing';
import { bearer, IdentityHarness, uri } from './support/harness';
import {
  APP,
  CONSTITUENCY,
  DEPLOYMENT,
  expectShape,
  TENANT,
  TENANT_IDENTITY_PROVIDER,
  TENANT_USER,
  USER,
  VANITY_DOMAIN,
} from './support/schemas';

const SAML_METADATA =
  '<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://sp.example"><md:SPSSODescriptor/></md:EntityDescriptor>';
const WOFF = Buffer.concat([Buffer.from('wOFF'), Buffer.alloc(40, 1)]).toString('base64');
const BIG_PNG = Buffer.concat([Buffer.from(TEST_PNG, 'base64'), Buffer.alloc(300 * 1024)]).toString('base64');

const samlSettings = () => ({
  metadata_url: 'https://sp.example/metadata',
  metadata_xml: SAML_METADATA,
  entity_id: 'https://sp.example',
  reply_url: 'https://sp.example/acs',
  sign_on_url: 'https://sp.example/login',
  relay_state: null,
  sign_out_url: 'https://sp.example/logout',
  claims: [
    {
      namespace: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims',
      claims: [{ name: 'emailaddress', value: 'user.email' }],
    },
  ],
});

const oauth2Provider = () => ({
  button_graphic: TEST_SVG,
  provision_just_in_time: true,
  type: 'oauth2',
  oauth2: {
    client_id: 'school-idp',
    authorization_url: 'https://idp.school.example/authorize',
    token_url: 'https://idp.school.example/token',
    scope: ['openid', 'email'],
    oidc_discovery: 'https://idp.school.example/.well-known/openid-configuration',
    jwks_url: 'https://idp.school.example/jwks',
  },
});

const ltiSettings = () => ({
  client_id: 'lms-client',
  oidc_authentication_url: 'https://lms.example/auth',
  oauth_access_token_url: 'https://lms.example/token',
  jwks_url: 'https://lms.example/jwks',
  issuer: 'https://lms.example',
  validate_lti_tokens_at_oidc_login: false,
  deployment_id: 'deployment-7',
});

/** Deep-ish copy with one change at a dotted path (`undefined` deletes). */
function withChange<T extends object>(base: T, path: string, value: unknown): T {
  const copy = JSON.parse(JSON.stringify(base));
  const keys = path.split('.');
  let node = copy;
  for (const k of keys.slice(0, -1)) node = node[k];
  if (value === undefined) delete node[keys[keys.length - 1]];
  else node[keys[keys.length - 1]] = value;
  return copy;
}

describe('Identity API provisioning writes', () => {
  let h: IdentityHarness;
  let A: TenantEntity;
  let B: TenantEntity;
  let C: TenantEntity;
  let devId: string;
  const t: Record<string, string> = {};

  beforeAll(async () => {
    h = await IdentityHarness.start();
    const w = h.world();
    A = await w.tenant({ name: 'Alpha', licences: ['data-operations', 'advanced'] });
    B = await w.tenant({ name: 'Beta', licences: ['data-operations'] });
    C = await w.tenant({ name: 'Gamma', licences: ['advanced'] });
    devId = (await w.developer('Writer Dev')).id;
    t.aWrite = await h.tenantToken(A.id, ['id.tenant-core.write']);
    t.aRead = await h.tenantToken(A.id, ['id.tenant-core.readonly']);
    t.bWrite = await h.tenantToken(B.id, ['id.tenant-core.write']);
    t.cWrite = await h.tenantToken(C.id, ['id.tenant-core.write']);
    t.dev = await h.developerToken(devId, ['id.apps.write']);
    t.devRead = await h.developerToken(devId, ['id.apps.readonly']);
    t.op = await h.operatorToken();
  });

  afterAll(async () => {
    await h?.stop();
  });

  const send = (method: 'post' | 'patch' | 'delete', path: string, token: string, body?: object) => {
    const req = h.http()[method](path).set(bearer(token));
    return body === undefined ? req : req.send(body);
  };
  const get = (path: string, token: string) => h.http().get(path).set(bearer(token));

  /** A refused write: 400 validation_failed naming `field`, and nothing in the database changed. */
  async function expectRefused(
    method: 'post' | 'patch',
    path: string,
    token: string,
    body: object,
    field: string,
  ): Promise<Response> {
    const before = await h.snapshot();
    const res = await send(method, path, token, body);
    expectError(res, 400, 'validation_failed');
    const fields = (res.body.fields as { field: string }[]).map((f) => f.field);
    if (!fields.includes(field)) throw new Error(`expected field "${field}" among ${JSON.stringify(res.body.fields)}`);
    expect(await h.snapshot()).toEqual(before);
    return res;
  }

  async function expectDeletedTwice(path: string, token: string): Promise<void> {
    await send('delete', path, token).expect(204);
    expectError(await send('delete', path, token), 404, 'not_found');
  }

  describe('apps', () => {
    const oauthApp = {
      name: 'Homework Hub',
      auth_type: 'oauth2',
      oauth2: { redirect_uris: ['https://hub.example/cb', 'http://localhost:8080/cb'] },
    };

    it('a developer creates an app: stored object, client secret shown once and stored hashed, and it works', async () => {
      const res = await send('post', '/apps', t.dev, oauthApp).expect(201);
      const { client_id, client_secret, ...app } = res.body;
      expectShape(APP, app);
      expect(app).toMatchObject({
        name: 'Homework Hub',
        owner: { type: 'developer', id: devId },
        auth_type: 'oauth2',
        oauth2: oauthApp.oauth2,
      });
      expect(client_id).toMatch(/^app_/);
      expect(client_secret.length).toBeGreaterThanOrEqual(32);
      const stored = await h.ds.getRepository(AppEntity).findOneByOrFail({ id: app.id });
      expect(stored.clientSecretHash).toMatch(/^sha256\$/);
      expect(stored.clientSecretHash).not.toContain(client_secret);
      expect((await get(`/apps/${app.id}`, t.devRead).expect(200)).body).toEqual([app]);
      await h
        .http()
        .post('/oauth/token')
        .type('form')
        .send({ grant_type: 'client_credentials', client_id, client_secret })
        .expect(200);
    });

    it('a tenant creates a tenant-owned SAML app', async () => {
      const res = await send('post', '/apps', t.aWrite, {
        name: 'Library',
        auth_type: 'saml',
        saml: samlSettings(),
      }).expect(201);
      const { client_id: _id, client_secret: _secret, ...app } = res.body;
      expectShape(APP, app);
      expect(app).toMatchObject({ owner: { type: 'tenant', id: A.id }, auth_type: 'saml', saml: samlSettings() });
      expect((await get('/apps', t.aRead).expect(200)).body).toContainEqual(app);
      expectError(await get(`/apps/${app.id}`, t.bWrite), 404, 'not_found');
    });

    it.each([
      ['name missing', withChange(oauthApp, 'name', undefined), 'name'],
      ['auth_type not an enum value', withChange(oauthApp, 'auth_type', 'kerberos'), 'auth_type'],
      ['oauth2 missing for auth_type oauth2', withChange(oauthApp, 'oauth2', undefined), 'oauth2'],
      ['saml given for auth_type oauth2', { ...oauthApp, saml: samlSettings() }, 'saml'],
      [
        'redirect URI not a URL',
        withChange(oauthApp, 'oauth2.redirect_uris', ['https://ok.example/cb', 'not a url']),
        'oauth2.redirect_uris',
      ],
      [
        'redirect URI with a non-http scheme',
        withChange(oauthApp, 'oauth2.redirect_uris', ['javascript:alert(1)']),
        'oauth2.redirect_uris',
      ],
      [
        'unknown property (owner is assigned by the server)',
        { ...oauthApp, owner: { type: 'tenant', id: randomUUID() } },
        'owner',
      ],
      ['unknown nested property', withChange(oauthApp, 'oauth2.secret', 'x'), 'oauth2.secret'],
      [
        'SAML metadata XML not well-formed',
        {
          name: 'S',
          auth_type: 'saml',
          saml: withChange(samlSettings(), 'metadata_xml', '<md:EntityDescriptor><oops></md:EntityDescriptor>'),
        },
        'saml.metadata_xml',
      ],
      [
        'SAML metadata XML not SAML metadata',
        { name: 'S', auth_type: 'saml', saml: withChange(samlSettings(), 'metadata_xml', '<html><body/></html>') },
        'saml.metadata_xml',
      ],
      [
        'SAML metadata with a DTD',
        {
          name: 'S',
          auth_type: 'saml',
          saml: withChange(samlSettings(), 'metadata_xml', '<!DOCTYPE x [<!ENTITY e "x">]><EntityDescriptor/>'),
        },
        'saml.metadata_xml',
      ],
      [
        'SAML URL not a URL',
        { name: 'S', auth_type: 'saml', saml: withChange(samlSettings(), 'reply_url', 'acs') },
        'saml.reply_url',
      ],
      [
        'SAML claim value not a user attribute',
        {
          name: 'S',
          auth_type: 'saml',
          saml: withChange(samlSettings(), 'claims', [{ namespace: 'n', claims: [{ name: 'x', value: 'email' }] }]),
        },
        'saml.claims.0.claims.0.value',
      ],
      [
        'SAML claim naming an unknown user attribute',
        {
          name: 'S',
          auth_type: 'saml',
          saml: withChange(samlSettings(), 'claims', [
            {
              namespace: 'n',
              claims: [
                { name: 'e', value: 'user.email' },
                { name: 'x', value: 'user.shoe_size' },
              ],
            },
          ]),
        },
        'saml.claims.0.claims.1.value',
      ],
    ])('refuses %s', async (_name, body, field) => {
      await expectRefused('post', '/apps', t.dev, body, field);
    });

    it('PATCH changes the app; switching auth_type needs the new settings and drops the old', async () => {
      const created = (await send('post', '/apps', t.dev, oauthApp).expect(201)).body;
      const renamed = await send('patch', `/apps/${created.id}`, t.dev, { name: 'Homework Hub 2' }).expect(200);
      expect(renamed.body).toMatchObject({ name: 'Homework Hub 2', oauth2: oauthApp.oauth2 });
      await expectRefused('patch', `/apps/${created.id}`, t.dev, { auth_type: 'saml' }, 'saml');
      await expectRefused('patch', `/apps/${created.id}`, t.dev, { saml: samlSettings() }, 'saml');
      const unknownClaim = withChange(samlSettings(), 'claims', [
        { namespace: 'n', claims: [{ name: 'x', value: 'user.password' }] },
      ]);
      const refused = await expectRefused(
        'patch',
        `/apps/${created.id}`,
        t.dev,
        { auth_type: 'saml', saml: unknownClaim },
        'saml.claims.0.claims.0.value',
      );
      expect(JSON.stringify(refused.body.fields)).toContain('must be a known user attribute: user.email');
      const switched = await send('patch', `/apps/${created.id}`, t.dev, {
        auth_type: 'saml',
        saml: samlSettings(),
      }).expect(200);
      expectShape(APP, switched.body);
      expect(switched.body).not.toHaveProperty('oauth2');
      expect((await get(`/apps/${created.id}`, t.dev).expect(200)).body).toEqual([switched.body]);
    });

    it('rotating the secret shows the new one once; the old one stops working', async () => {
      const created = (await send('post', '/apps', t.dev, oauthApp).expect(201)).body;
      const rotated = await send('post', `/apps/${created.id}/secret`, t.dev).expect(200);
      expect(rotated.body).toEqual({ client_id: created.client_id, client_secret: expect.any(String) });
      const tokenWith = (secret: string) =>
        h
          .http()
          .post('/oauth/token')
          .type('form')
          .send({ grant_type: 'client_credentials', client_id: created.client_id, client_secret: secret });
      expect((await tokenWith(created.client_secret)).status).toBe(401);
      await tokenWith(rotated.body.client_secret).expect(200);
    });

    it('DELETE removes the app and its deployments; the second DELETE is 404', async () => {
      const created = (await send('post', '/apps', t.dev, oauthApp).expect(201)).body;
      await send('post', `/tenants/${A.id}/apps`, t.aWrite, {
        app_id: created.id,
        scope: [uri('roster-core.readonly')],
      }).expect(201);
      await expectDeletedTwice(`/apps/${created.id}`, t.dev);
      expect(await h.ds.getRepository(DeploymentEntity).countBy({ appId: created.id })).toBe(0);
    });

    it('writes need a write scope of the right context, and act only on the caller\u2019s own apps', async () => {
      expectError(await send('post', '/apps', t.devRead, oauthApp), 403, 'insufficient_scope');
      expectError(await send('post', '/apps', t.aRead, oauthApp), 403, 'insufficient_scope');
      const theirs = (await send('post', '/apps', t.bWrite, oauthApp).expect(201)).body;
      expectError(await send('patch', `/apps/${theirs.id}`, t.aWrite, { name: 'mine now' }), 404, 'not_found');
      expectError(await send('delete', `/apps/${theirs.id}`, t.dev), 404, 'not_found');
      expectError(await send('post', `/apps/${theirs.id}/secret`, t.aWrite), 404, 'not_found');
      expectError(await send('patch', '/apps/not-a-uuid', t.aWrite, { name: 'x' }), 404, 'not_found');
    });
  });

  describe('identity providers', () => {
    it('creates oauth2 and LTI 1.3 providers for the token\u2019s tenant', async () => {
      const oauth = await send('post', '/identity-providers', t.aWrite, oauth2Provider()).expect(201);
      expectShape(TENANT_IDENTITY_PROVIDER, oauth.body);
      expect(oauth.body).toMatchObject({ tenant: A.id, type: 'oauth2', provision_just_in_time: true });
      const lti = await send('post', '/identity-providers', t.aWrite, {
        button_graphic: TEST_SVG,
        provision_just_in_time: false,
        type: 'lti1.3',
        lti: ltiSettings(),
      }).expect(201);
      expectShape(TENANT_IDENTITY_PROVIDER, lti.body);
      expect((await get(`/identity-providers/${lti.body.id}`, t.aRead).expect(200)).body).toEqual([lti.body]);
    });

    const script = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const handler = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>';
    const huge = `<svg xmlns="http://www.w3.org/2000/svg"><!-- ${'x'.repeat(70 * 1024)} --></svg>`;
    it.each([
      [
        'a PNG button (core and tenant buttons are SVG)',
        withChange(oauth2Provider(), 'button_graphic', TEST_PNG),
        'button_graphic',
      ],
      ['an SVG with a script', withChange(oauth2Provider(), 'button_graphic', script), 'button_graphic'],
      ['an SVG with an event handler', withChange(oauth2Provider(), 'button_graphic', handler), 'button_graphic'],
      ['an SVG over the size cap', withChange(oauth2Provider(), 'button_graphic', huge), 'button_graphic'],
      ['a malformed SVG', withChange(oauth2Provider(), 'button_graphic', '<svg><g></svg>'), 'button_graphic'],
      ['a type outside the enum', withChange(oauth2Provider(), 'type', 'saml'), 'type'],
      ['lti settings missing for lti1.3', withChange(oauth2Provider(), 'type', 'lti1.3'), 'lti'],
      [
        'oauth2 settings with type lti1.3',
        { ...withChange(oauth2Provider(), 'type', 'lti1.3'), lti: ltiSettings() },
        'oauth2',
      ],
      ['a token URL that is not a URL', withChange(oauth2Provider(), 'oauth2.token_url', 'token'), 'oauth2.token_url'],
      ['a non-boolean flag', withChange(oauth2Provider(), 'provision_just_in_time', 'yes'), 'provision_just_in_time'],
      [
        'a tenant property (the owner is the token\u2019s tenant)',
        { ...oauth2Provider(), tenant: randomUUID() },
        'tenant',
      ],
    ])('refuses %s', async (_name, body, field) => {
      await expectRefused('post', '/identity-providers', t.aWrite, body, field);
    });

    it('PATCH switches type with the new settings; core providers and other tenants\u2019 providers are 404', async () => {
      const created = (await send('post', '/identity-providers', t.aWrite, oauth2Provider()).expect(201)).body;
      await expectRefused('patch', `/identity-providers/${created.id}`, t.aWrite, { type: 'lti1.3' }, 'lti');
      const switched = await send('patch', `/identity-providers/${created.id}`, t.aWrite, {
        type: 'lti1.3',
        lti: ltiSettings(),
      }).expect(200);
      expectShape(TENANT_IDENTITY_PROVIDER, switched.body);
      expect(switched.body).not.toHaveProperty('oauth2');
      expectError(
        await send('patch', '/identity-providers/google', t.aWrite, { provision_just_in_time: true }),
        404,
        'not_found',
      );
      expectError(
        await send('patch', `/identity-providers/${created.id}`, t.bWrite, { provision_just_in_time: true }),
        404,
        'not_found',
      );
      expectError(await send('delete', `/identity-providers/${created.id}`, t.bWrite), 404, 'not_found');
    });

    it('DELETE is refused (409) while a constituency allows the provider; then deletes once', async () => {
      const idp = (await send('post', '/identity-providers', t.aWrite, oauth2Provider()).expect(201)).body;
      await send('post', `/tenants/${A.id}/constituencies`, t.aWrite, {
        id: 'guests',
        name: 'Guests',
        enable_self_service_provisioning: true,
        allowed_identity_providers: [idp.id],
      }).expect(201);
      expectError(await send('delete', `/identity-providers/${idp.id}`, t.aWrite), 409, 'conflict');
      await send('patch', `/tenants/${A.id}/constituencies/guests`, t.aWrite, {
        allowed_identity_providers: ['google'],
      }).expect(200);
      await expectDeletedTwice(`/identity-providers/${idp.id}`, t.aWrite);
    });
  });

  describe('constituencies', () => {
    const path = () => `/tenants/${A.id}/constituencies`;
    const teachers = {
      id: 'teachers',
      name: 'Teachers',
      enable_self_service_provisioning: false,
      allowed_identity_providers: ['google', 'microsoft'],
    };

    it('creates, changes and deletes a constituency', async () => {
      const created = await send('post', path(), t.aWrite, teachers).expect(201);
      expectShape(CONSTITUENCY, created.body);
      expect(created.body).toEqual(teachers);
      expectError(await send('post', path(), t.aWrite, teachers), 409, 'conflict');
      const changed = await send('patch', `${path()}/teachers`, t.aWrite, {
        name: 'Teaching staff',
        enable_self_service_provisioning: true,
      }).expect(200);
      expect(changed.body).toEqual({ ...teachers, name: 'Teaching staff', enable_self_service_provisioning: true });
      expect((await get(path(), t.aRead).expect(200)).body).toContainEqual(changed.body);
      await expectDeletedTwice(`${path()}/teachers`, t.aWrite);
    });

    it.each([
      ['an id that is not a key', withChange(teachers, 'id', 'has spaces'), 'id'],
      [
        'an unknown identity provider',
        withChange(teachers, 'allowed_identity_providers', ['google', 'myspace']),
        'allowed_identity_providers',
      ],
      [
        'another tenant\u2019s provider',
        withChange(teachers, 'allowed_identity_providers', [randomUUID()]),
        'allowed_identity_providers',
      ],
      [
        'a repeated provider',
        withChange(teachers, 'allowed_identity_providers', ['google', 'google']),
        'allowed_identity_providers',
      ],
      [
        'a non-boolean flag',
        withChange(teachers, 'enable_self_service_provisioning', 1),
        'enable_self_service_provisioning',
      ],
      ['an unknown property', { ...teachers, tenant_id: randomUUID() }, 'tenant_id'],
    ])('refuses %s', async (_name, body, field) => {
      await expectRefused('post', path(), t.aWrite, body, field);
    });

    it('refuses another tenant\u2019s provider uuid, and writes under another tenant\u2019s path are 404', async () => {
      const bIdp = (await send('post', '/identity-providers', t.bWrite, oauth2Provider()).expect(201)).body;
      await expectRefused(
        'post',
        path(),
        t.aWrite,
        { ...teachers, allowed_identity_providers: [bIdp.id] },
        'allowed_identity_providers',
      );
      expectError(await send('post', `/tenants/${B.id}/constituencies`, t.aWrite, teachers), 404, 'not_found');
      expectError(await send('post', path(), t.aRead, teachers), 403, 'insufficient_scope');
    });
  });

  describe('users and tenant-user links', () => {
    const jo = () => ({
      email: `Jo.${randomUUID().slice(0, 6)}@School.example`,
      name: 'Jo Citizen',
      nickname: 'Jo',
      picture: 'https://cdn.school.example/jo.png',
      idp_identifiers: [{ idp_id: 'google' }],
    });

    it('POST /users adds the user to the token\u2019s tenant; the e-mail is case-insensitive; 409 only when this tenant already has them', async () => {
      const body = jo();
      const res = await send('post', '/users', t.aWrite, body).expect(201);
      expectShape(USER, res.body);
      expect(res.body).toMatchObject({
        email: body.email.toLowerCase(),
        name: 'Jo Citizen',
        idp_identifiers: [{ id: expect.any(String), idp_id: 'google' }],
      });
      expect((await get(`/users/${body.email}`, t.aRead).expect(200)).body).toEqual([res.body]);
      const links = (await get(`/tenants/${A.id}/users`, t.aRead).expect(200)).body;
      expect(links).toContainEqual(
        expect.objectContaining({ user_email: body.email.toLowerCase(), constituencies: [] }),
      );
      expectError(
        await send('post', '/users', t.aWrite, { ...body, email: body.email.toUpperCase() }),
        409,
        'conflict',
      );
      // Another tenant adding the same person gets its own record (same person id, its own profile).
      const atB = await send('post', '/users', t.bWrite, { ...body, name: 'J. Citizen', nickname: 'JC' }).expect(201);
      expect(atB.body).toMatchObject({
        id: res.body.id,
        email: body.email.toLowerCase(),
        name: 'J. Citizen',
        nickname: 'JC',
      });
      expect((await get(`/users/${body.email}`, t.aRead).expect(200)).body).toEqual([res.body]);
    });

    it.each([
      ['an invalid e-mail', (b: ReturnType<typeof jo>) => withChange(b, 'email', 'jo-at-school'), 'email'],
      ['a picture that is not a URL', (b: ReturnType<typeof jo>) => withChange(b, 'picture', 'jo.png'), 'picture'],
      [
        'an unknown identity provider',
        (b: ReturnType<typeof jo>) => withChange(b, 'idp_identifiers', [{ idp_id: 'friendster' }]),
        'idp_identifiers',
      ],
      [
        'an identifier id that is not a uuid',
        (b: ReturnType<typeof jo>) => withChange(b, 'idp_identifiers', [{ id: '42', idp_id: 'google' }]),
        'idp_identifiers.0.id',
      ],
      ['an unknown property', (b: ReturnType<typeof jo>) => ({ ...b, constituencies: ['staff'] }), 'constituencies'],
    ])('refuses %s', async (_name, change, field) => {
      await expectRefused('post', '/users', t.aWrite, change(jo()), field);
    });

    it('PATCH changes this tenant\u2019s profile and identifiers only; the other tenant\u2019s record is untouched', async () => {
      const bIdp = (await send('post', '/identity-providers', t.bWrite, oauth2Provider()).expect(201)).body;
      const shared = await h.world().user([A.id, B.id], {
        idpIdentifiers: [
          { id: randomUUID(), idp_id: bIdp.id },
          { id: randomUUID(), idp_id: 'google' },
        ],
      });
      const res = await send('patch', `/users/${shared.email}`, t.aWrite, {
        nickname: 'Sam',
        idp_identifiers: [{ idp_id: 'microsoft' }],
      }).expect(200);
      expectShape(USER, res.body);
      expect(res.body.idp_identifiers.map((i: { idp_id: string }) => i.idp_id)).toEqual(['microsoft']);
      const fromB = (await get(`/users/${shared.email}`, t.bWrite).expect(200)).body[0];
      expect(fromB.nickname).toBe(shared.nickname);
      expect(fromB.idp_identifiers.map((i: { idp_id: string }) => i.idp_id)).toEqual([bIdp.id, 'google']);
      await expectRefused('patch', `/users/${shared.email}`, t.aWrite, { picture: 'nope' }, 'picture');
      await expectRefused('patch', `/users/${shared.email}`, t.aWrite, { email: 'new@school.example' }, 'email');
    });

    it('DELETE /users/:email unlinks the user from the tenant; users left without a tenant are deleted', async () => {
      const shared = await h.world().user([A.id, B.id]);
      const alone = await h.world().user([A.id]);
      await expectDeletedTwice(`/users/${shared.email}`, t.aWrite);
      await get(`/users/${shared.email}`, t.bWrite).expect(200);
      await expectDeletedTwice(`/users/${alone.email}`, t.aWrite);
      expect(await h.ds.getRepository(UserEntity).countBy({ id: alone.id })).toBe(0);
      expectError(await send('delete', `/users/${(await h.world().user([B.id])).email}`, t.aWrite), 404, 'not_found');
    });

    it('adds a user known to another tenant with constituencies and this tenant\u2019s own profile; changes and removes the record', async () => {
      await h.world().constituency(A.id, 'parents', ['google']);
      const user = await h.world().user([B.id]);
      const path = `/tenants/${A.id}/users`;
      const profile = { name: 'Parent Of Kim', picture: 'https://cdn.alpha.example/p.png' };
      const res = await send('post', path, t.aWrite, {
        user_email: user.email,
        constituencies: ['parents'],
        user: profile,
      }).expect(201);
      expectShape(TENANT_USER, res.body);
      expect(res.body).toEqual({
        user_email: user.email,
        tenant_id: A.id,
        constituencies: ['parents'],
        user: { id: user.id, email: user.email, nickname: profile.name, ...profile },
      });
      expectError(
        await send('post', path, t.aWrite, { user_email: user.email, constituencies: [], user: profile }),
        409,
        'conflict',
      );
      const changed = await send('patch', `${path}/${user.email}`, t.aWrite, { constituencies: [] }).expect(200);
      expect(changed.body.constituencies).toEqual([]);
      await expectRefused('patch', `${path}/${user.email}`, t.aWrite, { constituencies: ['ghosts'] }, 'constituencies');
      await expectDeletedTwice(`${path}/${user.email}`, t.aWrite);
      await get(`/users/${user.email}`, t.bWrite).expect(200);
    });

    const profile = { name: 'Kim', picture: 'https://cdn.alpha.example/kim.png' };
    it.each([
      ['an invalid e-mail', () => ({ user_email: 'nobody', constituencies: [], user: profile }), 'user_email'],
      [
        'an unknown constituency',
        (email: string) => ({ user_email: email, constituencies: ['ghosts'], user: profile }),
        'constituencies',
      ],
      ['constituencies missing', (email: string) => ({ user_email: email, user: profile }), 'constituencies'],
      [
        'no profile (a tenant sees only the profile it gave)',
        (email: string) => ({ user_email: email, constituencies: [] }),
        'user',
      ],
      [
        'a profile that is not an object',
        (email: string) => ({ user_email: email, constituencies: [], user: 'Kim' }),
        'user',
      ],
      [
        'a picture that is not a URL',
        (email: string) => ({ user_email: email, constituencies: [], user: { ...profile, picture: 'kim.png' } }),
        'user.picture',
      ],
      [
        'a profile naming the user id (server-owned)',
        (email: string) => ({ user_email: email, constituencies: [], user: { ...profile, id: randomUUID() } }),
        'user.id',
      ],
    ])('refuses a tenant-user record with %s', async (_name, body, field) => {
      const user = await h.world().user([B.id]);
      await expectRefused('post', `/tenants/${A.id}/users`, t.aWrite, body(user.email), field);
    });
  });

  describe('deployments', () => {
    let appId: string;
    beforeAll(async () => {
      appId = (await h.world().app({ type: 'developer', id: devId }, 'Wellbeing')).app.id;
    });
    const path = () => `/tenants/${A.id}/apps`;

    it('deploys an app with scopes, changes them, issues per-deployment credentials, removes it', async () => {
      const res = await send('post', path(), t.aWrite, { app_id: appId, scope: [uri('roster.readonly')] }).expect(201);
      expectShape(DEPLOYMENT, res.body);
      expect(res.body).toMatchObject({
        app_id: appId,
        tenant_id: A.id,
        scope: [uri('roster.readonly')],
        app: { id: appId, name: 'Wellbeing' },
      });
      expectError(await send('post', path(), t.aWrite, { app_id: appId, scope: [] }), 409, 'conflict');
      const changed = await send('patch', `${path()}/${appId}`, t.aWrite, {
        scope: [uri('roster-core.readonly'), uri('roster-demographics.readonly')],
      }).expect(200);
      expect(changed.body.scope).toEqual([uri('roster-core.readonly'), uri('roster-demographics.readonly')]);
      expect((await get(`${path()}/${appId}`, t.aRead).expect(200)).body).toEqual([changed.body]);
      const creds = await send('post', `${path()}/${appId}/secret`, t.aWrite).expect(200);
      expect(creds.body).toEqual({ client_id: expect.stringMatching(/^dep_/), client_secret: expect.any(String) });
      const token = await h
        .http()
        .post('/oauth/token')
        .type('form')
        .send({
          grant_type: 'client_credentials',
          client_id: creds.body.client_id,
          client_secret: creds.body.client_secret,
        })
        .expect(200);
      expect(token.body.scope).toBe(`${uri('roster-core.readonly')} ${uri('roster-demographics.readonly')}`);
      await expectDeletedTwice(`${path()}/${appId}`, t.aWrite);
    });

    it.each([
      ['an app id that is not a uuid', () => ({ app_id: 'wellbeing', scope: [] }), 'app_id'],
      ['an unknown app', () => ({ app_id: randomUUID(), scope: [] }), 'app_id'],
      ['an unknown scope URI', () => ({ app_id: appId, scope: ['https://evil.example/scope/all'] }), 'scope'],
      ['an alerts scope (operator only)', () => ({ app_id: appId, scope: [uri('alerts.webhooks.write')] }), 'scope'],
      ['platform.admin', () => ({ app_id: appId, scope: [uri('platform.admin')] }), 'scope'],
      ['a repeated scope', () => ({ app_id: appId, scope: [uri('roster.readonly'), uri('roster.readonly')] }), 'scope'],
    ])('refuses %s', async (_name, body, field) => {
      await expectRefused('post', path(), t.aWrite, body(), field);
    });

    it('refuses to deploy another tenant\u2019s own app; keeps (never adds) operator-granted scopes', async () => {
      const theirs = (await h.world().app({ type: 'tenant', id: B.id }, 'Beta Private')).app.id;
      await expectRefused('post', path(), t.aWrite, { app_id: theirs, scope: [] }, 'app_id');
      const alerts = (await h.world().app({ type: 'developer', id: devId }, 'Alerts App')).app.id;
      await h.world().deploy(alerts, A.id, [uri('alerts.messages.read')]);
      await send('patch', `${path()}/${alerts}`, t.aWrite, {
        scope: [uri('alerts.messages.read'), uri('roster.readonly')],
      }).expect(200);
      await expectRefused('patch', `${path()}/${alerts}`, t.aWrite, { scope: [uri('alerts.webhooks.write')] }, 'scope');
      expectError(
        await send('post', `/tenants/${B.id}/apps`, t.aWrite, { app_id: alerts, scope: [] }),
        404,
        'not_found',
      );
    });
  });

  describe('vanity domains', () => {
    const domain = () => ({
      domain: `Portal-${randomUUID().slice(0, 6)}.Alpha.example`,
      brand_configuration: testBrand(),
    });
    const brand = (path: string, value: unknown) => withChange(domain(), `brand_configuration.${path}`, value);

    it('registers a domain (PENDING_DNS, owned by and serving the tenant), replaces its branding, deletes it', async () => {
      const body = domain();
      const res = await send('post', '/vanity-domains', t.aWrite, body).expect(201);
      expectShape(VANITY_DOMAIN, res.body);
      expect(res.body).toEqual({
        domain: body.domain.toLowerCase(),
        owner: { type: 'tenant', id: A.id },
        tenants: [A.id],
        status: 'PENDING_DNS',
        brand_configuration: testBrand(),
      });
      expect((await get(`/vanity-domains/${body.domain}`, t.aRead).expect(200)).body).toEqual([res.body]);
      expectError(await send('post', '/vanity-domains', t.cWrite, body), 409, 'conflict');
      const withFont = withChange(testBrand(), 'typefaces.sans', [
        { name: 'School Sans', source: 'file', file_type: 'woff', file: WOFF },
      ]);
      const changed = await send('patch', `/vanity-domains/${body.domain}`, t.aWrite, {
        brand_configuration: withFont,
      }).expect(200);
      expectShape(VANITY_DOMAIN, changed.body);
      expect(changed.body.brand_configuration.typefaces.sans).toEqual([
        { name: 'School Sans', source: 'file', file_type: 'woff', file: WOFF },
      ]);
      expectError(await send('delete', `/vanity-domains/${body.domain}`, t.cWrite), 404, 'not_found');
      await expectDeletedTwice(`/vanity-domains/${body.domain}`, t.aWrite);
    });

    it('needs the advanced licence for writes too', async () => {
      expectError(await send('post', '/vanity-domains', t.bWrite, domain()), 403, 'licence_required');
    });

    it.each([
      ['a domain that is not fully qualified', withChange(domain(), 'domain', 'intranet'), 'domain'],
      ['a domain with an underscore', withChange(domain(), 'domain', 'my_portal.school.example'), 'domain'],
      ['a status (assigned by the server)', { ...domain(), status: 'ACTIVE' }, 'status'],
      ['a colour that is not #RRGGBB', brand('primary_color', 'blue'), 'brand_configuration.primary_color'],
      ['a short hex colour', brand('background.color.dark', '#fff'), 'brand_configuration.background.color.dark'],
      [
        'a gradient via that is not a colour',
        brand('background.gradient.via', 'red'),
        'brand_configuration.background.gradient.via',
      ],
      [
        'a logo that is neither SVG nor PNG',
        brand('logo.light', 'R0lGODlhAQABAAAAACw='),
        'brand_configuration.logo.light',
      ],
      ['a PNG over the size cap', brand('logo.dark', BIG_PNG), 'brand_configuration.logo.dark'],
      [
        'a background image with a script',
        brand('background.image', '<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>'),
        'brand_configuration.background.image',
      ],
      [
        'a font file with a font-library source',
        brand('typefaces.sans', [{ name: 'Inter', source: 'google', file_type: 'woff', file: WOFF }]),
        'brand_configuration.typefaces.sans.0.file',
      ],
      [
        'a file source without a file',
        brand('typefaces.serif', [{ name: 'Mine', source: 'file', file_type: 'woff' }]),
        'brand_configuration.typefaces.serif.0.file',
      ],
      [
        'a font file that is not the named type',
        brand('typefaces.serif', [{ name: 'Mine', source: 'file', file_type: 'woff2', file: WOFF }]),
        'brand_configuration.typefaces.serif.0.file',
      ],
      [
        'a font style without a family',
        brand('font_styles.header', ['font-semibold']),
        'brand_configuration.font_styles.header',
      ],
      ['a layout outside the enum', brand('layout', 'diagonal'), 'brand_configuration.layout'],
      ['a missing background', brand('background', undefined), 'brand_configuration.background'],
      ['an unknown branding property', brand('favicon', TEST_SVG), 'brand_configuration.favicon'],
    ])('refuses %s', async (_name, body, field) => {
      await expectRefused('post', '/vanity-domains', t.aWrite, body, field);
    });
  });

  describe('tenants (platform.admin)', () => {
    const tenant = () => ({
      name: 'Delta College',
      customer_id: 400000 + Math.floor(Math.random() * 100000),
      govt_id: 'SG-77',
      region: 'SG',
      licences: ['data-operations'],
      root_org_sourced_id: 'org-delta',
    });

    it('creates, changes (licences, region) and deletes a tenant with everything it owns', async () => {
      const body = tenant();
      const res = await send('post', '/tenants', t.op, body).expect(201);
      const { licences, root_org_sourced_id, ...view } = res.body;
      expectShape(TENANT, view);
      expect(res.body).toMatchObject({
        name: 'Delta College',
        customer_id: body.customer_id,
        environment: 'PRODUCTION',
        status: 'NORMAL',
        region: { id: 'SG', country_code: 'SG' },
      });
      expect({ licences, root_org_sourced_id }).toEqual({
        licences: ['data-operations'],
        root_org_sourced_id: 'org-delta',
      });
      expectError(await send('post', '/tenants', t.op, { ...body, name: 'Copy' }), 409, 'conflict');
      const changed = await send('patch', `/tenants/${res.body.id}`, t.op, {
        licences: ['data-operations', 'advanced'],
        region: 'AU-NSW',
      }).expect(200);
      expect(changed.body).toMatchObject({ licences: ['data-operations', 'advanced'], region: { id: 'AU-NSW' } });
      await expectRefused('patch', `/tenants/${res.body.id}`, t.op, { region: 'MARS' }, 'region');

      const token = await h.tenantToken(res.body.id, ['id.tenant-core.write']);
      await send('post', '/apps', token, {
        name: 'Own',
        auth_type: 'oauth2',
        oauth2: { redirect_uris: ['https://own.example/cb'] },
      }).expect(201);
      await send('post', '/vanity-domains', token, {
        domain: 'portal.delta.example',
        brand_configuration: testBrand(),
      }).expect(201);
      await send('post', '/users', token, {
        email: 'only-delta@delta.example',
        name: 'Only Delta',
        picture: 'https://delta.example/p.png',
      }).expect(201);
      await expectDeletedTwice(`/tenants/${res.body.id}`, t.op);
      const left = await h.ds.query(
        `SELECT (SELECT count(*) FROM apps WHERE owner_id = $1)::int AS apps, (SELECT count(*) FROM vanity_domains WHERE tenant_id = $1)::int AS domains,
                (SELECT count(*) FROM users WHERE email = 'only-delta@delta.example')::int AS users`,
        [res.body.id],
      );
      expect(left).toEqual([{ apps: 0, domains: 0, users: 0 }]);
    });

    it.each([
      ['an unknown region', { region: 'MARS' }, 'region'],
      ['an unknown licence', { licences: ['premium'] }, 'licences'],
      ['a repeated licence', { licences: ['advanced', 'advanced'] }, 'licences'],
      ['a customer id that is not an integer', { customer_id: '12' }, 'customer_id'],
      ['a server-assigned status', { status: 'NORMAL' }, 'status'],
      ['a missing name', { name: undefined }, 'name'],
    ])('refuses %s', async (_name, change, field) => {
      await expectRefused('post', '/tenants', t.op, { ...tenant(), ...change }, field);
    });

    it('only platform.admin provisions tenants', async () => {
      expectError(await send('post', '/tenants', t.aWrite, tenant()), 403, 'insufficient_scope');
      expectError(await send('patch', `/tenants/${A.id}`, t.aWrite, { name: 'x' }), 403, 'insufficient_scope');
      expectError(await send('delete', `/tenants/${A.id}`, t.dev), 403, 'insufficient_scope');
      expectError(await send('delete', `/tenants/${randomUUID()}`, t.op), 404, 'not_found');
    });
  });

  describe('no input makes a write answer 500 (design §7)', () => {
    const JUNK: unknown[] = [null, [], [[]], 'x', 7, {}, true];

    /** Every path of a JSON value, parents before children. */
    function paths(value: unknown, prefix = ''): string[] {
      if (typeof value !== 'object' || value === null) return [];
      return Object.entries(value).flatMap(([k, v]) => {
        const p = prefix ? `${prefix}.${k}` : k;
        return [p, ...paths(v, p)];
      });
    }

    const bodies = () => [
      {
        method: 'post' as const,
        path: '/apps',
        token: t.dev,
        body: { name: 'Fuzz', auth_type: 'saml', saml: samlSettings() },
      },
      {
        method: 'post' as const,
        path: '/identity-providers',
        token: t.aWrite,
        body: { button_graphic: TEST_SVG, provision_just_in_time: false, type: 'lti1.3', lti: ltiSettings() },
      },
      { method: 'post' as const, path: '/identity-providers', token: t.aWrite, body: oauth2Provider() },
      {
        method: 'post' as const,
        path: '/vanity-domains',
        token: t.aWrite,
        body: { domain: 'fuzz.alpha.example', brand_configuration: testBrand() },
      },
      {
        method: 'post' as const,
        path: '/users',
        token: t.aWrite,
        body: {
          email: 'fuzz@alpha.example',
          name: 'F',
          picture: 'https://x.example/p.png',
          idp_identifiers: [{ idp_id: 'google' }],
        },
      },
      {
        method: 'post' as const,
        path: `/tenants/${A.id}/constituencies`,
        token: t.aWrite,
        body: {
          id: 'fuzz',
          name: 'F',
          enable_self_service_provisioning: false,
          allowed_identity_providers: ['google'],
        },
      },
      {
        method: 'post' as const,
        path: `/tenants/${A.id}/users`,
        token: t.aWrite,
        body: {
          user_email: 'fuzz@alpha.example',
          constituencies: [],
          user: { name: 'F', nickname: 'F', picture: 'https://x.example/p.png' },
        },
      },
      {
        method: 'post' as const,
        path: `/tenants/${A.id}/apps`,
        token: t.aWrite,
        body: { app_id: randomUUID(), scope: [] },
      },
      {
        method: 'post' as const,
        path: '/tenants',
        token: t.op,
        body: { name: 'F', customer_id: 9, govt_id: 'g', region: 'SG', licences: [], root_org_sourced_id: 'o' },
      },
    ];

    it('answers every junk value at every field of every create body with a 4xx (or a success)', async () => {
      const failures: string[] = [];
      for (const { method, path, token, body } of bodies()) {
        for (const whole of JUNK) {
          const res = await h
            .http()
            [method](path)
            .set(bearer(token))
            .set('Content-Type', 'application/json')
            .send(JSON.stringify(whole));
          if (res.status >= 500) failures.push(`${path} body=${JSON.stringify(whole)}: ${res.status}`);
        }
        for (const field of paths(body)) {
          for (const junk of JUNK) {
            const res = await h
              .http()
              [method](path)
              .set(bearer(token))
              .send(withChange(body, field, junk));
            if (res.status >= 500) failures.push(`${path} ${field}=${JSON.stringify(junk)}: ${res.status}`);
          }
        }
      }
      expect(failures).toEqual([]);
    }, 120_000);

    it('PATCH bodies too', async () => {
      const app = (
        await send('post', '/apps', t.dev, {
          name: 'P',
          auth_type: 'oauth2',
          oauth2: { redirect_uris: ['https://p.example/cb'] },
        }).expect(201)
      ).body;
      const idp = (await send('post', '/identity-providers', t.aWrite, oauth2Provider()).expect(201)).body;
      await h.world().constituency(A.id, 'fuzzers', ['google']);
      const user = await h.world().user([A.id]);
      const devApp = (await h.world().app({ type: 'developer', id: devId }, 'Fuzz Target')).app.id;
      await h.world().deploy(devApp, A.id, []);
      const domain = (await h.world().vanityDomain(A.id)).domain;
      const failures: string[] = [];
      const patches = [
        {
          path: `/tenants/${A.id}/constituencies/fuzzers`,
          token: t.aWrite,
          body: { name: 'F', enable_self_service_provisioning: true, allowed_identity_providers: ['google'] },
        },
        {
          path: `/users/${user.email}`,
          token: t.aWrite,
          body: {
            name: 'F',
            nickname: 'F',
            picture: 'https://x.example/p.png',
            idp_identifiers: [{ idp_id: 'google' }],
          },
        },
        { path: `/tenants/${A.id}/users/${user.email}`, token: t.aWrite, body: { constituencies: ['fuzzers'] } },
        { path: `/tenants/${A.id}/apps/${devApp}`, token: t.aWrite, body: { scope: [uri('roster.readonly')] } },
        { path: `/vanity-domains/${domain}`, token: t.aWrite, body: { brand_configuration: testBrand() } },
        { path: `/apps/${app.id}`, token: t.dev, body: { name: 'P', auth_type: 'saml', saml: samlSettings() } },
        { path: `/identity-providers/${idp.id}`, token: t.aWrite, body: { type: 'lti1.3', lti: ltiSettings() } },
        {
          path: `/tenants/${A.id}`,
          token: t.op,
          body: { name: 'Alpha', licences: ['data-operations', 'advanced'], region: 'AU-NSW' },
        },
      ];
      for (const { path, token, body } of patches) {
        for (const field of paths(body)) {
          for (const junk of JUNK) {
            const res = await h
              .http()
              .patch(path)
              .set(bearer(token))
              .send(withChange(body, field, junk));
            if (res.status >= 500) failures.push(`${path} ${field}=${JSON.stringify(junk)}: ${res.status}`);
          }
        }
      }
      expect(failures).toEqual([]);
    }, 120_000);
  });
});
