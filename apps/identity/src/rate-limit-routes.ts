import { byMethod, type RouteClassifier, type RouteGroup } from '@edu/rate-limit';

/** `path` is `prefix` or below it (whole path segments: `/oidc/authx` is not under `/oidc/auth`). */
const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/**
 * A browser's sign-in (on the issuer's host or a school's vanity domain): the authorization
 * endpoint and its resume, logout, the portal's pages and forms, the upstream provider's return,
 * LTI launches from a school's learning platform (login initiation and launch), and the SAML
 * identity provider (metadata, SSO, logout and the return from the portal), and a school's page of apps.
 */
const SIGN_IN_PREFIXES = [
  '/oidc/auth',
  '/oidc/session/end',
  '/signin/interaction',
  '/signin/callback',
  '/signin/lti',
  '/saml',
  '/signin/schools',
  '/signin/apps',
];
/** What those pages load: the stylesheet, a vanity domain's brand assets, provider buttons (long-cached). */
const SIGN_IN_ASSET_PREFIXES = ['/signin/assets', '/signin/brand', '/signin/providers'];

/** The sign-in portal's own groups (per source address, sized for a school behind one NAT address); undefined for other routes. */
export function signInGroup(path: string): RouteGroup | undefined {
  if (SIGN_IN_PREFIXES.some((p) => under(path, p))) return 'sign-in';
  if (SIGN_IN_ASSET_PREFIXES.some((p) => under(path, p))) return 'sign-in-asset';
  return undefined;
}

/** The provider's endpoints other than its token endpoint that take a client's secret. */
const CLIENT_AUTH_ENDPOINTS = new Set(['/oidc/token/introspection', '/oidc/token/revocation']);

/**
 * The path as routing matches it (case-insensitive, a trailing slash ignored): `/OAuth/Token/`
 * reaches the token endpoint, so it must spend the token endpoint's budgets too.
 */
const routed = (path: string) => path.toLowerCase().replace(/\/+$/, '');

/** The groups of the endpoints where a client authenticates with its secret; undefined for others. */
function clientAuthGroup(path: string): RouteGroup | undefined {
  if (path === '/oauth/token') return 'token';
  if (path === '/oidc/token') return 'oidc-token';
  return CLIENT_AUTH_ENDPOINTS.has(path) ? 'client-auth' : undefined;
}

/**
 * The token endpoints have their own budgets (per source address; failed client authentications
 * per address and per client id at that address; `/oauth/token` per client id once authenticated);
 * introspection and revocation the same failure budgets; the sign-in portal its own per source
 * address; the Identity API reads and writes. Userinfo and discovery keep the budget of requests
 * without a token.
 */
export const identityRoutes: RouteClassifier = (req) =>
  (req.method === 'POST' ? clientAuthGroup(routed(req.path)) : undefined) ?? signInGroup(req.path) ?? byMethod(req);
