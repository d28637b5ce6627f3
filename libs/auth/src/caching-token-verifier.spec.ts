import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type CryptoKey } from 'jose';
import { CachingTokenVerifier } from './caching-token-verifier';

describe('CachingTokenVerifier', () => {
  let key: CryptoKey;
  let verifier: CachingTokenVerifier;
  let now = Date.now();

  const mint = (o: { exp: number; scope?: string }) =>
    new SignJWT({ client_id: 'c', scope: o.scope ?? 'a', tenant_id: 't1' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: 'at+jwt' })
      .setIssuer('iss')
      .setAudience('aud')
      .setSubject('app')
      .setIssuedAt(Math.floor(now / 1000) - 10)
      .setExpirationTime(o.exp)
      .setJti('j')
      .sign(key);

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256', { extractable: true });
    key = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256' };
    verifier = new CachingTokenVerifier(
      { keys: createLocalJWKSet({ keys: [jwk] }), issuer: 'iss', audience: 'aud' },
      100,
      () => now,
    );
  });

  it('verifies once and then answers the same token from memory until it expires', async () => {
    const token = await mint({ exp: Math.floor(now / 1000) + 60 });
    const verify = jest.spyOn(Object.getPrototypeOf(CachingTokenVerifier.prototype), 'verify');
    const first = await verifier.verify(token);
    const second = await verifier.verify(token);
    expect(second).toBe(first);
    expect(verify).toHaveBeenCalledTimes(1);
    // Past the token's exp the memory is not used: the token is verified again (here by a clock
    // that jose does not share, so it still passes the signature check and is re-verified).
    now += 61_000;
    await verifier.verify(token);
    expect(verify).toHaveBeenCalledTimes(2);
    verify.mockRestore();
  });

  it('never remembers a refusal, and a tampered copy of an accepted token is still refused', async () => {
    const token = await mint({ exp: Math.floor(now / 1000) + 60 });
    await verifier.verify(token);
    const [h, p, s] = token.split('.') as [string, string, string];
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...payload, scope: 'a admin' })).toString('base64url')}.${s}`;
    await expect(verifier.verify(tampered)).rejects.toThrow();
    await expect(verifier.verify(tampered)).rejects.toThrow();
  });
});
