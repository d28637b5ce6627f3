import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Client secrets are 256-bit random values, so a salted SHA-256 is enough to make the stored
 * form useless to a thief (no dictionary to search) while keeping the token endpoint fast.
 */
export function generateClientSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function generateClientId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}

export function hashClientSecret(secret: string): string {
  const salt = randomBytes(16).toString('base64url');
  return `sha256$${salt}$${digest(salt, secret)}`;
}

export function verifyClientSecret(secret: string, stored: string): boolean {
  const [scheme, salt, expected] = stored.split('$');
  if (scheme !== 'sha256' || !salt || !expected) return false;
  return safeEqual(digest(salt, secret), expected);
}

/** Constant-time comparison of two strings (lengths may differ). */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

function digest(salt: string, secret: string): string {
  return createHash('sha256').update(`${salt}:${secret}`, 'utf8').digest('base64url');
}
