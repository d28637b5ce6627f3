import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { generateKeyPair, SignJWT } from 'jose';
import { KeyEncryption } from '@edu/signing';
import { expectError, TEST_SVG, type CreatedApp } from '@edu/testing';
import {
  oauth2Settings as settingsOf,
  SchoolAdmin,
  TestUpstream,
  type IdTokenTamper,
  type SignInRow,
  type UpstreamPerson,
} from '@edu/testing/sign-in';
import type { ScopeKey } from '@edu/domain';
import type { TenantEntity } from '@edu/persistence';
import type { Request } from 'express';
import {
  identifierIdFor,
  PortalPrefetch,
  TenantProviderDirectory,
  UpstreamProviders,
  withRequestReads,
} from '@edu/sign-in';
import { SignInLogRetention } from '@edu/sign-in';
import { uri } from './support/harness';
import { RP_REDIRECT, SignInHarness, type RelyingParty } from './support/sign-in-harness';
import { subjectFor } from '@edu/sign-in';

const SECRET = 'tenant-idp-secret-7f3a9c';

describe('sign-in: tenants’ own oauth2 providers, just-in-time provisioning, the sign-in log', () => {
  let h: SignInHarness;
  let school: TenantEntity;
  let other: TenantEntity;
  let partner: CreatedApp;
  let rp: RelyingParty;
  let idp: TestUpstream;
  let admin: SchoolAdmin;
  const tokens: Record<string, string> = {};
  const providers: Record<'jit' | 'noJit' | 'jitStaff', string> = { jit: '', noJit: '', jitStaff: '' };

  /** Forged upstream ID tokens: each must be refused. */
  const forged: [string, IdTokenTamper][] = [
    ['wrong audience', async (_t, o) => o.signWithRealKey({ ...o.payload, aud: 'someone-else' })],
    ['wrong issuer', async (_t, o) => o.signWithRealKey({ ...o.payload, iss: 'https://evil.example' })],
    ['wrong nonce', async (_t, o) => o.signWithRealKey({ ...o.payload, nonce: 'replayed' })],
    ['expired', async (_t, o) => o.signWithRealKey({ ...o.payload, iat: 1_000_000, exp: 1_000_100 })],
    [
      'another key',
      async (_t, { payload }) => {
        const { privateKey } = await generateKeyPair('ES256');
        return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid: 'upstream-1' }).sign(privateKey);
      },
    ],
    [
      'alg none',
      async (_t, { payload }) =>
        `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.`,
    ],
  ];

  const http = () => request(h.apps[0].getHttpServer());
  const bearer = (t: string) => ({ Authorization: `Bearer ${t}` });

  const tenantToken = (tenantId: string, keys: ScopeKey[]) =>
    SchoolAdmin.tenantToken(h.world(), h.issuer, tenantId, keys.map(uri));
  const oauth2Settings = (extra: Record<string, unknown> = {}) => settingsOf(idp, 'school-idp', extra);
  const createProvider = (jit: boolean) => admin.addOauth2Provider(oauth2Settings({ client_secret: SECRET }), { jit });

  /** A whole sign-in at the school through one of its own providers, as `person`. */
  function signIn(providerId: string, person: UpstreamPerson) {
    idp.nextPerson = person;
    return h.signIn(rp, person, { params: { tenant: school.id }, provider: providerId });
  }

  const log = (query?: string) => admin.signIns(query);

  beforeAll(async () => {
    h = await SignInHarness.start();
    idp = await TestUpstream.start({
      clientId: 'school-idp',
      clientSecret: SECRET,
      redirectUris: [`${h.issuer}/signin/callback`],
    });
    const w = h.world();
    school = await w.tenant({ name: 'Kampong Primary' });
    other = await w.tenant({ name: 'Other School' });
    partner = await w.app({ type: 'developer', id: (await w.developer()).id }, 'Maths Garden');
    await w.deploy(partner.app.id, school.id, []);
    rp = await h.relyingParty(partner);
    admin = await SchoolAdmin.start(w, h.issuer, school.id, {
      read: uri('id.tenant-core.readonly'),
      write: uri('id.tenant-core.write'),
    });
    Object.assign(tokens, admin.tokens);
    tokens.roster = await tenantToken(school.id, ['roster-core.readonly']);
    tokens.otherRead = await tenantToken(other.id, ['id.tenant-core.readonly']);
    providers.jit = await createProvider(true);
    providers.noJit = await createProvider(false);
    providers.jitStaff = await createProvider(true);
    await admin.constituency('students', [providers.jit], true);
    await admin.constituency('guests', [providers.noJit], true);
    await admin.constituency('staff', [providers.jitStaff], false);
  });

  afterAll(async () => {
    await idp?.stop();
    await h?.stop();
  });

  describe('the write-only client secret', () => {
    it('is never returned by a read, and is stored sealed with the key-encryption key', async () => {
      for (const path of ['/identity-providers', `/identity-providers/${providers.jit}`]) {
        const res = await http().get(path).set(bearer(tokens.read));
        expect(res.status).toBe(200);
        expect(JSON.stringify(res.body)).not.toContain('client_secret');
        expect(JSON.stringify(res.body)).not.toContain(SECRET);
      }
      const [row] = await h.ds.query(`SELECT oauth2, client_secret_encrypted FROM identity_providers WHERE id = $1`, [
        providers.jit,
      ]);
      expect(JSON.stringify(row.oauth2)).not.toContain(SECRET);
      expect(row.client_secret_encrypted).toMatch(/^v1\./);
      expect(row.client_secret_encrypted).not.toContain(SECRET);
      expect(new KeyEncryption(h.env.KEY_ENCRYPTION_KEY).decrypt(row.client_secret_encrypted)).toBe(SECRET);
    });

    it('survives a PATCH that does not name it, and is replaced by one that does', async () => {
      const before = (
        await h.ds.query(`SELECT client_secret_encrypted FROM identity_providers WHERE id = $1`, [providers.noJit])
      )[0].client_secret_encrypted;
      const kept = await http()
        .patch(`/identity-providers/${providers.noJit}`)
        .set(bearer(tokens.write))
        .send({ oauth2: oauth2Settings() });
      expect(kept.status).toBe(200);
      expect(JSON.stringify(kept.body)).not.toContain('client_secret');
      expect(
        (await h.ds.query(`SELECT client_secret_encrypted FROM identity_providers WHERE id = $1`, [providers.noJit]))[0]
          .client_secret_encrypted,
      ).toBe(before);
      const replaced = await http()
        .patch(`/identity-providers/${providers.noJit}`)
        .set(bearer(tokens.write))
        .send({ oauth2: oauth2Settings({ client_secret: SECRET }) });
      expect(replaced.status).toBe(200);
      expect(JSON.stringify(replaced.body)).not.toContain(SECRET);
      const after = (
        await h.ds.query(`SELECT client_secret_encrypted FROM identity_providers WHERE id = $1`, [providers.noJit])
      )[0].client_secret_encrypted;
      expect(after).not.toBe(before);
      expect(new KeyEncryption(h.env.KEY_ENCRYPTION_KEY).decrypt(after)).toBe(SECRET);
    });
  });

  describe('the portal’s batched read', () => {
    it('gives sign-in the school’s own providers as the directory does, without reading them again', async () => {
      const app = h.apps[0];
      const directory = app.get(TenantProviderDirectory);
      const upstream = app.get(UpstreamProviders);
      const prefetch = app.get(PortalPrefetch);
      await admin.call('PATCH', `/identity-providers/${providers.noJit}`, { display_name: 'Kampong guests' });
      // Outside a request: read from the directory.
      const direct = await upstream.forTenant(school.id);
      expect(direct.map((p) => p.id)).toEqual(expect.arrayContaining(Object.values(providers)));
      expect(direct.find((p) => p.id === providers.noJit)).toMatchObject({
        label: 'Kampong guests',
        clientSecret: SECRET,
      });
      const list = jest.spyOn(directory, 'list');
      try {
        const primed = await withRequestReads(async () => {
          const req = { hostname: 'id.example', query: { tenant: school.id } } as unknown as Request;
          await prefetch.load(req, 'no-interaction');
          return upstream.forTenant(school.id);
        });
        expect(primed).toEqual(direct);
        expect(list).not.toHaveBeenCalled();
      } finally {
        list.mockRestore();
      }
      await admin.call('PATCH', `/identity-providers/${providers.noJit}`, { display_name: null });
    });
  });

  describe('signing in through a tenant provider', () => {
    it('signs a known person in end to end (their identifier at the provider maps them); openid-client verifies our ID token', async () => {
      const ada = await h.world().user([school.id], {
        email: 'ada@kampong.example',
        constituencies: ['guests'],
        idpIdentifiers: [{ id: identifierIdFor('idp-ada'), idp_id: providers.noJit }],
      });
      const tokensBefore = idp.tokenRequests;
      const j = await signIn(providers.noJit, { sub: 'idp-ada' });
      expect(j.res.location).toMatch(new RegExp(`^${RP_REDIRECT}\\?code=`));
      expect(idp.tokenRequests).toBe(tokensBefore + 1);
      const claims = (await h.exchange(rp, j)).claims()!;
      expect(claims).toMatchObject({
        iss: h.issuer,
        aud: partner.clientId,
        sub: subjectFor(school.id, ada.id),
        tenant_id: school.id,
        constituencies: ['guests'],
      });
    });

    it('provisions an unknown person just in time (one user, one tenant-user), and maps the next sign-in to them', async () => {
      const person = { sub: 'idp-new-1', email: 'new.pupil@kampong.example', email_verified: true, name: 'New Pupil' };
      const first = await signIn(providers.jit, person);
      expect(first.res.location).toMatch(new RegExp(`^${RP_REDIRECT}\\?code=`));
      const claims = (await h.exchange(rp, first)).claims()!;
      const users = await h.ds.query(`SELECT id FROM users WHERE email = $1`, [person.email]);
      expect(users).toHaveLength(1);
      expect(claims).toMatchObject({
        sub: subjectFor(school.id, users[0].id),
        email: person.email,
        name: 'New Pupil',
        constituencies: ['students'],
      });
      const links = await h.ds.query(
        `SELECT tenant_id, constituencies, idp_identifiers, name FROM tenant_users WHERE user_id = $1`,
        [users[0].id],
      );
      expect(links).toEqual([
        {
          tenant_id: school.id,
          constituencies: ['students'],
          idp_identifiers: [{ id: identifierIdFor('idp-new-1'), idp_id: providers.jit }],
          name: 'New Pupil',
        },
      ]);
      const second = await signIn(providers.jit, { sub: 'idp-new-1' });
      expect((await h.exchange(rp, second)).claims()).toMatchObject({ sub: subjectFor(school.id, users[0].id) });
      expect(await h.ds.query(`SELECT count(*)::int AS n FROM tenant_users WHERE user_id = $1`, [users[0].id])).toEqual(
        [{ n: 1 }],
      );
      expect(await h.ds.query(`SELECT count(*)::int AS n FROM users WHERE email = $1`, [person.email])).toEqual([
        { n: 1 },
      ]);
    });

    it('two first sign-ins of the same new person at once make one person and one tenant-user', async () => {
      const person = { sub: 'idp-twin', email: 'twin@kampong.example', email_verified: true, name: 'Twin' };
      const [a, b] = await Promise.all([signIn(providers.jit, person), signIn(providers.jit, person)]);
      const subs = await Promise.all([a, b].map(async (j) => (await h.exchange(rp, j)).claims()!.sub));
      const users = await h.ds.query(`SELECT id FROM users WHERE email = $1`, [person.email]);
      expect(users).toHaveLength(1);
      expect(subs).toEqual([subjectFor(school.id, users[0].id), subjectFor(school.id, users[0].id)]);
      expect(await h.ds.query(`SELECT count(*)::int AS n FROM tenant_users WHERE user_id = $1`, [users[0].id])).toEqual(
        [{ n: 1 }],
      );
    });

    it.each([
      ['the provider does not provision just in time', () => providers.noJit],
      ['no constituency allowing the provider has self-service provisioning', () => providers.jitStaff],
    ])('refuses an unknown person with “not enrolled” when %s, and creates nothing', async (_case, provider) => {
      const counts = async () =>
        (
          await h.ds.query(
            `SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM tenant_users)::int AS links`,
          )
        )[0];
      const before = await counts();
      const j = await signIn(provider(), {
        sub: `idp-stranger-${provider()}`,
        email: 'stranger@kampong.example',
        email_verified: true,
      });
      expect(j.res.status).toBe(403);
      expect(j.res.body).toContain('is not enrolled at Kampong Primary');
      expect(await counts()).toEqual(before);
      expect(await h.ds.query(`SELECT id FROM users WHERE email = 'stranger@kampong.example'`)).toEqual([]);
    });

    it('does not provision a person whose e-mail the provider did not verify', async () => {
      const j = await signIn(providers.jit, {
        sub: 'idp-unverified',
        email: 'unverified@kampong.example',
        email_verified: false,
      });
      expect(j.res.status).toBe(403);
      expect(await h.ds.query(`SELECT id FROM users WHERE email = 'unverified@kampong.example'`)).toEqual([]);
    });

    it.each(forged)('refuses a forged ID token (%s) with a clear page, creating no one', async (_name, tamper) => {
      idp.tamper = tamper;
      try {
        const j = await signIn(providers.jit, {
          sub: 'idp-forged',
          email: 'forged@kampong.example',
          email_verified: true,
        });
        expect(j.res.status).toBe(502);
        expect(j.res.headers.get('content-type')).toMatch(/^text\/html/);
        expect(j.res.body).toContain('127.0.0.1 did not complete the sign-in');
        expect(j.res.body).not.toMatch(/at .*\.(js|ts)/);
      } finally {
        idp.tamper = undefined;
      }
      expect(await h.ds.query(`SELECT id FROM users WHERE email = 'forged@kampong.example'`)).toEqual([]);
    });

    it('a provider whose token endpoint refuses our secret is a clear page, not a stack trace', async () => {
      const wrong = await http()
        .patch(`/identity-providers/${providers.noJit}`)
        .set(bearer(tokens.write))
        .send({ oauth2: oauth2Settings({ client_secret: 'not-the-secret' }) });
      expect(wrong.status).toBe(200);
      try {
        const j = await signIn(providers.noJit, { sub: 'idp-ada' });
        expect(j.res.status).toBe(502);
        expect(j.res.body).toContain('did not complete the sign-in');
      } finally {
        await http()
          .patch(`/identity-providers/${providers.noJit}`)
          .set(bearer(tokens.write))
          .send({ oauth2: oauth2Settings({ client_secret: SECRET }) });
      }
    });

    it('a provider whose discovery document names another issuer is refused before anyone is sent there', async () => {
      // A discovery document copied from the real provider, but claiming another issuer.
      const real = (await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json()) as Record<
        string,
        unknown
      >;
      const liar = createServer((_req, res) =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ ...real, issuer: 'https://evil.example' })),
      );
      await new Promise<void>((r) => liar.listen(0, '127.0.0.1', r));
      const liarUrl = `http://127.0.0.1:${(liar.address() as AddressInfo).port}/.well-known/openid-configuration`;
      try {
        const res = await http()
          .post('/identity-providers')
          .set(bearer(tokens.write))
          .send({
            button_graphic: TEST_SVG,
            provision_just_in_time: false,
            type: 'oauth2',
            oauth2: oauth2Settings({ oidc_discovery: liarUrl }),
          });
        const bad = res.body.id as string;
        await http()
          .patch(`/tenants/${school.id}/constituencies/guests`)
          .set(bearer(tokens.write))
          .send({
            name: 'guests',
            enable_self_service_provisioning: true,
            allowed_identity_providers: [providers.noJit, bad],
          });
        const j = await signIn(bad, { sub: 'idp-ada' });
        expect(j.res.status).toBe(502);
        expect(j.res.body).toContain('cannot be reached right now');
        const [last] = await log('limit=1');
        expect(last).toMatchObject({ outcome: 'refused', reason: 'upstream_error', provider_id: bad });
      } finally {
        liar.close();
      }
    });
  });

  describe('GET /tenants/:id/sign-ins', () => {
    const path = () => `/tenants/${school.id}/sign-ins`;

    it('answers 401 without a token or with a bad one, 403 without the scope, 404 for another tenant', async () => {
      expectError(await http().get(path()), 401, 'invalid_token');
      expectError(await http().get(path()).set(bearer('not-a-jwt')), 401, 'invalid_token');
      expectError(await http().get(path()).set(bearer(tokens.roster)), 403, 'insufficient_scope');
      expectError(await http().get(path()).set(bearer(tokens.otherRead)), 404, 'not_found');
      expectError(await http().get(`/tenants/${other.id}/sign-ins`).set(bearer(tokens.read)), 404, 'not_found');
      expectError(await http().get('/tenants/not-a-uuid/sign-ins').set(bearer(tokens.read)), 404, 'not_found');
    });

    it('records every success and refusal at the school, newest first, with tenant, app, provider, user or reason', async () => {
      const rows = await log();
      expect(rows.every((r) => r.tenant_id === school.id && r.app_id === partner.app.id)).toBe(true);
      const times = rows.map((r) => r.time);
      expect([...times].sort().reverse()).toEqual(times);
      const outcome = (r: SignInRow) => `${r.outcome}:${r.reason}`;
      expect(rows.map(outcome)).toEqual(
        expect.arrayContaining([
          'success:null',
          'success:provisioned',
          'refused:not_enrolled',
          'refused:upstream_error',
        ]),
      );
      expect(
        rows.filter((r) => r.outcome === 'success').every((r) => r.user_id !== null && r.provider_id !== null),
      ).toBe(true);
      expect(rows.filter((r) => r.outcome === 'refused').every((r) => r.user_id === null)).toBe(true);
      // The forged ID tokens, a refused secret, a lying discovery document.
      expect(rows.filter((r) => r.reason === 'upstream_error').length).toBeGreaterThanOrEqual(forged.length + 2);
      // The other tenant saw none of it.
      const theirs = await http().get(`/tenants/${other.id}/sign-ins`).set(bearer(tokens.otherRead));
      expect(theirs.status).toBe(200);
      expect(theirs.body).toEqual([]);
      expect(theirs.headers.link).toBeUndefined();
    });

    it('logs an app not deployed at the school as a refusal there', async () => {
      const stranger = await h.world().app({ type: 'developer', id: (await h.world().developer()).id }, 'Stranger');
      const strangerRp = await h.relyingParty(stranger);
      const j = await h.signIn(strangerRp, { sub: 'x' }, { params: { tenant: school.id } });
      expect(j.res.status).toBe(403);
      const [last] = await log('limit=1');
      expect(last).toMatchObject({
        outcome: 'refused',
        reason: 'app_not_deployed',
        app_id: stranger.app.id,
        provider_id: null,
        user_id: null,
      });
    });

    it('pages with limit and cursor, the next page in Link: every row once, in order', async () => {
      const all = await log();
      expect(all.length).toBeGreaterThan(5);
      const seen: SignInRow[] = [];
      let next: string | undefined = `${path()}?limit=2`;
      while (next) {
        const res: request.Response = await http().get(next).set(bearer(tokens.read));
        expect(res.status).toBe(200);
        expect(res.body.length).toBeLessThanOrEqual(2);
        seen.push(...res.body);
        next = /^<([^>]+)>; rel="next"$/.exec(res.headers.link ?? '')?.[1];
        if (next) expect(next).toMatch(new RegExp(`^/tenants/${school.id}/sign-ins\\?limit=2&cursor=`));
      }
      expect(seen.map((r) => r.id)).toEqual(all.map((r) => r.id));
    });

    it('keeps sign-ins for SIGNIN_LOG_RETENTION_DAYS (365 by default), then deletes them', async () => {
      const [old] = await h.ds.query(
        `INSERT INTO sign_in_events (tenant_id, outcome, reason, created_at) VALUES ($1, 'refused', 'not_enrolled', now() - interval '366 days') RETURNING id`,
        [school.id],
      );
      const before = await log();
      expect(before.map((r) => r.id)).toContain(old.id);
      expect(await h.apps[0].get(SignInLogRetention).sweep()).toBe(1);
      expect((await log()).map((r) => r.id)).toEqual(before.map((r) => r.id).filter((id) => id !== old.id));
    });

    it.each([
      'limit=0',
      'limit=101',
      'limit=abc',
      'cursor=not-a-cursor',
      `cursor=${Buffer.from('2026-01-01T00:00:00Z|nope').toString('base64url')}`,
    ])('refuses %s with 400', async (query) => {
      expectError(await http().get(`${path()}?${query}`).set(bearer(tokens.read)), 400, 'validation_failed');
    });
  });
});
