import { X509Certificate } from 'node:crypto';
import { createLocalJWKSet, jwtVerify } from 'jose';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@edu/persistence';
import { createTestDatabase, type TestDatabase } from '@edu/testing';
import { AccessTokenSigner } from './access-token.signer';
import { KeyEncryption } from './key-encryption';
import { SigningKeyStore } from './signing-key.store';

describe('staged signing key rotation', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const encryption = new KeyEncryption('s'.repeat(40));

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = createDataSource({ url: db.url });
    await ds.initialize();
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const kids = async (store: SigningKeyStore) => (await store.publishedKeys()).map((k) => k.kid);

  it('publishes a staged key without signing with it, then rotate() makes exactly that key the active one', async () => {
    const store = new SigningKeyStore(ds, encryption, 0);
    const signer = new AccessTokenSigner(store, 'http://issuer.test', 'aud', 60);
    const current = (await store.activeKey('access-token')).kid;

    const staged = await store.stage('access-token');
    expect(staged).toMatchObject({
      use: 'access-token',
      status: 'next',
      published: true,
      publishUntil: null,
      created: true,
    });
    expect(staged.kid).toMatch(/^at-/);
    expect(await kids(store)).toEqual(expect.arrayContaining([current, staged.kid]));
    // Still signing with the current key.
    const before = await signer.sign({ sub: 'app', client_id: 'c', scope: ['s'] });
    expect(JSON.parse(Buffer.from(before.token.split('.')[0], 'base64url').toString()).kid).toBe(current);
    // Staging again keeps the staged key.
    expect(await store.stage('access-token')).toMatchObject({ kid: staged.kid, created: false });

    const activated = await store.rotate('access-token', 60_000);
    expect(activated).toBe(staged.kid);
    const after = await signer.sign({ sub: 'app', client_id: 'c', scope: ['s'] });
    const jwks = createLocalJWKSet({ keys: await store.publishedKeys() });
    expect(
      (await jwtVerify(after.token, jwks, { issuer: 'http://issuer.test', audience: 'aud' })).protectedHeader.kid,
    ).toBe(staged.kid);
    expect(
      (await jwtVerify(before.token, jwks, { issuer: 'http://issuer.test', audience: 'aud' })).protectedHeader.kid,
    ).toBe(current);

    const listed = await store.list('access-token');
    expect(listed.map((k) => [k.kid, k.status, k.published])).toEqual([
      [staged.kid, 'active', true],
      [current, 'retired', true],
    ]);
    expect(listed[1].publishUntil!.getTime()).toBeGreaterThan(Date.now() + 50_000);
  });

  it('rotates to a new key when none is staged, and keeps the uses apart', async () => {
    const store = new SigningKeyStore(ds, encryption, 0);
    const webhook = (await store.activeKey('webhook')).kid;
    await store.stage('access-token');
    const rotated = await store.rotate('webhook', 0);
    expect(rotated).toMatch(/^wh-/);
    expect(rotated).not.toBe(webhook);
    expect((await store.activeKey('webhook')).kid).toBe(rotated);
    // Retired with no publication window: gone from the JWKS at once (the emergency case).
    expect(await kids(store)).not.toContain(webhook);
    // The staged access-token key was not touched by the webhook rotation.
    expect((await store.list('access-token')).filter((k) => k.status === 'next')).toHaveLength(1);
  });

  it('tells whether an encryption key decrypts the active key, and a read-only store refuses to stage', async () => {
    await expect(new SigningKeyStore(ds, encryption).checkDecryptable('webhook')).resolves.toMatch(/^wh-/);
    await expect(
      new SigningKeyStore(ds, new KeyEncryption('t'.repeat(40))).checkDecryptable('webhook'),
    ).rejects.toThrow();
    await expect(new SigningKeyStore(ds, encryption, 0, { createMissing: false }).stage('webhook')).rejects.toThrow(
      /read-only/,
    );
  });

  it('saml keys: RSA with a self-signed certificate, published beside the staged one during a rotation, never in the JWKS', async () => {
    const store = new SigningKeyStore(ds, encryption, 0);
    const active = await store.activeKeyMaterial('saml');
    expect(active.kid).toMatch(/^sa-/);
    expect(active.publicJwk).toMatchObject({ kty: 'RSA' });
    expect((await store.list('saml')).length).toBeGreaterThan(0);
    const cert = new X509Certificate(Buffer.from((active.publicJwk.x5c as string[])[0], 'base64'));
    // The certificate is around this very key, and signed by it.
    expect(cert.publicKey.export({ format: 'jwk' })).toMatchObject({ n: active.publicJwk.n, e: active.publicJwk.e });
    expect(cert.verify(cert.publicKey)).toBe(true);
    const staged = await store.stage('saml');
    expect((await store.publishedKeysOf('saml')).map((k) => k.kid)).toEqual(
      expect.arrayContaining([active.kid, staged.kid]),
    );
    expect((await store.publishedKeysOf('saml')).every((k) => Array.isArray(k.publicJwk.x5c))).toBe(true);
    expect(await kids(store)).not.toEqual(expect.arrayContaining([expect.stringMatching(/^sa-/)]));
    await store.rotate('saml', 60_000);
    expect((await store.activeKeyMaterial('saml')).kid).toBe(staged.kid);
    // The retired certificate stays published for its window.
    expect((await store.publishedKeysOf('saml')).map((k) => k.kid)).toEqual(
      expect.arrayContaining([active.kid, staged.kid]),
    );
  });
});
