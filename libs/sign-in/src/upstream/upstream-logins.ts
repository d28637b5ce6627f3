import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { safeEqual } from '@edu/signing';
import type { UpstreamChecks } from './upstream-client';
import { SignInSql } from '../sign-in-sql';

/** A person on their way to an upstream provider, keyed by the `state` sent there. */
export interface UpstreamLogin extends UpstreamChecks {
  uid: string;
  tenantId: string;
  providerId: string;
  appId: string;
  /** Where the portal ran (the issuer's host or a vanity domain), to come back to it. */
  portalOrigin: string;
  /** SHA-256 of the value of the browser-binding cookie set when the person left. */
  binding: string;
}

const KIND = 'UpstreamLogin';
const digest = (v: string) => createHash('sha256').update(v).digest('base64url');

/**
 * Upstream-login state in PostgreSQL (`oidc_payloads`, kind `UpstreamLogin`): any replica takes
 * the person's return. A record is used once, and only in the browser holding its binding cookie.
 */
@Injectable()
export class UpstreamLogins {
  // The pg pool itself: three statements of every sign-in, no ORM needed.
  constructor(private readonly db: SignInSql) {}

  /** Stores the login; returns the cookie value that binds it to this browser. */
  async save(login: Omit<UpstreamLogin, 'binding'>, ttlSeconds: number): Promise<string> {
    const cookie = randomBytes(32).toString('base64url');
    const payload: UpstreamLogin = { ...login, binding: digest(cookie) };
    await this.db.query(
      `INSERT INTO oidc_payloads (kind, id, payload, uid, expires_at) VALUES ($1, $2, $3, $4, now() + ($5 || ' seconds')::interval)`,
      [KIND, login.state, payload, login.uid, String(ttlSeconds)],
    );
    return cookie;
  }

  /** The login for `state`, left in place (the callback only routes the person back to their portal). */
  async peek(state: string): Promise<UpstreamLogin | undefined> {
    const { rows } = await this.db.query<{ payload: UpstreamLogin }>(
      `SELECT payload FROM oidc_payloads WHERE kind = $1 AND id = $2 AND expires_at > now()`,
      [KIND, state],
    );
    return rows[0]?.payload;
  }

  /** Removes and returns the login (once: a replayed `state` finds nothing). */
  async take(state: string): Promise<UpstreamLogin | undefined> {
    const { rows } = await this.db.query<{ payload: UpstreamLogin; live: boolean }>(
      `DELETE FROM oidc_payloads WHERE kind = $1 AND id = $2 RETURNING payload, expires_at > now() AS live`,
      [KIND, state],
    );
    return rows[0]?.live ? rows[0].payload : undefined;
  }

  static bindingMatches(login: UpstreamLogin, cookie: string | undefined): boolean {
    return typeof cookie === 'string' && safeEqual(digest(cookie), login.binding);
  }
}
