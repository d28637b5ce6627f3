import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK, type CryptoKey } from 'jose';
import type { DataSource } from 'typeorm';
import { SigningKeyEntity, type SigningKeyUse } from '@edu/persistence';
import { KeyEncryption } from './key-encryption';

export const SIGNING_ALG = 'ES256';
const CREATE_KEY_LOCK_ID = 7_310_043;

export interface ActiveSigningKey {
  kid: string;
  alg: string;
  privateKey: CryptoKey;
}

export interface SigningKeyStoreOptions {
  /**
   * Create the active key when there is none (default true). False for readers of a copy: in a
   * regional database `signing_keys` is a logical-replication replica of the global table, where
   * only the identity service creates and rotates keys (the global JWKS publishes them).
   */
  createMissing?: boolean;
}

/** No active key of that use here yet (a read-only store never creates one): retry later. */
export class SigningKeyUnavailableError extends Error {
  constructor(readonly use: SigningKeyUse) {
    super(
      `No active ${use} signing key in this database yet: the identity service creates it (on its first JWKS request) and it reaches a regional database by replication`,
    );
  }
}

/**
 * Signing keys in PostgreSQL: one active key per use (access tokens, webhooks), created on first
 * need unless `createMissing` is false; retired keys stay published until `publish_until`.
 */
export class SigningKeyStore {
  private readonly cache = new Map<SigningKeyUse, { key: ActiveSigningKey; until: number }>();
  private readonly createMissing: boolean;

  constructor(
    private readonly ds: DataSource,
    private readonly encryption: KeyEncryption,
    private readonly cacheMs = 60_000,
    options: SigningKeyStoreOptions = {},
  ) {
    this.createMissing = options.createMissing ?? true;
  }

  /** The active key of `use`; a read-only store throws SigningKeyUnavailableError while there is none. */
  async activeKey(use: SigningKeyUse): Promise<ActiveSigningKey> {
    const hit = this.cache.get(use);
    if (hit && hit.until > Date.now()) return hit.key;
    const found = await this.findActive(use);
    if (!found && !this.createMissing) throw new SigningKeyUnavailableError(use);
    const row = found ?? (await this.createKey(use));
    const key = { kid: row.kid, alg: row.alg, privateKey: (await importJWK(JSON.parse(this.encryption.decrypt(row.privateJwkEncrypted)), row.alg)) as CryptoKey };
    this.cache.set(use, { key, until: Date.now() + this.cacheMs });
    return key;
  }

  /** Public keys that verifiers may meet: active ones and retired ones still in their publish window. */
  async publishedKeys(): Promise<JWK[]> {
    const rows = await this.ds
      .getRepository(SigningKeyEntity)
      .createQueryBuilder('k')
      .where(`k.status = 'active' OR k.publish_until > now()`)
      .orderBy('k.created_at', 'DESC')
      .getMany();
    return rows.map((r) => ({ ...(r.publicJwk as JWK), kid: r.kid, alg: r.alg, use: 'sig' }));
  }

  /** Retires the active key of `use` (still published for `keepPublishedMs`) and makes a new one. */
  async rotate(use: SigningKeyUse, keepPublishedMs: number): Promise<string> {
    if (!this.createMissing) throw new Error('A read-only signing key store cannot rotate keys: rotate them in the global database');
    await this.ds.query(`UPDATE signing_keys SET status = 'retired', publish_until = now() + ($2 || ' milliseconds')::interval WHERE use = $1 AND status = 'active'`, [use, String(keepPublishedMs)]);
    this.cache.delete(use);
    return (await this.createKey(use)).kid;
  }

  private findActive(use: SigningKeyUse): Promise<SigningKeyEntity | null> {
    return this.ds.getRepository(SigningKeyEntity).findOne({ where: { use, status: 'active' }, order: { createdAt: 'DESC' } });
  }

  /** Creates the active key, serialised across replicas by a transaction-scoped advisory lock. */
  private createKey(use: SigningKeyUse): Promise<SigningKeyEntity> {
    return this.ds.transaction(async (em) => {
      await em.query('SELECT pg_advisory_xact_lock($1)', [CREATE_KEY_LOCK_ID]);
      const existing = await em.getRepository(SigningKeyEntity).findOne({ where: { use, status: 'active' } });
      if (existing) return existing;
      const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { extractable: true });
      const publicJwk = await exportJWK(publicKey);
      const kid = `${use === 'webhook' ? 'wh' : 'at'}-${await calculateJwkThumbprint(publicJwk)}`;
      const row = em.getRepository(SigningKeyEntity).create({
        kid,
        use,
        alg: SIGNING_ALG,
        publicJwk: publicJwk as Record<string, unknown>,
        privateJwkEncrypted: this.encryption.encrypt(JSON.stringify(await exportJWK(privateKey))),
        status: 'active',
        publishUntil: null,
      });
      return em.getRepository(SigningKeyEntity).save(row);
    });
  }
}
