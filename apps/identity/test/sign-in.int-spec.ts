import { JwtVerifier } from 'aws-jwt-verify';
import { generateKeyPair, SignJWT } from 'jose';
import * as oidc from 'openid-client';
import type { CreatedApp } from '@edu/testing';
import { CookieBrowser, FORM_HEADERS, nextStop, providerChoice, SchoolAdmin } from '@edu/testing/sign-in';
import type { TenantEntity } from '@edu/persistence';
import { identifierIdFor } from '@edu/sign-in';
import { uri } from './support/harness';
import { RP_REDIRECT, SignInHarness, type RelyingParty } from './support/sign-in-harness';
import { subjectFor } from '@edu/sign-in';

const header = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[0], 'base64url').toString()) as Record<string, unknown>;

describe('sign-in: OpenID Connect provider with a core upstream provider', () => {
  let h: SignInHarness;
  let tenant: TenantEntity;
  let other: TenantEntity;
  let partner: CreatedApp;
  let rp: RelyingParty;
  let ada: { id: string; email: string; name: string };
  let ben: { id: string; email: string };

  beforeAll(async () => {
    h = await SignInHarness.start({ replicas: 2 });
    const w = h.world();
    tenant = await w.tenant({ name: 'Lion City Primary' });
    other = await w.tenant({ name: 'Harbour High' });
    partner = await w.app({ type: 'developer', id: (await w.developer()).id }, 'Reading Buddy');
    await w.deploy(partner.app.id, tenant.id, []);
    await w.constituency(tenant.id, 'staff', ['google']);
    await w.constituency(tenant.id, 'students', ['microsoft']);
    ada = await w.user([tenant.id], { email: 'ada@lioncity.example', constituencies: ['staff'] });
    ben = await w.user([tenant.id], { email: 'ben@lioncity.example', constituencies: ['students'] });
    rp = await h.relyingParty(partner);
  });

  afterAll(async () => {
    await h?.stop();
  });

  /** Ada's subject at Lion City Primary: a sub per person and school, never the user id. */
  const adaSub = () => subjectFor(tenant.id, ada.id);
  const person = (sub: string, email: string, verified = true) => ({
    sub,
    email,
    email_verified: verified,
    name: `Upstream ${sub}`,
  });

  it('publishes discovery: issuer, PKCE S256, ES256, the tenant scope, and the global JWKS', async () => {
    const doc = (await (await fetch(`${h.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(doc).toMatchObject({
      issuer: h.issuer,
      authorization_endpoint: `${h.issuer}/oidc/auth`,
      token_endpoint: `${h.issuer}/oidc/token`,
      userinfo_endpoint: `${h.issuer}/oidc/me`,
      jwks_uri: `${h.issuer}/.well-known/jwks.json`,
      end_session_endpoint: `${h.issuer}/oidc/session/end`,
      revocation_endpoint: `${h.issuer}/oidc/token/revocation`,
      introspection_endpoint: `${h.issuer}/oidc/token/introspection`,
      code_challenge_methods_supported: ['S256'],
      id_token_signing_alg_values_supported: ['ES256'],
      response_types_supported: ['code'],
    });
    expect(doc.scopes_supported).toEqual(
      expect.arrayContaining(['openid', 'profile', 'email', 'tenant', 'offline_access']),
    );
    expect(doc.claims_supported).toEqual(
      expect.arrayContaining(['tenant_id', 'tenant_name', 'constituencies', 'email']),
    );
    expect(doc.token_endpoint_auth_methods_supported).toEqual(
      expect.arrayContaining(['client_secret_basic', 'client_secret_post']),
    );
    const jwks = (await (await fetch(`${h.issuer}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] };
    expect(jwks.keys.map((k) => k.kid)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^id-/),
        expect.stringMatching(/^at-/),
        expect.stringMatching(/^wh-/),
      ]),
    );
  });

  it('signs a person in end to end; openid-client and an independent library verify the ID token; userinfo answers the claims', async () => {
    const j = await h.signIn(rp, person('g-ada-1', 'ada@lioncity.example'), { params: { tenant: tenant.id } });
    expect(j.res.location).toMatch(new RegExp(`^${RP_REDIRECT}\\?code=`));
    const tokens = await h.exchange(rp, j);
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({
      iss: h.issuer,
      aud: partner.clientId,
      sub: adaSub(),
      email: 'ada@lioncity.example',
      email_verified: true,
      name: ada.name,
      tenant_id: tenant.id,
      tenant_name: 'Lion City Primary',
      constituencies: ['staff'],
    });
    expect(header(tokens.id_token!)).toMatchObject({ alg: 'ES256', kid: expect.stringMatching(/^id-/) });
    // An independent verifier (not openid-client / jose) with the JWKS from our discovery.
    const verifier = JwtVerifier.create({
      issuer: h.issuer,
      audience: partner.clientId,
      jwksUri: `${h.issuer}/.well-known/jwks.json`,
    });
    verifier.cacheJwks((await (await fetch(`${h.issuer}/.well-known/jwks.json`)).json()) as never);
    expect(verifier.verifySync(tokens.id_token!)).toMatchObject({ sub: adaSub(), tenant_id: tenant.id });
    const info = await oidc.fetchUserInfo(rp.config, tokens.access_token, adaSub());
    expect(info).toMatchObject({
      sub: adaSub(),
      email: 'ada@lioncity.example',
      tenant_id: tenant.id,
      constituencies: ['staff'],
    });
    // The e-mail match recorded the identifier: the next sign-in maps by it, even without an e-mail.
    const [row] = await h.ds.query(`SELECT idp_identifiers FROM tenant_users WHERE tenant_id = $1 AND user_id = $2`, [
      tenant.id,
      ada.id,
    ]);
    expect(row.idp_identifiers).toEqual([{ id: identifierIdFor('g-ada-1'), idp_id: 'google' }]);
    const again = await h.signIn(rp, { sub: 'g-ada-1' }, { params: { tenant: tenant.id } });
    expect((await h.exchange(rp, again)).claims()).toMatchObject({ sub: adaSub() });
  });

  it('completes a sign-in whose steps hop between two replicas on one database', async () => {
    const ports = [h.replica(0), h.replica(1)];
    const hop = (url: string, step: number) =>
      url.startsWith(h.issuer) ? ports[step % 2] + url.slice(h.issuer.length) : url;
    const j = await h.signIn(rp, person('g-ada-1', ada.email), { params: { tenant: tenant.id }, hop });
    expect(j.res.location).toMatch(/\?code=/);
    const second = {
      ...rp,
      config: await oidc.discovery(
        new URL(h.issuer),
        partner.clientId,
        undefined,
        oidc.ClientSecretPost(partner.clientSecret),
        { execute: [oidc.allowInsecureRequests] },
      ),
    };
    const tokens = await h.exchange(second, j);
    expect(tokens.claims()).toMatchObject({ sub: adaSub() });
    const info = await fetch(`${ports[1]}/oidc/me`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect(await info.json()).toMatchObject({ sub: adaSub() });
  });

  it('issues rotating refresh tokens (offline_access with prompt=consent); a used one is refused', async () => {
    const j = await h.signIn(rp, person('g-ada-1', ada.email), {
      params: { tenant: tenant.id, scope: 'openid tenant offline_access', prompt: 'consent' },
    });
    const tokens = await h.exchange(rp, j);
    expect(tokens.refresh_token).toBeDefined();
    const next = await oidc.refreshTokenGrant(rp.config, tokens.refresh_token!);
    expect(next.refresh_token).toBeDefined();
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    expect(next.claims()).toMatchObject({ sub: adaSub(), tenant_id: tenant.id });
    await expect(oidc.refreshTokenGrant(rp.config, tokens.refresh_token!)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('introspects and revokes the app’s own tokens only', async () => {
    const tokens = await h.exchange(
      rp,
      await h.signIn(rp, person('g-ada-1', ada.email), { params: { tenant: tenant.id } }),
    );
    expect(await oidc.tokenIntrospection(rp.config, tokens.access_token)).toMatchObject({
      active: true,
      sub: adaSub(),
      client_id: partner.clientId,
    });
    const w = h.world();
    const stranger = await w.app({ type: 'developer', id: (await w.developer()).id }, 'Stranger');
    const strangerRp = await h.relyingParty(stranger);
    expect(await oidc.tokenIntrospection(strangerRp.config, tokens.access_token)).toMatchObject({ active: false });
    await oidc.tokenRevocation(rp.config, tokens.access_token);
    expect(await oidc.tokenIntrospection(rp.config, tokens.access_token)).toMatchObject({ active: false });
    await expect(oidc.fetchUserInfo(rp.config, tokens.access_token, adaSub())).rejects.toBeDefined();
  });

  it('logs out through RP-initiated logout (a confirmation form with the provider’s xsrf value)', async () => {
    const j = await h.signIn(rp, person('g-ada-1', ada.email), { params: { tenant: tenant.id } });
    const tokens = await h.exchange(rp, j);
    const url = oidc.buildEndSessionUrl(rp.config, {
      id_token_hint: tokens.id_token!,
      post_logout_redirect_uri: RP_REDIRECT,
      state: 'bye',
    });
    const page = await j.browser.get(url.href);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)![1];
    const done = await j.browser.request(`${h.issuer}/oidc/session/end/confirm`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `xsrf=${xsrf}&logout=yes`,
    });
    expect(done.location).toBe(`${RP_REDIRECT}?state=bye`);
  });

  describe('refusals', () => {
    it('an unregistered redirect_uri gets the provider’s error page, never a redirect', async () => {
      const { url } = await h.authorizationUrl(rp, { redirect_uri: 'https://evil.example/callback' });
      const res = await new CookieBrowser().get(url.href);
      expect(res.status).toBe(400);
      expect(res.location).toBeUndefined();
      expect(res.body).toContain('redirect_uri');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    });

    it.each([
      ['missing', { code_challenge: '', code_challenge_method: '' }],
      ['plain', { code_challenge_method: 'plain' }],
    ])('%s PKCE is refused with the protocol error at the redirect URI', async (_name, params) => {
      const { url } = await h.authorizationUrl(rp, params);
      if (!params.code_challenge_method) {
        url.searchParams.delete('code_challenge');
        url.searchParams.delete('code_challenge_method');
      }
      const res = await new CookieBrowser().get(url.href);
      expect(res.location).toMatch(new RegExp(`^${RP_REDIRECT}\\?error=invalid_request`));
    });

    it('a replayed code is refused (invalid_grant), and so are the tokens it gave', async () => {
      const j = await h.signIn(rp, person('g-ada-1', ada.email), { params: { tenant: tenant.id } });
      const tokens = await h.exchange(rp, j);
      await expect(h.exchange(rp, j)).rejects.toMatchObject({ error: 'invalid_grant' });
      expect(await oidc.tokenIntrospection(rp.config, tokens.access_token)).toMatchObject({ active: false });
    });

    it('a wrong client secret is refused (invalid_client)', async () => {
      const j = await h.signIn(rp, person('g-ada-1', ada.email), { params: { tenant: tenant.id } });
      const bad = await h.relyingParty({ ...partner, clientSecret: 'not-the-secret' });
      const err = (await h.exchange(bad, j).catch((e: unknown) => e)) as {
        status?: number;
        cause?: { parameters?: { error?: string } }[];
      };
      expect(err.status).toBe(401);
      expect(err.cause?.[0]?.parameters?.error).toBe('invalid_client');
    });

    it('an app not deployed at the school gets a clear page', async () => {
      const j = await h.signIn(rp, person('g-ada-1', ada.email), { params: { tenant: other.id } });
      expect(j.res.status).toBe(403);
      expect(j.res.body).toContain('Reading Buddy is not available at Harbour High');
    });

    it('a person not enrolled at the school, or without a verified e-mail, gets the “not enrolled” page', async () => {
      for (const who of [person('g-zed', 'zed@elsewhere.example'), person('g-ada-2', 'ada@lioncity.example', false)]) {
        const j = await h.signIn(rp, who, { params: { tenant: tenant.id } });
        expect(j.res.status).toBe(403);
        expect(j.res.body).toContain('is not enrolled at Lion City Primary');
      }
    });

    it('a provider the person’s constituency does not allow is refused', async () => {
      const j = await h.signIn(rp, person('g-ben', ben.email), { params: { tenant: tenant.id } });
      expect(j.res.status).toBe(403);
      expect(j.res.body).toContain('does not let your group sign in with Google');
    });

    it('a person removed from the school is refused, although their upstream identifier was recorded at the first sign-in', async () => {
      const cal = await h
        .world()
        .user([tenant.id, other.id], { email: 'cal@lioncity.example', constituencies: ['staff'] });
      const first = await h.signIn(rp, person('g-cal', cal.email), { params: { tenant: tenant.id } });
      expect(first.res.location).toMatch(new RegExp(`^${RP_REDIRECT}\\?code=`));
      const admin = await SchoolAdmin.start(h.world(), h.issuer, tenant.id, {
        read: uri('id.tenant-core.readonly'),
        write: uri('id.tenant-core.write'),
      });
      expect((await admin.call('DELETE', `/tenants/${tenant.id}/users/${encodeURIComponent(cal.email)}`)).status).toBe(
        204,
      );
      const again = await h.signIn(rp, person('g-cal', cal.email), { params: { tenant: tenant.id } });
      expect(again.res.status).toBe(403);
      expect(again.res.body).toContain('is not enrolled at Lion City Primary');
    });

    it('logout never redirects to an unregistered post_logout_redirect_uri (no open redirect)', async () => {
      const j = await h.signIn(rp, person('g-ada-1', ada.email), { params: { tenant: tenant.id } });
      const tokens = await h.exchange(rp, j);
      const url = oidc.buildEndSessionUrl(rp.config, {
        id_token_hint: tokens.id_token!,
        post_logout_redirect_uri: 'https://evil.example/bye',
      });
      const res = await j.browser.get(url.href);
      expect(res.status).toBe(400);
      expect(res.location).toBeUndefined();
      expect(res.body).toContain('post_logout_redirect_uri');
    });

    it('a provider’s answer opened in another browser (mixed-up state) is refused', async () => {
      const { url } = await h.authorizationUrl(rp, { tenant: tenant.id });
      h.upstream.nextPerson = { sub: 'g-ada-1' };
      const victim = new CookieBrowser();
      const page = await victim.follow(url.href);
      const choice = providerChoice(page.body, 'google')!;
      const started = await victim.request(`${h.issuer}${choice.action}`, {
        method: 'POST',
        headers: FORM_HEADERS,
        body: choice.body,
      });
      const back = await victim.follow(nextStop(started)!, (next) => next.startsWith(`${h.issuer}/signin/callback`));
      const attacker = new CookieBrowser();
      const res = await attacker.follow(back.location!);
      expect(res.status).toBe(400);
      expect(res.body).toContain('expired');
    });

    it.each([
      [
        'alg none',
        async (_t: string, { payload }: { payload: Record<string, unknown> }) =>
          `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.`,
      ],
      [
        'another key',
        async (_t: string, { payload }: { payload: Record<string, unknown> }) => {
          const { privateKey } = await generateKeyPair('ES256');
          return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', kid: 'upstream-1' }).sign(privateKey);
        },
      ],
      [
        'wrong audience',
        async (
          _t: string,
          o: { payload: Record<string, unknown>; signWithRealKey: (p: Record<string, unknown>) => Promise<string> },
        ) => o.signWithRealKey({ ...o.payload, aud: 'someone-else' }),
      ],
      [
        'wrong issuer',
        async (
          _t: string,
          o: { payload: Record<string, unknown>; signWithRealKey: (p: Record<string, unknown>) => Promise<string> },
        ) => o.signWithRealKey({ ...o.payload, iss: 'https://evil.example' }),
      ],
      [
        'wrong nonce',
        async (
          _t: string,
          o: { payload: Record<string, unknown>; signWithRealKey: (p: Record<string, unknown>) => Promise<string> },
        ) => o.signWithRealKey({ ...o.payload, nonce: 'replayed' }),
      ],
      [
        'expired',
        async (
          _t: string,
          o: { payload: Record<string, unknown>; signWithRealKey: (p: Record<string, unknown>) => Promise<string> },
        ) => o.signWithRealKey({ ...o.payload, iat: 1_000_000, exp: 1_000_100 }),
      ],
    ])('a forged upstream ID token (%s) is refused with a clear page', async (_name, tamper) => {
      h.upstream.tamper = tamper as never;
      try {
        const j = await h.signIn(rp, person('g-ada-1', ada.email), { params: { tenant: tenant.id } });
        expect(j.res.status).toBe(502);
        expect(j.res.body).toContain('Google did not complete the sign-in');
        expect(j.res.body).not.toMatch(/at .*\.js/);
      } finally {
        h.upstream.tamper = undefined;
      }
    });

    it('serves provider buttons as sandboxed SVG images, never inlined', async () => {
      const res = await fetch(`${h.issuer}/signin/providers/google/button.svg`);
      expect(res.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toContain('sandbox');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await fetch(`${h.issuer}/signin/providers/nope/button.svg`)).status).toBe(404);
    });
  });
});
