import { createHmac, randomBytes } from 'node:crypto';

/** How Standard Webhooks secrets are written: the prefix, then the key in base64. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Key bytes of a new secret (the spec asks for 24 to 64). */
const SECRET_BYTES = 32;

/** A new Standard Webhooks secret, `whsec_` and 32 random bytes in base64. */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** Whether `secret` is written as a Standard Webhooks secret (`whsec_` and base64 key bytes). */
export function isWebhookSecret(secret: string): boolean {
  return /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/.test(secret);
}

/**
 * The `v1` signature of one request: HMAC-SHA256 under the secret's key bytes over
 * `<webhook-id>.<webhook-timestamp>.<body>`, base64. The body is signed as sent (any bytes), so
 * nothing here depends on what a delivery carries.
 */
export function standardWebhookSignature(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: Buffer | string,
): string {
  const key = Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.`).update(body);
  return `v1,${mac.digest('base64')}`;
}

/**
 * The Standard Webhooks headers of a request: `webhook-id`, `webhook-timestamp` (seconds) and,
 * with secrets, `webhook-signature` holding one `v1` signature per secret (space-separated; during
 * a rotation's overlap the new and the old secret both sign, so receivers holding either verify).
 */
export function standardWebhookHeaders(
  id: string,
  timestampSeconds: number,
  body: Buffer | string,
  secrets: readonly string[],
): Record<string, string> {
  const headers: Record<string, string> = { 'webhook-id': id, 'webhook-timestamp': String(timestampSeconds) };
  if (secrets.length)
    headers['webhook-signature'] = secrets
      .map((s) => standardWebhookSignature(s, id, timestampSeconds, body))
      .join(' ');
  return headers;
}
