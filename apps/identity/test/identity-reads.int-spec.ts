import { randomUUID } from 'node:crypto';
import { AppEntity, SignInEventEntity, type TenantEntity } from '@edu/persistence';
import { expectError, TestIssuer, TEST_SVG, type WorldUser } from '@edu/testing';
import { bearer, IdentityHarness, uri } from './support/harness';
import {
  APP,
  CONSTITUENCY,
  CORE_IDENTITY_PROVIDER,
  DEPLOYMENT,
  expectArrayOf,
  IDENTITY_PROVIDER,
  SIGN_IN_EVENT,
  TENANT,
  TENANT_IDENTITY_PROVIDER,
  TENANT_USER,
  USER,
  VANITY_DOMAIN,
} from './support/schemas';

const SAML_METADATA = `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://sp.example/saml">
  <md:SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"/>
</md:EntityDescriptor>`;

describe('Identity API reads (spec 4.1)', () => {
  let h: IdentityHarness;
  let A: TenantEntity; // advanced + data-operations
  let B: TenantEntity; // data-operations only
  let C: TenantEntity; // advanced, owns another domain
  const ids: Record<string, string> = {};
  let u1: WorldUser;
  let u2: WorldUser;
  let u3: WorldUser;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    h = await IdentityHarness.start();
    const w = h.world();
    A = await w.tenant({ name: 'Alpha School', licences: ['data-operations', 'advanced'], region: 'SG' });
    B = await w.tenant({ name: 'Beta School', licences: ['data-operations'] });
    C = await w.tenant({ name: 'Gamma District', licences: ['advanced'] });
    const dev1 = await w.developer('Dev One');
    const dev2 = await w.developer('Dev Two');
    ids.dev1 = dev1.id;
    ids.devApp = (await w.app({ type: 'developer', id: dev1.id }, 'Roster Sync')).app.id;
    ids.dev2App = (await w.app({ type: 'developer', id: dev2.id }, 'Other Dev App')).app.id;
    ids.appA = (await w.app({ type: 'tenant', id: A.id }, 'Alpha Helpdesk')).app.id;
    ids.appB = (await w.app({ type: 'tenant', id: B.id }, 'Beta Helpdesk')).app.id;
    const saml = await h.ds.getRepository(AppEntity).save({
      name: 'Alpha Library (SAML)',
      ownerType: 'tenant' as const,
      ownerId: A.id,
      authType: 'saml' as const,
      oauth2: null,
      saml: {
        metadata_url: 'https://library.example/saml/metadata',
        metadata_xml: SAML_METADATA,
        entity_id: 'https://library.example/saml',
        reply_url: 'https://library.example/saml/acs',
        sign_on_url: 'https://library.example/login',
        relay_state: null,
        sign_out_url: 'https://library.example/logout',
        claims: [
          {
            namespace: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims',
            claims: [{ name: 'emailaddress', value: 'user.email' }],
          },
        ],
      },
      clientId: `app_${randomUUID()}`,
      clientSecretHash: 'sha256$x$y',
    });
    ids.samlApp = saml.id;
    ids.depA = (
      await w.deploy(ids.devApp, A.id, [uri('roster-core.readonly'), uri('id.tenant-core.readonly')])
    ).deployment.id;
    await w.deploy(ids.devApp, B.id, [uri('roster-core.readonly')]);
    ids.idpA1 = (await w.identityProvider(A.id, { type: 'oauth2' })).id;
    ids.idpA2 = (await w.identityProvider(A.id, { type: 'lti1.3', jit: true })).id;
    ids.idpB = (await w.identityProvider(B.id)).id;
    await w.constituency(A.id, 'staff', ['google', ids.idpA1]);
    await w.constituency(A.id, 'student', ['google']);
    await w.constituency(B.id, 'staff', ['microsoft', ids.idpB]);
    u1 = await w.user([A.id], {
      constituencies: ['staff'],
      idpIdentifiers: [
        { id: randomUUID(), idp_id: 'google' },
        { id: randomUUID(), idp_id: ids.idpA1 },
      ],
    });
    u2 = await w.user([A.id, B.id], {
      idpIdentifiers: [
        { id: randomUUID(), idp_id: ids.idpB },
        { id: randomUUID(), idp_id: 'microsoft' },
      ],
    });
    u3 = await w.user([B.id]);
    ids.domainA = (await w.vanityDomain(A.id, 'portal.alpha.example')).domain;
    // One sign-in each in A's and B's logs (the portal writes these; see sign-in-tenant-providers.int-spec.ts).
    await h.ds.getRepository(SignInEventEntity).insert([
      { tenantId: A.id, appId: ids.devApp, providerId: 'google', userId: u1.id, outcome: 'success', reason: null },
      {
        tenantId: B.id,
        appId: ids.devApp,
        providerId: 'microsoft',
        userId: null,
        outcome: 'refused',
        reason: 'not_enrolled',
      },
    ]);
    ids.domainB = (await w.vanityDomain(B.id, 'portal.beta.example')).domain;
    ids.domainC = (await w.vanityDomain(C.id, 'portal.gamma.example')).domain;

    tokens.aRead = await h.tenantToken(A.id, ['id.tenant-core.readonly']);
    tokens.aWrite = await h.tenantToken(A.id, ['id.tenant-core.write']);
    tokens.aRoster = await h.tenantToken(A.id, ['roster-core.readonly']);
    tokens.aAppsScope = await h.tenantToken(A.id, ['id.apps.readonly', 'roster-core.readonly']);
    tokens.bRead = await h.tenantToken(B.id, ['id.tenant-core.readonly']);
    tokens.dev1 = await h.developerToken(dev1.id, ['id.apps.readonly']);
    tokens.dev1Write = await h.developerToken(dev1.id, ['id.apps.write']);
    tokens.operator = await h.operatorToken();
  });

  afterAll(async () => {
    await h?.stop();
  });

  const get = (path: string, token?: string) => (token ? h.http().get(path).set(bearer(token)) : h.http().get(path));

  /** Every read endpoint with: a collection path, a path naming one of A's objects, and another tenant's object. */
  const endpoints = () => [
    {
      name: 'GET /apps/:id?',
      list: '/apps',
      one: `/apps/${ids.appA}`,
      other: `/apps/${ids.appB}`,
      unknown: `/apps/${randomUUID()}`,
      malformed: '/apps/not-a-uuid',
      schema: APP,
    },
    {
      name: 'GET /identity-providers/:id?',
      list: '/identity-providers',
      one: `/identity-providers/${ids.idpA1}`,
      other: `/identity-providers/${ids.idpB}`,
      unknown: `/identity-providers/${randomUUID()}`,
      malformed: '/identity-providers/%20no%20such%20provider',
      schema: IDENTITY_PROVIDER,
    },
    {
      name: 'GET /tenants/:id?',
      list: '/tenants',
      one: `/tenants/${A.id}`,
      other: `/tenants/${B.id}`,
      unknown: `/tenants/${randomUUID()}`,
      malformed: '/tenants/123',
      schema: TENANT,
    },
    {
      name: 'GET /tenants/:tenant_id/apps/:app_id?',
      list: `/tenants/${A.id}/apps`,
      one: `/tenants/${A.id}/apps/${ids.devApp}`,
      other: `/tenants/${B.id}/apps`,
      unknown: `/tenants/${randomUUID()}/apps`,
      malformed: `/tenants/${A.id}/apps/xyz`,
      schema: DEPLOYMENT,
    },
    {
      name: 'GET /tenants/:id/constituencies',
      list: `/tenants/${A.id}/constituencies`,
      other: `/tenants/${B.id}/constituencies`,
      unknown: `/tenants/${randomUUID()}/constituencies`,
      malformed: '/tenants/nope/constituencies',
      schema: CONSTITUENCY,
    },
    {
      name: 'GET /tenants/:id/users',
      list: `/tenants/${A.id}/users`,
      other: `/tenants/${B.id}/users`,
      unknown: `/tenants/${randomUUID()}/users`,
      malformed: `/tenants/${A.id.slice(0, 35)}/users`,
      schema: TENANT_USER,
    },
    {
      name: 'GET /users/:email?',
      list: '/users',
      one: `/users/${u1.email}`,
      other: `/users/${u3.email}`,
      unknown: '/users/nobody@school.example',
      malformed: '/users/not-an-email',
      schema: USER,
    },
    {
      name: 'GET /tenants/:id/sign-ins',
      list: `/tenants/${A.id}/sign-ins`,
      other: `/tenants/${B.id}/sign-ins`,
      unknown: `/tenants/${randomUUID()}/sign-ins`,
      malformed: '/tenants/nope/sign-ins',
      schema: SIGN_IN_EVENT,
    },
    {
      name: 'GET /vanity-domains/:domain?',
      list: '/vanity-domains',
      one: `/vanity-domains/${ids.domainA}`,
      other: `/vanity-domains/${ids.domainC}`,
      unknown: '/vanity-domains/unknown.alpha.example',
      malformed: '/vanity-domains/not_a_domain',
      schema: VANITY_DOMAIN,
    },
  ];

  describe.each([0, 1, 2, 3, 4, 5, 6, 7, 8])('endpoint %#', (i) => {
    const ep = () => endpoints()[i];

    it('answers the spec shape to a tenant-core.readonly token (collection and one id, both arrays)', async () => {
      const list = await get(ep().list, tokens.aRead).expect(200);
      expectArrayOf(ep().schema, list.body);
      if (ep().one) {
        const one = await get(ep().one as string, tokens.aRead).expect(200);
        expectArrayOf(ep().schema, one.body);
        expect(one.body).toHaveLength(1);
      }
    });

    it('accepts tenant-core.write for reading', async () => {
      const res = await get(ep().list, tokens.aWrite).expect(200);
      expectArrayOf(ep().schema, res.body);
    });

    it('401 without a token', async () => {
      expectError(await get(ep().list), 401, 'invalid_token');
    });

    it('401 with a bad token (garbage, or signed by a key the service does not know)', async () => {
      expectError(await get(ep().list, 'not-a-jwt'), 401, 'invalid_token');
      const issuer = await new TestIssuer('http://identity.test').start();
      try {
        const forged = await issuer.mint({ scopes: [uri('id.tenant-core.readonly')], tenantId: A.id });
        expectError(await get(ep().list, forged), 401, 'invalid_token');
      } finally {
        await issuer.stop();
      }
    });

    it('403 with a token lacking every accepted scope', async () => {
      expectError(await get(ep().list, tokens.aRoster), 403, 'insufficient_scope');
    });

    it('404 for another tenant\u2019s id, an unknown id and a malformed id (the same answer)', async () => {
      const answers = [];
      for (const path of [ep().other, ep().unknown, ep().malformed]) {
        const res = await get(path, tokens.aRead);
        expectError(res, 404, 'not_found');
        answers.push(res.body);
      }
      // Other tenant's id and unknown id are indistinguishable.
      expect(answers[0]).toEqual(answers[1]);
    });
  });

  describe('apps', () => {
    it('a tenant token sees the apps its tenant owns (oauth2 and saml shapes), not apps merely deployed at it', async () => {
      const res = await get('/apps', tokens.aRead).expect(200);
      expectArrayOf(APP, res.body);
      expect(res.body.map((a: { id: string }) => a.id).sort()).toEqual([ids.appA, ids.samlApp].sort());
      const saml = res.body.find((a: { id: string }) => a.id === ids.samlApp);
      expect(saml).toMatchObject({
        owner: { type: 'tenant', id: A.id },
        auth_type: 'saml',
        saml: { relay_state: null, metadata_xml: SAML_METADATA },
      });
      expect(saml).not.toHaveProperty('oauth2');
      const oauth = res.body.find((a: { id: string }) => a.id === ids.appA);
      expect(oauth).toEqual({
        id: ids.appA,
        name: 'Alpha Helpdesk',
        owner: { type: 'tenant', id: A.id },
        auth_type: 'oauth2',
        oauth2: { redirect_uris: ['https://app.example/callback'] },
      });
    });

    it('a developer token sees its developer\u2019s apps, with apps.readonly or apps.write', async () => {
      for (const token of [tokens.dev1, tokens.dev1Write]) {
        const res = await get('/apps', token).expect(200);
        expectArrayOf(APP, res.body);
        expect(
          res.body.every(
            (a: { owner: { type: string; id: string } }) => a.owner.type === 'developer' && a.owner.id === ids.dev1,
          ),
        ).toBe(true);
        expect(res.body.map((a: { id: string }) => a.id)).toContain(ids.devApp);
      }
      const one = await get(`/apps/${ids.devApp}`, tokens.dev1).expect(200);
      expect(one.body).toEqual([expect.objectContaining({ id: ids.devApp, name: 'Roster Sync' })]);
      for (const other of [ids.dev2App, ids.appA])
        expectError(await get(`/apps/${other}`, tokens.dev1), 404, 'not_found');
    });

    it('a tenant token holding only apps.* scopes is refused (apps.* is for developer context)', async () => {
      expectError(await get('/apps', tokens.aAppsScope), 403, 'insufficient_scope');
    });
  });

  describe('identity providers', () => {
    it('lists the core providers the tenant\u2019s constituencies allow, then its own providers', async () => {
      const res = await get('/identity-providers', tokens.aRead).expect(200);
      expectArrayOf(IDENTITY_PROVIDER, res.body);
      expect(res.body.map((p: { id: string }) => p.id)).toEqual(['google', ids.idpA1, ids.idpA2]);
      expectArrayOf(CORE_IDENTITY_PROVIDER, [res.body[0]]);
      expect(Object.keys(res.body[0]).sort()).toEqual(['button_graphic', 'id']);
      expectArrayOf(TENANT_IDENTITY_PROVIDER, res.body.slice(1));
      expect(res.body[1]).toMatchObject({ type: 'oauth2', tenant: A.id, oauth2: expect.any(Object) });
      expect(res.body[2]).toMatchObject({
        type: 'lti1.3',
        tenant: A.id,
        provision_just_in_time: true,
        lti: expect.any(Object),
      });
      expect(res.body[2]).not.toHaveProperty('oauth2');
    });

    it('names a core provider by its string id, only when in use by the tenant', async () => {
      const google = await get('/identity-providers/google', tokens.aRead).expect(200);
      expect(google.body).toEqual([{ id: 'google', button_graphic: expect.stringContaining('<svg') }]);
      expectError(await get('/identity-providers/microsoft', tokens.aRead), 404, 'not_found');
      const b = await get('/identity-providers/microsoft', tokens.bRead).expect(200);
      expect(b.body[0].id).toBe('microsoft');
    });

    it('refuses developer-context tokens', async () => {
      expectError(await get('/identity-providers', tokens.dev1), 403, 'insufficient_scope');
    });
  });

  describe('tenants', () => {
    it('a tenant token sees exactly its own tenant, with the region object from the regions table', async () => {
      const res = await get('/tenants', tokens.aRead).expect(200);
      expect(res.body).toEqual([
        {
          id: A.id,
          name: 'Alpha School',
          customer_id: A.customerId,
          govt_id: A.govtId,
          environment: 'PRODUCTION',
          status: 'NORMAL',
          region: {
            id: 'SG',
            name: 'Singapore',
            provider: 'aws',
            provider_region_id: 'ap-southeast-1',
            region: 'Singapore',
            region_code: 'SG',
            country: 'Singapore',
            country_code: 'SG',
          },
        },
      ]);
      // Upper-case form of the own id is the same id.
      await get(`/tenants/${A.id.toUpperCase()}`, tokens.aRead).expect(200);
    });

    it('the operator sees every tenant, with licences and root org', async () => {
      const res = await get('/tenants', tokens.operator).expect(200);
      expect(res.body.map((t: { id: string }) => t.id)).toEqual(expect.arrayContaining([A.id, B.id, C.id]));
      const b = await get(`/tenants/${B.id}`, tokens.operator).expect(200);
      expect(b.body[0]).toMatchObject({ id: B.id, licences: ['data-operations'], root_org_sourced_id: null });
    });

    it('refuses developer-context tokens', async () => {
      expectError(await get('/tenants', tokens.dev1), 403, 'insufficient_scope');
    });
  });

  describe('deployments', () => {
    it('lists the apps deployed by the tenant with their scopes and an app summary', async () => {
      const res = await get(`/tenants/${A.id}/apps/${ids.devApp}`, tokens.aRead).expect(200);
      expect(res.body).toEqual([
        {
          deployment_id: ids.depA,
          app_id: ids.devApp,
          tenant_id: A.id,
          scope: [uri('roster-core.readonly'), uri('id.tenant-core.readonly')],
          app: { id: ids.devApp, name: 'Roster Sync' },
          settings: { oneroster_date_format: 'compact', oneroster_booleans: 'string', oneroster_profile: 'strict' },
        },
      ]);
      const all = await get(`/tenants/${A.id}/apps`, tokens.aRead).expect(200);
      expect(all.body.every((d: { tenant_id: string }) => d.tenant_id === A.id)).toBe(true);
    });

    it('an app that exists but is not deployed at the tenant answers 404', async () => {
      expectError(await get(`/tenants/${A.id}/apps/${ids.appB}`, tokens.aRead), 404, 'not_found');
    });
  });

  describe('constituencies, tenant-users and users', () => {
    it('lists the tenant\u2019s constituencies', async () => {
      const res = await get(`/tenants/${A.id}/constituencies`, tokens.aRead).expect(200);
      expect(res.body).toEqual([
        {
          id: 'staff',
          name: 'Staff',
          enable_self_service_provisioning: false,
          allowed_identity_providers: ['google', ids.idpA1],
        },
        {
          id: 'student',
          name: 'Student',
          enable_self_service_provisioning: false,
          allowed_identity_providers: ['google'],
        },
      ]);
    });

    it('lists the tenant-user records with the user summary', async () => {
      const res = await get(`/tenants/${A.id}/users`, tokens.aRead).expect(200);
      expect(res.body.map((l: { user_email: string }) => l.user_email).sort()).toEqual([u1.email, u2.email].sort());
      const first = res.body.find((l: { user_email: string }) => l.user_email === u1.email);
      expect(first).toEqual({
        user_email: u1.email,
        tenant_id: A.id,
        constituencies: ['staff'],
        user: { id: u1.id, email: u1.email, name: u1.name, nickname: u1.nickname, picture: u1.picture },
      });
    });

    it('lists users linked to the tenant; identifiers at another tenant\u2019s providers are not shown', async () => {
      const res = await get('/users', tokens.aRead).expect(200);
      expect(res.body.map((u: { email: string }) => u.email).sort()).toEqual([u1.email, u2.email].sort());
      const shared = await get(`/users/${u2.email.toUpperCase()}`, tokens.aRead).expect(200);
      expect(shared.body[0].idp_identifiers.map((i: { idp_id: string }) => i.idp_id)).toEqual(['microsoft']);
      const fromB = await get(`/users/${u2.email}`, tokens.bRead).expect(200);
      expect(fromB.body[0].idp_identifiers.map((i: { idp_id: string }) => i.idp_id)).toEqual([ids.idpB, 'microsoft']);
      const own = await get(`/users/${u1.email}`, tokens.aRead).expect(200);
      expect(own.body[0].idp_identifiers.map((i: { idp_id: string }) => i.idp_id)).toEqual(['google', ids.idpA1]);
    });
  });

  describe('vanity domains', () => {
    it('returns the whole brand configuration', async () => {
      const res = await get(`/vanity-domains/${ids.domainA.toUpperCase()}`, tokens.aRead).expect(200);
      expect(res.body).toHaveLength(1);
      expect(res.body[0]).toMatchObject({
        domain: ids.domainA,
        owner: { type: 'tenant', id: A.id },
        tenants: [A.id],
        status: 'PENDING_DNS',
      });
      expect(res.body[0].brand_configuration.background).toEqual({
        color: { dark: '#0b1f3a', light: '#f5f7fa' },
        gradient: { from: '#0b1f3a', via: null, to: '#1d4ed8' },
        image: TEST_SVG,
        position: 'center',
        repeat: 'no-repeat',
        size: 'cover',
      });
    });

    it('403 licence_required without the advanced licence, whatever the domain', async () => {
      for (const path of ['/vanity-domains', `/vanity-domains/${ids.domainB}`, '/vanity-domains/unknown.example']) {
        expectError(await get(path, tokens.bRead), 403, 'licence_required');
      }
    });
  });

  it('no tenant token ever sees another tenant\u2019s object through any read endpoint', async () => {
    const foreign = [B.id, C.id, ids.appB, ids.idpB, u3.id, u3.email, ids.domainB, ids.domainC];
    for (const ep of endpoints()) {
      for (const path of [ep.list, ep.one].filter(Boolean) as string[]) {
        const res = await get(path, tokens.aRead);
        const text = JSON.stringify(res.body);
        for (const f of foreign) expect(text).not.toContain(f);
      }
    }
  });
});
