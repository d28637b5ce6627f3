import * as oidc from 'openid-client';
import type { SignInEnv } from '../sign-in.env';
import { pkceChallenge, UpstreamClient, UpstreamError } from './upstream-client';
import type { UpstreamProvider } from './upstream-provider';

const tenantProvider = (base: string): UpstreamProvider => ({
  id: '0b5e1a2c-1111-4222-8333-444455556666',
  kind: 'tenant',
  label: 'idp.school.example',
  issuer: `${base}/.well-known/openid-configuration`,
  clientId: 'school',
  scope: 'openid email',
  provisionJustInTime: false,
  endpoints: {
    discovery: `${base}/.well-known/openid-configuration`,
    authorization: `${base}/auth`,
    token: `${base}/token`,
    jwks: `${base}/jwks`,
  },
});

describe('the relying party for tenants’ own providers', () => {
  it.each(['http://127.0.0.1:9', 'https://169.254.169.254', 'https://10.1.2.3', 'https://localhost'])(
    'in production never requests a tenant-configured %s (SSRF), failing as the provider',
    async (base) => {
      const client = new UpstreamClient({ NODE_ENV: 'production' } as SignInEnv);
      const err = (await client
        .authorizationUrl(tenantProvider(base), 'https://id.example/signin/callback')
        .catch((e: unknown) => e)) as UpstreamError;
      expect(err).toBeInstanceOf(UpstreamError);
      expect(err.message).toBe('idp.school.example cannot be reached right now');
      // Plain http is refused by openid-client itself too; the guard refuses internal targets.
      expect(err.detail).toMatch(/must use https|only requests to HTTPS|private or internal|public host name/);
    },
  );

  it('in production refuses a plain-http authorization_url before anything is requested', async () => {
    const client = new UpstreamClient({ NODE_ENV: 'production' } as SignInEnv);
    const p = tenantProvider('https://idp.school.example');
    const err = (await client
      .authorizationUrl(
        { ...p, endpoints: { ...p.endpoints!, authorization: 'http://idp.school.example/auth' } },
        'https://id.example/cb',
      )
      .catch((e: unknown) => e)) as UpstreamError;
    expect(err).toBeInstanceOf(UpstreamError);
    expect(err.detail).toBe('authorization_url must use https');
  });
});

describe('the PKCE challenge sent upstream', () => {
  it('is the one openid-client computes, for its own verifiers and the RFC 7636 example', async () => {
    const verifiers = [
      'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
      ...Array.from({ length: 50 }, () => oidc.randomPKCECodeVerifier()),
    ];
    for (const v of verifiers) expect(pkceChallenge(v)).toBe(await oidc.calculatePKCECodeChallenge(v));
    // RFC 7636, appendix B.
    expect(pkceChallenge(verifiers[0]!)).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });
});
