import * as oidc from 'openid-client';
import { formPost, TimedBrowser } from './browser';

/** Where one sign-in goes and as whom. */
export interface JourneySetup {
  identity: string;
  upstream: string;
  /** The partner app's openid-client configuration (from the identity service's discovery). */
  config: oidc.Configuration;
  redirectUri: string;
  tenantId: string;
  provider: string;
  /** The demo person's subject at the upstream provider. */
  sub: string;
}

/** The steps of a sign-in, in order, with the requests each one covers. */
export const STEPS = [
  'authorize', // the app's authorization request at identity (GET /oidc/auth -> the portal)
  'portal page', // the school's providers page
  'provider button', // POST .../start: state, nonce, PKCE stored; redirect to the upstream
  'upstream pages', // the upstream's authorization endpoint, its login page, consent, its redirects
  'upstream login', // the person picks themselves at the upstream (POST)
  'callback', // identity's /signin/callback (finds the interaction by state)
  'upstream exchange', // identity exchanges the upstream code and checks its ID token; maps the person
  'code issued', // oidc-provider resumes the authorization and redirects to the app with a code
  'token + ID token check', // the app: code exchange with PKCE, ID token verified by openid-client
] as const;

function stepOf(s: JourneySetup): (method: string, url: URL) => string {
  const identity = new URL(s.identity).host;
  return (method, u) => {
    if (u.host !== identity)
      return method === 'POST' && u.pathname.endsWith('/login') ? 'upstream login' : 'upstream pages';
    if (u.pathname === '/oidc/auth') return 'authorize';
    if (u.pathname.startsWith('/oidc/auth/')) return 'code issued';
    if (u.pathname === '/signin/callback') return 'callback';
    if (u.pathname.endsWith('/upstream')) return 'upstream exchange';
    if (u.pathname.endsWith('/start')) return 'provider button';
    return 'portal page';
  };
}

/** One complete sign-in; resolves its duration and the time of each step (ms). */
export async function signIn(s: JourneySetup): Promise<{ ms: number; steps: Map<string, number> }> {
  const started = performance.now();
  const b = new TimedBrowser(stepOf(s));
  const checks = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier() };
  const url = oidc.buildAuthorizationUrl(s.config, {
    redirect_uri: s.redirectUri,
    scope: 'openid profile email tenant',
    state: checks.state,
    nonce: checks.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(checks.verifier),
    code_challenge_method: 'S256',
    tenant: s.tenantId,
  });
  const done = (next: string) => next.startsWith(s.redirectUri);
  const portal = await b.follow(await b.request(url.href), done);
  const button = formPost(portal, /\/start$/, { provider: s.provider });
  const login = await b.follow(await b.request(button.url, { method: 'POST', body: button.body }), done);
  const pick = formPost(login, /\/login$/, { sub: s.sub });
  const back = await b.follow(await b.request(pick.url, { method: 'POST', body: pick.body }), done);
  if (!back.location || !done(back.location))
    throw new Error(`the sign-in stopped at ${back.url} (HTTP ${back.status})`);
  const tokens = await b.time('token + ID token check', () =>
    oidc.authorizationCodeGrant(s.config, new URL(back.location as string), {
      pkceCodeVerifier: checks.verifier,
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      idTokenExpected: true,
    }),
  );
  if (tokens.claims()?.tenant_id !== s.tenantId) throw new Error('the ID token names another tenant');
  return { ms: performance.now() - started, steps: b.steps };
}
