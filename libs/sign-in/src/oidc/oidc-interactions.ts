import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { OidcProviderHost } from './oidc-provider.host';
import { PayloadWriteBatch } from './payload-writes';
import { SignInSql } from '../sign-in-sql';

/** The authorization a portal page is for, as the provider keeps it. */
export interface InteractionDetails {
  uid: string;
  params: Record<string, unknown>;
}

/**
 * Every call the sign-in flows make into the OpenID Connect provider: they never hold the
 * provider itself, so its API is used here only (with the host that builds it).
 */
@Injectable()
export class OidcInteractions {
  constructor(
    private readonly host: OidcProviderHost,
    private readonly pool: SignInSql,
  ) {}

  /** The interaction this browser started (the provider checks its interaction cookie); undefined when it has none. */
  async details(req: Request, res: Response): Promise<InteractionDetails | undefined> {
    const provider = await this.host.provider();
    try {
      const d = await provider.interactionDetails(req, res);
      return { uid: d.uid, params: d.params };
    } catch {
      return undefined;
    }
  }

  /** Ends the authorization with `access_denied` (the person chose to go back). */
  async abort(req: Request, res: Response): Promise<void> {
    const provider = await this.host.provider();
    await provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'the person did not complete the sign-in' },
      { mergeWithLastSubmission: false },
    );
  }

  /**
   * Completes the authorization: the person signed in through a federated provider, with a new
   * grant of `scope` for the account at the client. The grant and the interaction's result are
   * stored in one round trip; `recorded(grantId)` runs after that and before the browser is sent
   * on (its own record of the grant), so a failure there leaves the person where they are.
   */
  async signedIn(
    req: Request,
    res: Response,
    c: { accountId: string; clientId: string; scope: string },
    recorded: (grantId: string) => Promise<void>,
  ): Promise<void> {
    const provider = await this.host.provider();
    let grantId = '';
    let returnTo = '';
    await PayloadWriteBatch.around(this.pool, async () => {
      const grant = new provider.Grant({ accountId: c.accountId, clientId: c.clientId });
      grant.addOIDCScope(c.scope);
      grantId = await grant.save();
      const result = { login: { accountId: c.accountId, amr: ['fed'] }, consent: { grantId } };
      returnTo = await provider.interactionResult(req, res, result, { mergeWithLastSubmission: false });
    });
    await recorded(grantId);
    // What the provider's interactionFinished answers, once everything is stored.
    res.status(303).set({ Location: returnTo, 'Content-Length': '0' }).end();
  }

  /**
   * Consumes a live, unused code issued for `redirectUri` (a replay finds it used) and returns its
   * grant id; undefined, and nothing consumed, for any other code.
   */
  async consumeCode(value: string, redirectUri: string): Promise<string | undefined> {
    const provider = await this.host.provider();
    const code = await provider.AuthorizationCode.find(value).catch(() => undefined);
    const consumed = (code as { consumed?: unknown } | undefined)?.consumed;
    if (!code || code.isExpired || consumed || code.redirectUri !== redirectUri || !code.grantId) return undefined;
    await code.consume();
    return code.grantId;
  }
}
