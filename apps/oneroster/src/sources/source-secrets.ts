import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { ApiError, ApiErrorCode } from '@edu/domain';
import { KeyEncryption } from '@edu/signing';
import { sourcesKeyEncryptionKey, type RosterSourcesSettings } from './sources.env';

/** Seals and opens sources' secrets (client secrets, the notification secret) with KEY_ENCRYPTION_KEY. */
export class SourceSecrets {
  private readonly box: KeyEncryption | undefined;

  constructor(env: RosterSourcesSettings) {
    const key = sourcesKeyEncryptionKey(env);
    this.box = key ? new KeyEncryption(key) : undefined;
  }

  get configured(): boolean {
    return this.box !== undefined;
  }

  seal(secret: string): string {
    return this.required().encrypt(secret);
  }

  open(sealed: string): string {
    return this.required().decrypt(sealed);
  }

  private required(): KeyEncryption {
    if (!this.box)
      throw new ApiError(
        ApiErrorCode.ServiceUnavailable,
        'KEY_ENCRYPTION_KEY is not configured on this host, so secrets of roster sources cannot be stored or used',
      );
    return this.box;
  }
}

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

function derive(password: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/**
 * SFTP passwords are only ever verified, so they are stored as a salted scrypt hash rather than
 * sealed: a stolen database and key together still do not give them back. Chosen by people, so a
 * slow hash, unlike the random client secrets of apps.
 */
export async function hashSftpPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64url')}$${(await derive(password, salt)).toString('base64url')}`;
}

export async function verifySftpPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, salt, expected] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !expected) return false;
  const got = await derive(password, Buffer.from(salt, 'base64url'));
  const want = Buffer.from(expected, 'base64url');
  return got.length === want.length && timingSafeEqual(got, want);
}
