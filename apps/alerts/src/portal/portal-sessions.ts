import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, LessThan } from 'typeorm';
import { AlertPortalSessionEntity } from '@edu/persistence';
import { AlertsEnv } from '../config/alerts.env';
import { PortalKeys } from './portal-keys';

/** An open portal session: whose data it shows, until when, and its forms' CSRF token. */
export interface PortalSession {
  id: string;
  tenantId: string;
  appId: string;
  expiresAt: Date;
  csrf: string;
}

/** The session cookie: `<session id>.<secret>`. */
export const PORTAL_COOKIE = 'edu_portal';

/**
 * Portal sessions: made by the app's API call (a signed link), opened once from the link (the
 * link cannot be used twice, so one found later in a log or a browser history opens nothing),
 * then found from the HttpOnly cookie until they expire.
 */
@Injectable()
export class PortalSessions {
  readonly keys: PortalKeys;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    env: AlertsEnv,
  ) {
    this.keys = new PortalKeys(env.KEY_ENCRYPTION_KEY);
  }

  private get repo() {
    return this.ds.getRepository(AlertPortalSessionEntity);
  }

  /** A new session of the app at the tenant for `seconds`; returns its link token. Expired ones of the app go. */
  async create(tenantId: string, appId: string, seconds: number): Promise<{ token: string; expiresAt: Date }> {
    await this.repo.delete({ appId, expiresAt: LessThan(new Date()) });
    const expiresAt = new Date(Date.now() + seconds * 1000);
    const id = randomUUID();
    await this.repo.insert({ id, tenantId, appId, expiresAt });
    return { token: this.keys.sign({ sessionId: id, expiresAt: expiresAt.getTime() }), expiresAt };
  }

  /** Opens the session a link names (once, before it expires): the cookie value, or undefined. */
  async open(token: string): Promise<{ cookie: string; expiresAt: Date } | undefined> {
    const link = this.keys.verify(token);
    if (!link) return undefined;
    const { secret, hash } = this.keys.sessionSecret();
    const [rows]: [{ expires_at: Date }[], number] = await this.ds.query(
      `UPDATE alert_portal_sessions SET opened_at = now(), session_hash = $2
        WHERE id = $1 AND opened_at IS NULL AND expires_at > now() RETURNING expires_at`,
      [link.sessionId, hash],
    );
    return rows[0] && { cookie: `${link.sessionId}.${secret}`, expiresAt: rows[0].expires_at };
  }

  /** The live session of a cookie value, or undefined (none, forged, expired). */
  async current(cookie: string | undefined): Promise<PortalSession | undefined> {
    const [id, secret] = (cookie ?? '').split('.');
    if (!id || !secret || !/^[0-9a-f-]{36}$/.test(id)) return undefined;
    const row = await this.repo.findOneBy({ id });
    if (!row?.sessionHash || row.expiresAt.getTime() <= Date.now() || !PortalKeys.matches(secret, row.sessionHash))
      return undefined;
    return { id, tenantId: row.tenantId, appId: row.appId, expiresAt: row.expiresAt, csrf: this.keys.csrf(id) };
  }
}
