import type { Request } from 'express';
import { identityRoutes } from './rate-limit-routes';

const groupOf = (method: string, path: string) => identityRoutes({ method, path } as Request);

describe('identity route groups', () => {
  it('a browser’s sign-in (pages, forms, the authorization and logout endpoints, the provider’s return) is the sign-in group', () => {
    const signIn = [
      ['GET', '/oidc/auth'],
      ['POST', '/oidc/auth'],
      ['GET', '/oidc/auth/uid-1'],
      ['GET', '/oidc/session/end'],
      ['POST', '/oidc/session/end/confirm'],
      ['GET', '/oidc/session/end/success'],
      ['GET', '/signin/interaction/uid-1'],
      ['POST', '/signin/interaction/uid-1/start'],
      ['GET', '/signin/interaction/uid-1/upstream'],
      ['POST', '/signin/interaction/uid-1/abort'],
      ['GET', '/signin/callback'],
      ['GET', '/signin/lti/p1/login'],
      ['POST', '/signin/lti/p1/login'],
      ['POST', '/signin/lti/p1/launch'],
      ['GET', '/saml/t1/metadata'],
      ['GET', '/saml/t1/sso'],
      ['POST', '/saml/t1/sso'],
      ['GET', '/saml/complete'],
      ['GET', '/saml/t1/apps/a1/start'],
      ['GET', '/signin/schools/t1/apps'],
      ['GET', '/signin/apps'],
    ];
    expect(signIn.map(([m, p]) => groupOf(m, p))).toEqual(signIn.map(() => 'sign-in'));
  });

  it('the stylesheet, brand assets and provider buttons are the sign-in-asset group', () => {
    const assets = [
      '/signin/assets/portal.css',
      '/signin/brand/portal.lioncity.example/brand.css',
      '/signin/brand/d/logo/dark',
      '/signin/brand/d/fonts/sans/0',
      '/signin/providers/google/button.svg',
    ];
    expect(assets.map((p) => groupOf('GET', p))).toEqual(assets.map(() => 'sign-in-asset'));
  });

  it('the token endpoints have their groups, however the path is spelt (routing ignores case and a trailing slash)', () => {
    const token = ['/oauth/token', '/OAuth/Token', '/oauth/token/'];
    expect(token.map((p) => groupOf('POST', p))).toEqual(token.map(() => 'token'));
    const oidcToken = ['/oidc/token', '/OIDC/TOKEN//'];
    expect(oidcToken.map((p) => groupOf('POST', p))).toEqual(oidcToken.map(() => 'oidc-token'));
    const clientAuth = ['/oidc/token/introspection', '/oidc/token/revocation', '/OIDC/Token/Revocation/'];
    expect(clientAuth.map((p) => groupOf('POST', p))).toEqual(clientAuth.map(() => 'client-auth'));
  });

  it('userinfo, discovery and the Identity API keep their groups', () => {
    // Without a token these become `anonymous` in the guard; with one, the caller's read or write budgets.
    expect(['/oidc/me', '/oidc/authx', '/oauth/tokens', '/oidc/token/x'].map((p) => groupOf('POST', p))).toEqual([
      'write',
      'write',
      'write',
      'write',
    ]);
    expect(groupOf('GET', '/oauth/token')).toBe('read');
    expect(
      ['/.well-known/openid-configuration', '/tenants/t1/sign-ins', '/signinx', '/signin/appsx'].map((p) =>
        groupOf('GET', p),
      ),
    ).toEqual(['read', 'read', 'read', 'read']);
  });
});
