import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { SignInSharing } from '../accounts/sign-in-sharing';
import { subjectFor } from '../accounts/tenant-subject';
import { SignInOutcomes } from '../log/sign-in-outcomes';
import { LTI_COOKIE } from '../lti/lti-launches';
import { LtiSignIns } from '../lti/lti-sign-ins';
import { OidcInteractions } from '../oidc/oidc-interactions';
import { SignInEnv } from '../sign-in.env';
import { SignInRepository } from '../sign-in.repository';
import { cookieOf } from '../ui/cookies';
import { problem, type Interaction, type Step } from './portal-steps';
import { RefuseSignIn } from './refuse-sign-in';

/** Where the person signed in: the school and the provider that vouched for them. */
export interface SignedInAt {
  readonly tenantId: string;
  readonly providerId: string;
}

/** The person the school knows, and whether this sign-in linked or added them. */
export interface SignedInPerson {
  readonly userId: string;
  readonly linked: boolean;
  readonly provisioned: boolean;
}

const OIDC_SCOPES = ['openid', 'offline_access', 'profile', 'email', 'tenant'];

/**
 * The end of every sign-in (OpenID Connect, SAML through the app's authorization, LTI launches):
 * data sharing is checked once for all of them, then the authorization is completed and recorded.
 */
@Injectable()
export class CompleteSignIn {
  constructor(
    private readonly env: SignInEnv,
    private readonly oidc: OidcInteractions,
    private readonly repo: SignInRepository,
    private readonly sharing: SignInSharing,
    private readonly launches: LtiSignIns,
    private readonly outcomes: SignInOutcomes,
    private readonly refusals: RefuseSignIn,
  ) {}

  /**
   * A browser an LMS just launched (LTI 1.3): the launched person is signed in to the app without
   * being asked again; undefined when there is no launch for this app in this browser.
   */
  async fromLaunch(req: Request, res: Response, it: Interaction): Promise<Step | 'done' | undefined> {
    const launched = await this.launches.take(cookieOf(req, LTI_COOKIE), it.app.id);
    if (!launched) return undefined;
    const { tenantId, providerId } = launched;
    if ('refused' in launched) {
      const r = launched.refused;
      const step = problem(r.status, r.title, r.message, r.reason, it.app);
      return this.refusals.refuse(step, { it, tenantId, providerId, detail: r.detail });
    }
    return this.signedIn(req, res, it, { tenantId, providerId }, launched);
  }

  /** Completes the authorization for the person and records the success; or refuses a person the school does not share with the app. */
  async signedIn(
    req: Request,
    res: Response,
    it: Interaction,
    at: SignedInAt,
    who: SignedInPerson,
  ): Promise<Step | 'done'> {
    const { tenantId, providerId } = at;
    if (!(await this.sharing.sharesMember(tenantId, it.app.id, who.userId)))
      return this.refusals.notShared(it, await this.repo.tenant(tenantId), {
        it,
        tenantId,
        providerId,
        userId: who.userId,
      });
    // Recorded with the grant, before the redirect is sent: the app may read the log the moment it has its code.
    await this.grant(req, res, it, at, who.userId, () =>
      this.outcomes.succeeded({ protocol: 'oidc', tenantId, appId: it.app.id, providerId, ...who }),
    );
    return 'done';
  }

  private async grant(
    req: Request,
    res: Response,
    it: Interaction,
    at: SignedInAt,
    userId: string,
    andThen: () => Promise<void>,
  ): Promise<void> {
    // The account is the person at this tenant: apps see a different `sub` at each school.
    const accountId = subjectFor(at.tenantId, userId);
    const requested = String(it.params.scope ?? 'openid').split(' ');
    const scope = requested.filter((s) => OIDC_SCOPES.includes(s)).join(' ');
    const expiresAt = new Date(Date.now() + this.env.SIGNIN_REFRESH_TOKEN_TTL_SECONDS * 1000);
    await this.oidc.signedIn(req, res, { accountId, clientId: it.app.clientId, scope }, async (grantId) => {
      await this.repo.recordGrant({ grantId, ...at, userId, appId: it.app.id, expiresAt });
      await andThen();
    });
  }
}
