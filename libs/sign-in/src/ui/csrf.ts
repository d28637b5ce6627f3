import { createHmac, createSecretKey, hkdfSync, timingSafeEqual, type KeyObject } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { SignInEnv } from '../sign-in.env';

/**
 * CSRF tokens of the portal's forms: an HMAC of the interaction id under a key derived from
 * KEY_ENCRYPTION_KEY. Pages are shown only to the browser holding that interaction's signed
 * cookie, so the token is one only that browser can read; any replica can check it (no state).
 */
@Injectable()
export class PortalCsrf {
  // Imported once: every portal page and form makes or checks a token.
  private readonly key: KeyObject;

  constructor(env: SignInEnv) {
    this.key = createSecretKey(
      Buffer.from(hkdfSync('sha256', env.KEY_ENCRYPTION_KEY, 'edu-sign-in', 'portal form csrf', 32)),
    );
  }

  token(uid: string): string {
    return createHmac('sha256', this.key).update(`portal-form:${uid}`).digest('base64url');
  }

  /** The form's token matches, and a browser that says where the form came from says: this host. */
  check(req: Request, uid: string, token: unknown): boolean {
    if (typeof token !== 'string' || !sameOrigin(req)) return false;
    const want = Buffer.from(this.token(uid));
    const got = Buffer.from(token);
    return got.length === want.length && timingSafeEqual(got, want);
  }
}

/**
 * `Origin` of a browser's request names this host; where it is absent or `null` (the pages'
 * `no-referrer` policy makes a browser send `null` on a POST), `Sec-Fetch-Site` must not say
 * another site. A client that sends neither relies on the token alone.
 */
export function sameOrigin(req: Request): boolean {
  const origin = req.get('origin');
  if (origin && origin !== 'null') {
    try {
      return new URL(origin).host === req.get('host');
    } catch {
      return false;
    }
  }
  const site = req.get('sec-fetch-site');
  return !site || site === 'same-origin' || site === 'none';
}
