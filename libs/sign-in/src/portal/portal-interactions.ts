import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RefusalReason } from '../log/refusal-reason';
import { OidcInteractions } from '../oidc/oidc-interactions';
import { SignInRepository } from '../sign-in.repository';
import { PortalPrefetch } from './portal-prefetch';
import { problem, type Interaction, type Step } from './portal-steps';

const EXPIRED = 'This sign-in has expired';

/** The OpenID Connect side of a portal page: which authorization this browser is in, and giving it up. */
@Injectable()
export class PortalInteractions {
  constructor(
    private readonly oidc: OidcInteractions,
    private readonly repo: SignInRepository,
    private readonly prefetch: PortalPrefetch,
  ) {}

  /** The interaction this browser started (oidc-provider checks its interaction cookie). */
  async find(req: Request, res: Response, uid: string): Promise<Interaction | Step> {
    // Every portal request starts here: what its steps read is read at once.
    await this.prefetch.load(req, uid);
    const details = await this.oidc.details(req, res);
    if (!details)
      return problem(
        400,
        EXPIRED,
        'This sign-in expired or was started in another browser. Go back to the app and sign in again.',
        RefusalReason.InteractionNotFound,
      );
    if (details.uid !== uid)
      return problem(
        400,
        EXPIRED,
        'This sign-in link does not belong to this browser. Go back to the app and sign in again.',
        RefusalReason.InteractionMismatch,
      );
    const app = await this.repo.appByClientId(String(details.params.client_id));
    if (!app)
      return problem(400, 'Unknown app', 'The app that sent you here is not registered.', RefusalReason.UnknownClient);
    return { uid, params: details.params, app };
  }

  /** Ends the authorization with `access_denied` (the person chose to go back). */
  abort(req: Request, res: Response): Promise<void> {
    return this.oidc.abort(req, res);
  }
}
