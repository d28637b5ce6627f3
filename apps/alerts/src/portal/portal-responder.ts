import { Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError, ApiErrorCode, isUuid } from '@edu/domain';
import { AlertsEnv, alertsPublicBaseUrl } from '../config/alerts.env';
import { PORTAL_CSP, PORTAL_PATH, refusalPage } from './portal-html';
import { dashboardPage, type Flash } from './portal-page';
import { PortalReader } from './portal-reader';
import { PORTAL_COOKIE, PortalSessions, type PortalSession } from './portal-sessions';

/** Headers of every portal answer: strict CSP, never cached, framed or referred. */
export function portalHeaders(res: Response): Response {
  return res
    .set('Content-Security-Policy', PORTAL_CSP)
    .set('Cache-Control', 'no-store')
    .set('Referrer-Policy', 'no-referrer')
    .set('X-Content-Type-Options', 'nosniff')
    .set('X-Frame-Options', 'DENY');
}

const ENDED = [
  'This portal session has ended',
  'Portal links work once and for a short time. Ask your app for a new link to see your webhook deliveries.',
] as const;

/** The value of one cookie of a request (no cookie parser runs in this service). */
function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

/**
 * How the portal's pages answer: the session from its cookie (a refusal page without one), the
 * CSRF check of its forms, the page with the outcome of an action, and refusals that show
 * nothing of anyone's data. Errors of the API's rules become the action's outcome; an id that is
 * not the app's is refused like an unknown one.
 */
@Injectable()
export class PortalResponder {
  private readonly logger = new Logger('DeliveryPortal');

  constructor(
    private readonly sessions: PortalSessions,
    private readonly reader: PortalReader,
    private readonly env: AlertsEnv,
  ) {}

  refuse(res: Response, status: number, title: string, text: string): void {
    portalHeaders(res).status(status).type('html').send(refusalPage(title, text));
  }

  /** Opens a session from its link: the cookie, then the portal (or a refusal when the link is bad, used or expired). */
  async open(token: unknown, res: Response): Promise<void> {
    const opened = typeof token === 'string' && token.length < 2_000 ? await this.sessions.open(token) : undefined;
    if (!opened) return this.refuse(res, 403, ...ENDED);
    const secure = this.env.NODE_ENV === 'production' || alertsPublicBaseUrl(this.env).startsWith('https:');
    portalHeaders(res)
      .cookie(PORTAL_COOKIE, opened.cookie, {
        path: PORTAL_PATH,
        httpOnly: true,
        sameSite: 'lax',
        secure,
        expires: opened.expiresAt,
      })
      .redirect(303, PORTAL_PATH);
  }

  /** Runs `act` for the request's session (forms: with their CSRF token) and answers the page with its outcome. */
  async page(
    req: Request,
    res: Response,
    act?: (s: PortalSession) => Promise<Flash>,
    ids: string[] = [],
  ): Promise<void> {
    try {
      const session = await this.sessions.current(cookieOf(req, PORTAL_COOKIE));
      if (!session) return this.refuse(res, 403, ...ENDED);
      if (act && !this.sessions.keys.csrfMatches(session.id, (req.body as { csrf?: unknown } | undefined)?.csrf))
        return this.refuse(res, 403, 'This form has expired', 'Reload the portal page and try again.');
      if (ids.some((id) => !isUuid(id))) return this.notFound(res);
      const flash = act ? await this.outcome(act, session) : undefined;
      if (flash === 'not-found') return this.notFound(res);
      const data = await this.reader.load(session);
      portalHeaders(res)
        .status(200)
        .type('html')
        .send(dashboardPage(data, session.csrf, flash));
    } catch (err) {
      this.logger.error({ err }, 'Delivery portal page failed');
      this.refuse(res, 503, 'The portal is not available right now', 'Try again in a few seconds.');
    }
  }

  private notFound(res: Response): void {
    this.refuse(res, 404, 'Not found', 'There is nothing here for your app.');
  }

  private async outcome(act: (s: PortalSession) => Promise<Flash>, s: PortalSession): Promise<Flash | 'not-found'> {
    try {
      return await act(s);
    } catch (err) {
      if (!(err instanceof ApiError) || err.code === ApiErrorCode.ServiceUnavailable) throw err;
      if (err.code === ApiErrorCode.NotFound) return 'not-found';
      return { text: err.message, bad: true };
    }
  }
}
