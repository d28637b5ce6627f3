import type { CreatedApp } from '@edu/testing';
import { testRedis } from '@edu/testing';
import type { TenantEntity } from '@edu/persistence';
import { basicAuth, postFormFrom, type FormAnswer } from './support/from-address';
import { RP_REDIRECT, SignInHarness } from './support/sign-in-harness';

/**
 * Small failure budgets and a window no test outlasts, so every count below happens in one window
 * (no waiting for one to end). Each test uses addresses of its own: the address budgets are per
 * address for the whole file.
 */
const LIMITS = {
  RATE_LIMIT_ENABLED: 'true',
  RATE_LIMIT_WINDOW_SECONDS: '600',
  RATE_LIMIT_TOKEN_FAILURES_PER_CLIENT_ADDRESS: '3',
  RATE_LIMIT_TOKEN_FAILURES_PER_ADDRESS: '6',
  RATE_LIMIT_TOKEN_PER_CLIENT: '50',
  RATE_LIMIT_TOKEN_PER_ADDRESS: '100',
};

const limitsEnv = (extra: Record<string, string> = {}) => {
  const redis = testRedis();
  return { ...LIMITS, REDIS_URL: redis.url, RATE_LIMIT_PREFIX: redis.prefix, ...extra };
};

/** `r` of one policy in the `RateLimit` field. */
const remaining = (a: FormAnswer, policy: string) =>
  Number(new RegExp(`"${policy}";r=(\\d+)`).exec(String(a.headers.ratelimit ?? ''))?.[1]);

/** A client credentials request from `address` (a developer app's own token). */
const clientCredentials = (h: SignInHarness, address: string, id: string, secret: string, headers = {}) =>
  postFormFrom(
    address,
    `${h.issuer}/oauth/token`,
    { grant_type: 'client_credentials' },
    { Authorization: basicAuth(id, secret), ...headers },
  );

/** A provider token request from `address`. */
const oidcToken = (h: SignInHarness, address: string, id: string, secret: string, form: Record<string, string>) =>
  postFormFrom(address, `${h.issuer}/oidc/token`, form, { Authorization: basicAuth(id, secret) });

const ADA = { sub: 'g-ada', email: 'ada@lioncity.example', email_verified: true, name: 'Ada' };

async function failuresMetric(h: SignInHarness): Promise<string[]> {
  const text = await (await fetch(`${h.issuer}/metrics`)).text();
  return text.split('\n').filter((l) => l.startsWith('client_authentication_failures_total{'));
}

