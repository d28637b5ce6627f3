import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { safeEqual } from '@edu/signing';

/** A login initiation on its way to the LMS, keyed by the `state` sent there. */
export interface LtiLogin {
  providerId: string;
  nonce: string;
  /** SHA-256 of the cookie set in the browser that started the login (login CSRF). */
  binding: string;
}

/** A person an LMS launched, waiting for the app's authorization request in the same browser. */
export interface LtiSignIn {
  tenantId: string;
  providerId: string;
  userId: string;
  /** The apps the launch may sign the person in to (those whose address the target link names). */
  appIds: string[];
  linked: boolean;
  provisioned: boolean;
  /** The launch's id_token, checked again at the app's sign-in when the provider asks for it. */
  idToken?: string;
  nonce: string;
}

const LOGIN = 'LtiLogin';
const NONCE = 'LtiNonce';
const SIGN_IN = 'LtiSignIn';
const digest = (v: string) => createHash('sha256').update(v).digest('base64url');

/**
 * LTI protocol state in PostgreSQL (`oidc_payloads`), so any replica serves any step: the login's
 * `state` (used once), the nonces already accepted (a replayed id_token is refused on every
 * replica) and the launched person bound to the browser by a cookie (stored as its digest).
 */
@Injectable()
export class LtiStore {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Stores the login; returns its `state` and the cookie value that binds it to this browser. */
  async saveLogin(login: Omit<LtiLogin, 'binding'>, ttlSeconds: number): Promise<{ state: string; cookie: string }> {
    const state = randomBytes(32).toString('base64url');
    const cookie = randomBytes(32).toString('base64url');
    await this.insert(LOGIN, state, { ...login, binding: digest(cookie) }, ttlSeconds);
    return { state, cookie };
  }

  static bindingMatches(login: LtiLogin, cookie: string | undefined): boolean {
    return typeof cookie === 'string' && typeof login.binding === 'string' && safeEqual(digest(cookie), login.binding);
  }

  /** The login for `state`, removed (a replayed `state` finds nothing). */
  takeLogin(state: string): Promise<LtiLogin | undefined> {
    return this.take<LtiLogin>(LOGIN, state);
  }

  /** Records `nonce` as used until `expiresAt`; false when it was used before (a replay). */
  async useNonce(providerId: string, nonce: string, expiresAt: Date): Promise<boolean> {
    const rows: unknown[] = await this.ds.query(
      `INSERT INTO oidc_payloads (kind, id, payload, expires_at) VALUES ($1, $2, '{}'::jsonb, $3)
       ON CONFLICT (kind, id) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE oidc_payloads.expires_at <= now()
       RETURNING 1`,
      [NONCE, `${providerId}:${digest(nonce)}`, expiresAt],
    );
    return rows.length === 1;
  }

  /** Stores the launched person; returns the cookie value that binds them to this browser. */
  async saveSignIn(signIn: LtiSignIn, ttlSeconds: number): Promise<string> {
    const cookie = randomBytes(32).toString('base64url');
    await this.insert(SIGN_IN, digest(cookie), signIn, ttlSeconds);
    return cookie;
  }

  /** The launched person bound to this cookie for `appId`, removed: one launch signs in once (and only to its apps). */
  takeSignIn(cookie: string, appId: string): Promise<LtiSignIn | undefined> {
    return this.take<LtiSignIn>(SIGN_IN, digest(cookie), { appIds: [appId] });
  }

  private async insert(kind: string, id: string, payload: object, ttlSeconds: number): Promise<void> {
    await this.ds.query(
      `INSERT INTO oidc_payloads (kind, id, payload, expires_at) VALUES ($1, $2, $3, now() + ($4 || ' seconds')::interval)`,
      [kind, id, payload, String(ttlSeconds)],
    );
  }

  /** Removes and returns the row (`holding`: only when its payload contains that). */
  private async take<T>(kind: string, id: string, holding: object = {}): Promise<T | undefined> {
    // TypeORM answers a DELETE ... RETURNING with [rows, count].
    const [rows]: [{ payload: T; live: boolean }[], number] = await this.ds.query(
      `DELETE FROM oidc_payloads WHERE kind = $1 AND id = $2 AND payload @> $3::jsonb RETURNING payload, expires_at > now() AS live`,
      [kind, id, JSON.stringify(holding)],
    );
    return rows[0]?.live ? rows[0].payload : undefined;
  }
}
