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

/**
 * The token endpoint has its own budgets (per client id and per source address); the sign-in
 * portal its own per source address; the Identity API reads and writes. The provider's back-channel
 * endpoints (`/oidc/token`, userinfo, introspection, revocation) and discovery keep the budget of
 * requests without a token.
 */
export const identityRoutes: RouteClassifier = (req) =>
  req.method === 'POST' && req.path === '/oauth/token' ? 'token' : (signInGroup(req.path) ?? byMethod(req));
