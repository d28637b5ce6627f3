import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { safeEqual } from '@edu/signing';

/** A service provider's AuthnRequest waiting for the person to sign in, keyed by the `state` of the authorization it started. */
export interface PendingSamlRequest {
  tenantId: string;
  appId: string;
  /** The AuthnRequest's ID (the response's InResponseTo); absent for an IdP-initiated sign-in. */
  requestId?: string;
  relayState?: string;
  nameIdFormat: string;
  /** SHA-256 of the browser-binding cookie. */
  binding: string;
}

const KIND = 'SamlRequest';
const digest = (v: string) => createHash('sha256').update(v).digest('base64url');

/** Pending SAML requests in PostgreSQL (`oidc_payloads`, kind `SamlRequest`): any replica completes them, each once, in the browser that started it. */
@Injectable()
export class SamlRequests {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Stores the request; returns its state and the cookie value binding it to this browser. */
  async save(
    request: Omit<PendingSamlRequest, 'binding'>,
    ttlSeconds: number,
  ): Promise<{ state: string; cookie: string }> {
    const state = randomBytes(24).toString('base64url');
    const cookie = randomBytes(32).toString('base64url');
    await this.ds.query(
      `INSERT INTO oidc_payloads (kind, id, payload, expires_at) VALUES ($1, $2, $3, now() + ($4 || ' seconds')::interval)`,
      [KIND, state, { ...request, binding: digest(cookie) }, String(ttlSeconds)],
    );
    return { state, cookie };
  }

  /** Removes and returns the request when it is live and `cookie` is its binding (a replay finds nothing). */
  async take(state: string, cookie: string | undefined): Promise<PendingSamlRequest | undefined> {
    const [rows]: [{ payload: PendingSamlRequest; live: boolean }[], number] = await this.ds.query(
      `DELETE FROM oidc_payloads WHERE kind = $1 AND id = $2 RETURNING payload, expires_at > now() AS live`,
      [KIND, state],
    );
    const found = rows[0];
    if (!found?.live || typeof cookie !== 'string' || !safeEqual(digest(cookie), found.payload.binding))
      return undefined;
    return found.payload;
  }
}
