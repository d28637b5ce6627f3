import { createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/** What a portal link carries: the session it opens and until when (ms). */
export interface PortalLink {
  sessionId: string;
  expiresAt: number;
}

const b64 = (b: Buffer): string => b.toString('base64url');

function sameBytes(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The portal's secrets: links are HMAC-signed (key derived from KEY_ENCRYPTION_KEY, so every
 * replica verifies what any replica signed), a session's cookie secret is random and stored
 * hashed, and a session's CSRF token is derived from its id.
 */
export class PortalKeys {
  private readonly key: Buffer;

  constructor(keyEncryptionKey: string) {
    this.key = Buffer.from(hkdfSync('sha256', keyEncryptionKey, 'edu-alerts', 'delivery-portal-links', 32));
  }

  /** `<payload>.<signature>`, both base64url: the link's token. */
  sign(link: PortalLink): string {
    const payload = b64(Buffer.from(JSON.stringify({ s: link.sessionId, e: link.expiresAt })));
    return `${payload}.${this.mac(payload)}`;
  }

  /** The link a token carries when its signature holds and it has not expired; undefined otherwise. */
  verify(token: string, now = Date.now()): PortalLink | undefined {
    const [payload, signature, extra] = token.split('.');
    if (!payload || !signature || extra !== undefined || !sameBytes(signature, this.mac(payload))) return undefined;
    try {
      const { s, e } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { s?: unknown; e?: unknown };
      if (typeof s !== 'string' || typeof e !== 'number' || e <= now) return undefined;
      return { sessionId: s, expiresAt: e };
    } catch {
      return undefined;
    }
  }

  /** A new cookie secret and the hash stored for it. */
  sessionSecret(): { secret: string; hash: string } {
    const secret = b64(randomBytes(32));
    return { secret, hash: PortalKeys.hash(secret) };
  }

  static hash(secret: string): string {
    return createHash('sha256').update(secret).digest('hex');
  }

  static matches(secret: string, hash: string): boolean {
    return sameBytes(PortalKeys.hash(secret), hash);
  }

  /** The CSRF token of a session's forms. */
  csrf(sessionId: string): string {
    return this.mac(`csrf:${sessionId}`);
  }

  csrfMatches(sessionId: string, token: unknown): boolean {
    return typeof token === 'string' && sameBytes(token, this.csrf(sessionId));
  }

  private mac(text: string): string {
    return b64(createHmac('sha256', this.key).update(text).digest());
  }
}
