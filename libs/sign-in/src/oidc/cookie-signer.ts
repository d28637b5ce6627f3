import { createHmac, createSecretKey, hkdfSync, timingSafeEqual, type KeyObject } from 'node:crypto';

/** Signed-cookie keys derived from KEY_ENCRYPTION_KEY: every replica derives the same ones, no new secret. */
export function cookieKeys(secret: string): string[] {
  return [Buffer.from(hkdfSync('sha256', secret, 'edu-sign-in', 'oidc-provider cookies', 32)).toString('base64url')];
}

/**
 * The provider's cookie signatures, as Keygrip makes them (HMAC-SHA1 of `name=value`, base64url)
 * so cookies signed either way verify, with the keys imported once instead of for every HMAC and
 * a plain constant-time comparison: a sign-in reads and writes a dozen signed cookies, and
 * Keygrip's comparison costs two more HMACs and fresh random bytes each time.
 */
export class CookieSigner {
  private readonly keys: KeyObject[];

  constructor(keys: readonly string[]) {
    if (keys.length === 0) throw new Error('cookie keys must be provided');
    this.keys = keys.map((k) => createSecretKey(Buffer.from(k, 'utf8')));
  }

  sign(data: unknown): string {
    return this.signWith(this.keys[0], data);
  }

  verify(data: unknown, digest: string): boolean {
    return this.index(data, digest) > -1;
  }

  index(data: unknown, digest: string): number {
    const given = Buffer.from(String(digest));
    return this.keys.findIndex((key) => {
      const expected = Buffer.from(this.signWith(key, data));
      return expected.length === given.length && timingSafeEqual(expected, given);
    });
  }

  private signWith(key: KeyObject, data: unknown): string {
    return createHmac('sha1', key).update(String(data)).digest('base64url');
  }
}
