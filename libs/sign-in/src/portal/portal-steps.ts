import type { Request } from 'express';
import type { RefusalReason } from '../log/refusal-reason';
import type { SignInApp, SignInTenant } from '../sign-in.repository';
import type { UpstreamProvider } from '../upstream/upstream-provider';

/** What the portal shows or does next; the controller turns it into a response. */
export type Step =
  | { kind: 'pick'; app: SignInApp; query: string; results?: SignInTenant[] }
  | { kind: 'providers'; app: SignInApp; tenant: SignInTenant; providers: UpstreamProvider[]; pickAnother: boolean }
  | { kind: 'redirect'; location: string; cookie?: { name: string; value: string; path: string; maxAgeMs: number } }
  | { kind: 'problem'; status: number; title: string; message: string; app?: SignInApp; reason: RefusalReason };

/** The OpenID Connect authorization this browser is signing in for. */
export interface Interaction {
  uid: string;
  params: Record<string, unknown>;
  app: SignInApp;
}

export const problem = (
  status: number,
  title: string,
  message: string,
  reason: RefusalReason,
  app?: SignInApp,
): Step => ({ kind: 'problem', status, title, message, reason, app });

/** Binds the trip to the upstream provider to the browser that left for it. */
export const BINDING_COOKIE = 'signin_upstream';
/** The redirect URI registered at upstream providers. */
export const CALLBACK_PATH = '/signin/callback';

export const callbackUrl = (issuer: string): string => `${issuer}${CALLBACK_PATH}`;

export function stringParam(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** The origin the person is using (the issuer's host or a vanity domain). */
export function portalOrigin(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? req.hostname}`;
}
