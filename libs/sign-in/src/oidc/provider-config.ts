import type { JWK } from 'jose';
import { interactionPolicy, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { SignInEnv } from '../sign-in.env';
import { SCOPE_CLAIMS, type AccountFinder } from '../accounts/account-finder';
import { protocolPages, type BrandLookup } from '../ui/protocol-pages';
import { CookieSigner, cookieKeys } from './cookie-signer';

/** Paths of the provider's endpoints (the JWKS is the global one, served by the keys module). */
export const OIDC_ROUTES = {
  authorization: '/oidc/auth',
  token: '/oidc/token',
  userinfo: '/oidc/me',
  jwks: '/.well-known/jwks.json',
  end_session: '/oidc/session/end',
  introspection: '/oidc/token/introspection',
  revocation: '/oidc/token/revocation',
} as const;

export interface ProviderDeps {
  env: SignInEnv;
  accounts: AccountFinder;
  adapter: Configuration['adapter'];
  signingKeys: JWK[];
  /** The vanity domain's brand for the provider's own pages (logout, errors). */
  brandFor?: BrandLookup;
}

/**
 * Each authorization goes through the sign-in portal: the tenant, the app's deployment and the
 * constituency rules are checked at every sign-in, never skipped by a provider-side session.
 */
function policy() {
  const base = interactionPolicy.base();
  const login = base.get('login');
  login?.checks.add(
    new interactionPolicy.Check(
      'portal_sign_in',
      'each sign-in goes through the sign-in portal',
      (ctx: KoaContextWithOIDC) =>
        ctx.oidc.result?.login ? interactionPolicy.Check.NO_NEED_TO_PROMPT : interactionPolicy.Check.REQUEST_PROMPT,
    ),
  );
  return base;
}

/** The oidc-provider configuration: what it offers, where it keeps state, how long things live. */
export function providerConfiguration(d: ProviderDeps): Configuration {
  const { env } = d;
  const pages = protocolPages(d.brandFor);
  return {
    adapter: d.adapter,
    findAccount: d.accounts.findAccount,
    jwks: { keys: d.signingKeys as Configuration['jwks'] extends { keys: infer K } ? K : never },
    scopes: ['openid', 'offline_access', 'profile', 'email', 'tenant'],
    claims: {
      ...SCOPE_CLAIMS,
      openid: [...SCOPE_CLAIMS.openid],
      profile: [...SCOPE_CLAIMS.profile],
      email: [...SCOPE_CLAIMS.email],
      tenant: [...SCOPE_CLAIMS.tenant],
    },
    conformIdTokenClaims: false,
    responseTypes: ['code'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      id_token_signed_response_alg: 'ES256',
      token_endpoint_auth_method: 'client_secret_basic',
    },
    enabledJWA: {
      idTokenSigningAlgValues: ['ES256'],
      userinfoSigningAlgValues: ['ES256'],
      introspectionSigningAlgValues: ['ES256'],
      authorizationSigningAlgValues: ['ES256'],
      requestObjectSigningAlgValues: ['ES256'],
      clientAuthSigningAlgValues: ['ES256'],
    },
    // S256 only (the library offers nothing else), and for every client, confidential ones too.
    pkce: { required: () => true },
    extraParams: ['tenant'],
    features: {
      devInteractions: { enabled: false },
      claimsParameter: { enabled: false },
      userinfo: { enabled: true },
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      introspection: {
        enabled: true,
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: pages.logoutSource,
        postLogoutSuccessSource: pages.postLogoutSuccessSource,
      },
    },
    interactions: { url: (_ctx, interaction) => `/signin/interaction/${interaction.uid}`, policy: policy() },
    routes: OIDC_ROUTES,
    cookies: {
      keys: new CookieSigner(cookieKeys(env.KEY_ENCRYPTION_KEY)),
      long: { signed: true, httpOnly: true, sameSite: 'lax' },
      short: { signed: true, httpOnly: true, sameSite: 'lax' },
      names: { session: 'signin_session', interaction: 'signin_interaction', resume: 'signin_resume' },
    },
    ttl: {
      AccessToken: env.ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      IdToken: 3600,
      RefreshToken: env.SIGNIN_REFRESH_TOKEN_TTL_SECONDS,
      Interaction: env.SIGNIN_INTERACTION_TTL_SECONDS,
      Session: env.SIGNIN_REFRESH_TOKEN_TTL_SECONDS,
      Grant: env.SIGNIN_REFRESH_TOKEN_TTL_SECONDS,
    },
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx, client, code) =>
      client.grantTypeAllowed('refresh_token') && code.scopes.has('offline_access'),
    renderError: pages.renderError,
  };
}
