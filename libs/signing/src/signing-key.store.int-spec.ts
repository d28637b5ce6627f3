import { jwtVerify, createLocalJWKSet } from 'jose';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@edu/persistence';
import { createTestDatabase, type TestDatabase } from '@edu/testing';
import { AccessTokenSigner } from './access-token.signer';
import { KeyEncryption } from './key-encryption';
import { SigningKeyStore, SigningKeyUnavailableError } from './signing-key.store';

describe('signing keys', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const encryption = new KeyEncryption('x'.repeat(40));

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = createDataSource({ url: db.url });
    await ds.initialize();
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it('creates one active key per use even when replicas race for it', async () => {
    const stores = [
      new SigningKeyStore(ds, encryption),
      new SigningKeyStore(ds, encryption),
      new SigningKeyStore(ds, encryption),
    ];
    const keys = await Promise.all(stores.map((s) => s.activeKey('access-token')));
    expect(new Set(keys.map((k) => k.kid)).size).toBe(1);
    const rows = await ds.query(`SELECT count(*)::int AS n FROM signing_keys WHERE use = 'access-token'`);
    expect(rows[0].n).toBe(1);
  });

  it('keeps a rotated key published until its window ends, and signs with the new one', async () => {
    const store = new SigningKeyStore(ds, encryption, 0);
    const signer = new AccessTokenSigner(store, 'http://issuer.test', 'aud', 60);
    const before = await signer.sign({ sub: 'app', client_id: 'c', scope: ['s'] });
    const oldKid = (await store.activeKey('access-token')).kid;
    const newKid = await store.rotate('access-token', 60_000);
    expect(newKid).not.toBe(oldKid);
    const after = await signer.sign({ sub: 'app', client_id: 'c', scope: ['s'] });
    const jwks = createLocalJWKSet({ keys: await store.publishedKeys() });
    for (const t of [before.token, after.token]) {
      const { protectedHeader } = await jwtVerify(t, jwks, { issuer: 'http://issuer.test', audience: 'aud' });
      expect([oldKid, newKid]).toContain(protectedHeader.kid);
    }
    await ds.query(`UPDATE signing_keys SET publish_until = now() - interval '1 second' WHERE kid = $1`, [oldKid]);
    const kids = (await store.publishedKeys()).map((k) => k.kid);
    expect(kids).toContain(newKid);
    expect(kids).not.toContain(oldKid);
  });

  it('never creates a key when read-only (a regional replica): a clear error until the key arrives, then that key', async () => {
    await ds.query(`DELETE FROM signing_keys WHERE use = 'webhook'`);
    const reader = new SigningKeyStore(ds, encryption, 60_000, { createMissing: false });
    await expect(reader.activeKey('webhook')).rejects.toBeInstanceOf(SigningKeyUnavailableError);
    await expect(reader.activeKey('webhook')).rejects.toThrow(/No active webhook signing key in this database yet/);
    await expect(reader.rotate('webhook', 1_000)).rejects.toThrow(/read-only/);
    expect((await ds.query(`SELECT count(*)::int AS n FROM signing_keys WHERE use = 'webhook'`))[0].n).toBe(0);

    const created = await new SigningKeyStore(ds, encryption).activeKey('webhook');
    expect((await reader.activeKey('webhook')).kid).toBe(created.kid);
  });

  it('cannot decrypt private keys with another encryption key', async () => {
    const [row] = await ds.query(`SELECT private_jwk_encrypted FROM signing_keys LIMIT 1`);
    expect(() => new KeyEncryption('y'.repeat(40)).decrypt(row.private_jwk_encrypted)).toThrow();
    expect(JSON.parse(encryption.decrypt(row.private_jwk_encrypted))).toHaveProperty('d');
  });
});
