import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { TestIssuer } from './test-issuer';

describe('TestIssuer', () => {
  let issuer: TestIssuer;

  beforeAll(async () => {
    issuer = await new TestIssuer().start();
  });

  afterAll(() => issuer.stop());

  it('serves its JWKS over HTTP and mints tokens that verify against it', async () => {
    const jwks = (await (await fetch(issuer.jwksUrl)).json()) as JSONWebKeySet;
    const token = await issuer.mint({ scopes: ['a', 'b'], tenantId: 't1' });
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks), {
      issuer: issuer.issuer,
      audience: issuer.audience,
      typ: 'at+jwt',
    });
    expect(payload).toMatchObject({ scope: 'a b', tenant_id: 't1' });
    expect(protectedHeader.kid).toBe(issuer.kid);
  });

  it('produces attack tokens that all fail verification', async () => {
    const jwks = createLocalJWKSet({ keys: [issuer.jwk] });
    const attacks = await issuer.attackTokens({ scopes: ['a'], tenantId: 't1' });
    expect(Object.keys(attacks).length).toBeGreaterThanOrEqual(8);
    for (const token of Object.values(attacks)) {
      await expect(
        jwtVerify(token, jwks, {
          issuer: issuer.issuer,
          audience: issuer.audience,
          typ: 'at+jwt',
          algorithms: ['ES256'],
        }),
      ).rejects.toThrow();
    }
  });
});
