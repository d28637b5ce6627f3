import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RefusalReason } from '../log/refusal-reason';
import { OidcInteractions } from '../oidc/oidc-interactions';
import { SignInRepository } from '../sign-in.repository';
import { PortalPrefetch } from './portal-prefetch';
import { problem, type Interaction, type Step } from './portal-steps';
import { RefuseSignIn } from './refuse-sign-in';

const EXPIRED = 'This sign-in has expired';

/** The OpenID Connect side of a portal page: which authorization this browser is in, and giving it up. */
@Injectable()
export class PortalInteractions {
  constructor(
    private readonly oidc: OidcInteractions,
    private readonly repo: SignInRepository,
    private readonly prefetch: PortalPrefetch,
    private readonly refusals: RefuseSignIn,
  ) {}

  /**
   * The interaction this browser started (oidc-provider checks its interaction cookie). Refused
   * before the app or school is known: only the service log has these, never a tenant's log.
   */
  async find(req: Request, res: Response, uid: string): Promise<Interaction | Step> {
    // Every portal request starts here: what its steps read is read at once.
    await this.prefetch.load(req, uid);
    const details = await this.oidc.details(req, res);
    const link = uid.slice(0, 64);
    if (!details) {
      const message = 'This sign-in expired or was started in another browser. Go back to the app and sign in again.';
      return this.refusals.refuse(problem(400, EXPIRED, message, RefusalReason.InteractionNotFound), {
        detail: `no live interaction in this browser for ${link}`,
      });
    }
    if (details.uid !== uid) {
      const message = 'This sign-in link does not belong to this browser. Go back to the app and sign in again.';
      return this.refusals.refuse(problem(400, EXPIRED, message, RefusalReason.InteractionMismatch), {
        detail: `the browser's interaction is ${details.uid}, not ${link}`,
      });
    }
    const clientId = String(details.params.client_id);
    const app = await this.repo.appByClientId(clientId);
    if (!app) {
      const message = 'The app that sent you here is not registered.';
      return this.refusals.refuse(problem(400, 'Unknown app', message, RefusalReason.UnknownClient), {
        detail: `no app has client_id ${clientId.slice(0, 128)}`,
      });
    }
    return { uid, params: details.params, app };
  }

  /** Ends the authorization with `access_denied` (the person chose to go back). */
  abort(req: Request, res: Response): Promise<void> {
    return this.oidc.abort(req, res);
  }
}