describe('guessing a partner\u2019s secret cannot lock the partner out (own Redis counters, separate source addresses)', () => {
  let h: SignInHarness;
  let tenant: TenantEntity;
  let partner: CreatedApp;

  beforeAll(async () => {
    h = await SignInHarness.start({ env: limitsEnv() });
    const w = h.world();
    tenant = await w.tenant({ name: 'Lion City Primary' });
    partner = await w.app({ type: 'developer', id: (await w.developer()).id }, 'Reading Buddy');
    await w.deploy(partner.app.id, tenant.id, []);
    await w.constituency(tenant.id, 'staff', ['google']);
    await w.user([tenant.id], { email: ADA.email, constituencies: ['staff'] });
  });

  afterAll(async () => {
    await h?.stop();
  });

  it('/oauth/token: the right secret from another address gets a token while the client id is guessed past its budget; the guesser gets 429', async () => {
    const [guesser, holder] = ['127.0.0.11', '127.0.0.12'];
    const guesses: FormAnswer[] = [];
    const partnerStatuses: number[] = [];
    for (let i = 0; i < 8; i++) {
      guesses.push(await clientCredentials(h, guesser, partner.clientId, `guessed-secret-${i}`));
      partnerStatuses.push((await clientCredentials(h, holder, partner.clientId, partner.clientSecret)).status);
    }
    expect(guesses.map((g) => g.status)).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
    expect(partnerStatuses).toEqual(Array(8).fill(200));
    // Each failure is counted before its answer is sent, and shows in it.
    expect(guesses.slice(0, 3).map((g) => remaining(g, 'token-failures-client-address'))).toEqual([2, 1, 0]);
    const refused = guesses[3];
    expect(refused.body).toMatchObject({ error: 'slow_down' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers.ratelimit).toMatch(/"token-failures-client-address";r=0;t=\d+$/);

    // Refused up front whatever the secret: guessing right past the budget gains nothing.
    expect((await clientCredentials(h, guesser, partner.clientId, partner.clientSecret)).status).toBe(429);
    // Other client ids from the guesser's address stop at its address budget (6 failures).
    const others = [];
    for (let i = 0; i < 4; i++) others.push(await clientCredentials(h, guesser, `made-up-id-${i}`, 'guess'));
    expect(others.map((o) => o.status)).toEqual([401, 401, 401, 429]);
    expect(others[3].headers.ratelimit).toMatch(/"token-failures-address";r=0;t=\d+$/);

    // Failures per registered client; made-up ids are one `unknown` label, never their own.
    const metrics = await failuresMetric(h);
    expect(metrics).toEqual(
      expect.arrayContaining([
        `client_authentication_failures_total{endpoint="/oauth/token",client="${partner.clientId}"} 3`,
        'client_authentication_failures_total{endpoint="/oauth/token",client="unknown"} 3',
      ]),
    );
    expect(metrics.join('\n')).not.toContain('made-up-id');
  });

  it('/oidc/token: the partner refreshes its tokens with its secret from another address while the guesser is refused; introspection is no way around', async () => {
    const [guesser, holder] = ['127.0.0.21', '127.0.0.22'];
    const rp = await h.relyingParty(partner);
    const j = await h.signIn(rp, ADA, {
      params: { tenant: tenant.id, scope: 'openid tenant offline_access', prompt: 'consent' },
    });
    const code = new URL(j.res.location!).searchParams.get('code')!;
    const exchanged = await oidcToken(h, holder, partner.clientId, partner.clientSecret, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: RP_REDIRECT,
      code_verifier: j.checks.verifier,
    });
    expect(exchanged.status).toBe(200);
    // The address and failure budgets; none per client (each code exchange is a person's sign-in).
    expect(exchanged.headers['ratelimit-policy']).toMatch(/^"token-address";q=100;w=600, "token-failures-address";q=6/);
    expect(exchanged.headers['ratelimit-policy']).not.toContain('token-client');
    let refreshToken = exchanged.body.refresh_token as string;

    const guesses: FormAnswer[] = [];
    const refreshes: number[] = [];
    for (let i = 0; i < 6; i++) {
      guesses.push(
        await oidcToken(h, guesser, partner.clientId, `guessed-secret-${i}`, {
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
        }),
      );
      const refreshed = await oidcToken(h, holder, partner.clientId, partner.clientSecret, {
        grant_type: 'refresh_token',
        refresh_token: refreshToken,
      });
      refreshes.push(refreshed.status);
      refreshToken = refreshed.body.refresh_token as string;
    }
    expect(guesses.map((g) => g.status)).toEqual([401, 401, 401, 429, 429, 429]);
    expect(refreshes).toEqual(Array(6).fill(200));
    // Refused as /oauth/token refuses: RFC 6749 form, the spent budget named.
    expect(guesses[3].body).toMatchObject({ error: 'slow_down' });
    expect(guesses[3].headers['cache-control']).toBe('no-store');
    expect(guesses[3].headers.ratelimit).toMatch(/"token-failures-client-address";r=0;t=\d+$/);

    const introspect = (token: string) =>
      postFormFrom(
        guesser,
        `${h.issuer}/oidc/token/introspection`,
        { token },
        { Authorization: basicAuth(partner.clientId, partner.clientSecret) },
      );
    expect(await introspect(refreshToken)).toMatchObject({ status: 429, body: { error: 'slow_down' } });
    expect(
      (
        await postFormFrom(
          holder,
          `${h.issuer}/oidc/token/introspection`,
          { token: refreshToken },
          { Authorization: basicAuth(partner.clientId, partner.clientSecret) },
        )
      ).body,
    ).toMatchObject({ active: true });
    // A wrong secret at introspection is a failure like any other.
    const wrong = await postFormFrom(
      '127.0.0.23',
      `${h.issuer}/oidc/token/introspection`,
      { token: refreshToken },
      { Authorization: basicAuth(partner.clientId, 'guessed-secret') },
    );
    expect(wrong.status).toBe(401);
    expect(remaining(wrong, 'token-failures-client-address')).toBe(2);
    expect(await failuresMetric(h)).toEqual(
      expect.arrayContaining([
        `client_authentication_failures_total{endpoint="/oidc/token",client="${partner.clientId}"} 3`,
        `client_authentication_failures_total{endpoint="/oidc/token/introspection",client="${partner.clientId}"} 1`,
      ]),
    );
  });

  it('a forged X-Forwarded-For (no trusted proxy) still spends the sender\u2019s own address budgets, never those of the address it names', async () => {
    const [guesser, holder] = ['127.0.0.31', '127.0.0.32'];
    const forged = [];
    for (let i = 0; i < 4; i++)
      forged.push(
        await clientCredentials(h, guesser, partner.clientId, `guess-${i}`, {
          'X-Forwarded-For': i % 2 ? holder : `203.0.113.${i}`,
          Forwarded: `for=${holder}`,
        }),
      );
    expect(forged.map((f) => f.status)).toEqual([401, 401, 401, 429]);
    const own = await clientCredentials(h, holder, partner.clientId, partner.clientSecret);
    expect(own.status).toBe(200);
    expect([remaining(own, 'token-failures-address'), remaining(own, 'token-failures-client-address')]).toEqual([6, 3]);
  });
});

describe('behind a trusted proxy (TRUST_PROXY=loopback): the address it names is the one that spends', () => {
  let h: SignInHarness;
  let partner: CreatedApp;

  beforeAll(async () => {
    h = await SignInHarness.start({ env: limitsEnv({ TRUST_PROXY: 'loopback' }) });
    const w = h.world();
    partner = await w.app({ type: 'developer', id: (await w.developer()).id }, 'Reading Buddy');
  });

  afterAll(async () => {
    await h?.stop();
  });

  it('failures forwarded for 127.0.0.42 spend that address\u2019s budget, not the proxy\u2019s', async () => {
    const [proxy, client] = ['127.0.0.41', '127.0.0.42'];
    const forwarded = [];
    for (let i = 0; i < 4; i++)
      forwarded.push(await clientCredentials(h, proxy, partner.clientId, `guess-${i}`, { 'X-Forwarded-For': client }));
    expect(forwarded.map((f) => f.status)).toEqual([401, 401, 401, 429]);
    expect((await clientCredentials(h, client, partner.clientId, partner.clientSecret)).status).toBe(429);
    expect((await clientCredentials(h, proxy, partner.clientId, partner.clientSecret)).status).toBe(200);
  });
});
