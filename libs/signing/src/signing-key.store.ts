import { createPrivateKey } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK, type CryptoKey } from 'jose';
import type { DataSource, EntityManager } from 'typeorm';
import { SigningKeyEntity, type SigningKeyStatus, type SigningKeyUse } from '@edu/persistence';
import { KeyEncryption } from './key-encryption';
import { selfSignedCertificate } from './self-signed-certificate';

export const SIGNING_ALG = 'ES256';
/** SAML service providers verify RSA-SHA256 signatures (XML signature libraries rarely take ECDSA). */
export const SAML_SIGNING_ALG = 'RS256';
const CREATE_KEY_LOCK_ID = 7_310_043;
const KID_PREFIX: Record<SigningKeyUse, string> = { webhook: 'wh', 'access-token': 'at', oidc: 'id', saml: 'sa' };
/** Keys published in the JWKS; `saml` keys are published as certificates in SAML metadata instead. */
const JWKS_USES: SigningKeyUse[] = ['access-token', 'webhook', 'oidc'];

/** A key of one use as operators see it (no key material). */
export interface SigningKeyInfo {
  kid: string;
  use: SigningKeyUse;
  /** `next`: published, not signing yet; `active`: signing; `retired`: published until `publishUntil`. */
  status: SigningKeyStatus;
  createdAt: Date;
  publishUntil: Date | null;
  published: boolean;
}

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
 * need unless `createMissing` is false; retired keys stay published until `publish_until`. A
 * rotation may be staged: `stage()` publishes the next key (status `next`) without signing with
 * it, so verifiers that cache the JWKS hold it before the first token it signs; `rotate()` then
 * makes it the active key.
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
    const key = {
      kid: row.kid,
      alg: row.alg,
      privateKey: (await importJWK(JSON.parse(this.encryption.decrypt(row.privateJwkEncrypted)), row.alg)) as CryptoKey,
    };
    this.cache.set(use, { key, until: Date.now() + this.cacheMs });
    return key;
  }

  /**
   * The private JWKs of `use` that a signer hands to a library holding its own key set (the
   * OpenID Connect provider): the active key first, then the staged one. Creates the active key
   * when missing (unless read-only).
   */
  async signingJwks(use: SigningKeyUse): Promise<{ activeKid: string; keys: JWK[] }> {
    const active = await this.activeKey(use);
    const rows = await this.ds.getRepository(SigningKeyEntity).find({
      where: [
        { use, status: 'active' },
        { use, status: 'next' },
      ],
    });
    const ordered = rows.sort((a, b) => (a.kid === active.kid ? -1 : b.kid === active.kid ? 1 : 0));
    const keys = ordered.map((r) => ({
      ...(JSON.parse(this.encryption.decrypt(r.privateJwkEncrypted)) as JWK),
      kid: r.kid,
      alg: r.alg,
      use: 'sig',
    }));
    return { activeKid: active.kid, keys };
  }

  /** Public keys that verifiers may meet: active ones and retired ones still in their publish window. */
  async publishedKeys(): Promise<JWK[]> {
    const rows = await this.ds
      .getRepository(SigningKeyEntity)
      .createQueryBuilder('k')
      .where(`(k.status IN ('active', 'next') OR k.publish_until > now())`)
      .andWhere('k.use IN (:...uses)', { uses: JWKS_USES })
      .orderBy('k.created_at', 'DESC')
      .getMany();
    return rows.map((r) => ({ ...(r.publicJwk as JWK), kid: r.kid, alg: r.alg, use: 'sig' }));
  }

  /**
   * The keys of `use` relying parties may meet (active, staged, retired within their window),
   * newest first, with their public JWK (a `saml` key's carries its certificate in `x5c`).
   */
  async publishedKeysOf(use: SigningKeyUse): Promise<(SigningKeyInfo & { publicJwk: JWK })[]> {
    const rows = await this.ds
      .getRepository(SigningKeyEntity)
      .createQueryBuilder('k')
      .where(`(k.status IN ('active', 'next') OR k.publish_until > now())`)
      .andWhere('k.use = :use', { use })
      .orderBy('k.created_at', 'DESC')
      .getMany();
    return rows.map((r) => ({ ...toInfo(r), publicJwk: { ...(r.publicJwk as JWK), kid: r.kid, alg: r.alg } }));
  }

  /** The active key of `use` as a private JWK (for libraries that sign with PEM keys), with its public JWK. */
  async activeKeyMaterial(use: SigningKeyUse): Promise<{ kid: string; privateJwk: JWK; publicJwk: JWK }> {
    const kid = (await this.activeKey(use)).kid;
    const row = await this.ds.getRepository(SigningKeyEntity).findOneByOrFail({ kid });
    return {
      kid,
      privateJwk: JSON.parse(this.encryption.decrypt(row.privateJwkEncrypted)) as JWK,
      publicJwk: row.publicJwk as JWK,
    };
  }

  /**
   * Retires the active key of `use` (still published for `keepPublishedMs`) and activates the
   * staged key of that use, or a new one when none is staged. Returns the new active kid.
   */
  async rotate(use: SigningKeyUse, keepPublishedMs: number): Promise<string> {
    this.refuseReadOnly('rotate');
    const kid = await this.ds.transaction(async (em) => {
      await em.query('SELECT pg_advisory_xact_lock($1)', [CREATE_KEY_LOCK_ID]);
      await em.query(
        `UPDATE signing_keys SET status = 'retired', publish_until = now() + ($2 || ' milliseconds')::interval WHERE use = $1 AND status = 'active'`,
        [use, String(keepPublishedMs)],
      );
      const staged = await em
        .getRepository(SigningKeyEntity)
        .findOne({ where: { use, status: 'next' }, order: { createdAt: 'DESC' } });
      if (!staged) return (await this.insertKey(em, use, 'active')).kid;
      await em.query(`UPDATE signing_keys SET status = 'active' WHERE kid = $1`, [staged.kid]);
      return staged.kid;
    });
    this.cache.delete(use);
    return kid;
  }

  /**
   * Publishes the next key of `use` without signing with it (status `next`); the next `rotate()`
   * activates it. A key already staged is kept and returned (`created` false).
   */
  async stage(use: SigningKeyUse): Promise<SigningKeyInfo & { created: boolean }> {
    this.refuseReadOnly('stage');
    return this.ds.transaction(async (em) => {
      await em.query('SELECT pg_advisory_xact_lock($1)', [CREATE_KEY_LOCK_ID]);
      const existing = await em
        .getRepository(SigningKeyEntity)
        .findOne({ where: { use, status: 'next' }, order: { createdAt: 'DESC' } });
      return { ...toInfo(existing ?? (await this.insertKey(em, use, 'next'))), created: !existing };
    });
  }

  /** Every key of `use` (or of both uses), published or not: by use, newest first. */
  async list(use?: SigningKeyUse): Promise<SigningKeyInfo[]> {
    const rows = await this.ds
      .getRepository(SigningKeyEntity)
      .createQueryBuilder('k')
      .where(use ? 'k.use = :use' : 'TRUE', { use })
      .orderBy('k.use')
      .addOrderBy('k.created_at', 'DESC')
      .getMany();
    return rows.map(toInfo);
  }

  /** Decrypts the active key of `use`: fails when this store's encryption key is not the one it was stored with. */
  async checkDecryptable(use: SigningKeyUse): Promise<string | null> {
    const row = await this.findActive(use);
    if (!row) return null;
    this.encryption.decrypt(row.privateJwkEncrypted);
    return row.kid;
  }

  private refuseReadOnly(action: string): void {
    if (!this.createMissing)
      throw new Error(`A read-only signing key store cannot ${action} keys: ${action} them in the global database`);
  }

  private findActive(use: SigningKeyUse): Promise<SigningKeyEntity | null> {
    return this.ds
      .getRepository(SigningKeyEntity)
      .findOne({ where: { use, status: 'active' }, order: { createdAt: 'DESC' } });
  }

  /** Creates the active key, serialised across replicas by a transaction-scoped advisory lock. */
  private createKey(use: SigningKeyUse): Promise<SigningKeyEntity> {
    return this.ds.transaction(async (em) => {
      await em.query('SELECT pg_advisory_xact_lock($1)', [CREATE_KEY_LOCK_ID]);
      const existing = await em.getRepository(SigningKeyEntity).findOne({ where: { use, status: 'active' } });
      if (existing) return existing;
      return this.insertKey(em, use, 'active');
    });
  }

  private async insertKey(em: EntityManager, use: SigningKeyUse, status: 'active' | 'next'): Promise<SigningKeyEntity> {
    const alg = use === 'saml' ? SAML_SIGNING_ALG : SIGNING_ALG;
    const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true, modulusLength: 2048 });
    const publicJwk = await exportJWK(publicKey);
    const privateJwk = await exportJWK(privateKey);
    const kid = `${KID_PREFIX[use]}-${await calculateJwkThumbprint(publicJwk)}`;
    // SAML metadata carries the key as a certificate: made once, kept beside the public key.
    if (use === 'saml')
      publicJwk.x5c = [
        selfSignedCertificate(
          createPrivateKey({ key: privateJwk as never, format: 'jwk' }),
          `SAML signing ${kid.slice(0, 24)}`,
        ),
      ];
    const row = em.getRepository(SigningKeyEntity).create({
      kid,
      use,
      alg,
      publicJwk: publicJwk as Record<string, unknown>,
      privateJwkEncrypted: this.encryption.encrypt(JSON.stringify(privateJwk)),
      status,
      publishUntil: null,
    });
    return em.getRepository(SigningKeyEntity).save(row);
  }
}

function toInfo(row: SigningKeyEntity): SigningKeyInfo {
  const published = row.status !== 'retired' || (row.publishUntil !== null && row.publishUntil.getTime() > Date.now());
  return {
    kid: row.kid,
    use: row.use,
    status: row.status,
    createdAt: row.createdAt,
    publishUntil: row.publishUntil,
    published,
  };
}
