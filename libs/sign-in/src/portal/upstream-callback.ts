import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { IdentityMapper } from '../accounts/identity-mapper';
import { RefusalReason } from '../log/refusal-reason';
import { OidcProviderHost } from '../oidc/oidc-provider.host';
import { SignInRepository } from '../sign-in.repository';
import { cookieOf } from '../ui/cookies';
import { UpstreamClient } from '../upstream/upstream-client';
import { UpstreamLogins } from '../upstream/upstream-logins';
import { UpstreamProviders } from '../upstream/upstream-providers';
import { CompleteSignIn } from './complete-sign-in';
import { BINDING_COOKIE, callbackUrl, problem, type Interaction, type Step } from './portal-steps';
import { RefuseSignIn } from './refuse-sign-in';

const EXPIRED = 'This sign-in has expired';

/** The way back from the upstream provider: to the browser that left, then who the person is at the school. */
@Injectable()
export class UpstreamCallback {
  constructor(
    private readonly host: OidcProviderHost,
    private readonly repo: SignInRepository,
    private readonly providers: UpstreamProviders,
    private readonly upstream: UpstreamClient,
    private readonly logins: UpstreamLogins,
    private readonly mapper: IdentityMapper,
    private readonly completion: CompleteSignIn,
    private readonly refusals: RefuseSignIn,
  ) {}

  /** The provider's redirect: back to the portal's host, where the browser's cookies are. */
  async callback(rawQuery: string, state: string | undefined): Promise<Step> {
    const login = state ? await this.logins.peek(state) : undefined;
    if (!login) {
      // Neither the interaction nor the school is known: the service log only. The state itself is not logged.
      const message = 'This sign-in is unknown or was already used. Go back to the app and sign in again.';
      return this.refusals.refuse(problem(400, EXPIRED, message, RefusalReason.UnknownState), {
        detail: state ? 'state unknown, expired or already used' : 'no state in the answer',
      });
    }
    return { kind: 'redirect', location: `${login.portalOrigin}/signin/interaction/${login.uid}/upstream?${rawQuery}` };
  }

  /** Verifies the provider's answer, maps the person, and completes the authorization. */
  async finish(req: Request, res: Response, it: Interaction, rawQuery: string): Promise<Step | 'done'> {
    const state = new URLSearchParams(rawQuery).get('state') ?? '';
    const login = await this.logins.take(state);
    const binding = req.cookies?.[BINDING_COOKIE] ?? cookieOf(req, BINDING_COOKIE);
    if (!login || login.uid !== it.uid || !UpstreamLogins.bindingMatches(login, binding)) {
      const message =
        'This sign-in does not belong to this browser or was already used. Go back to the app and sign in again.';
      return this.refusals.refuse(problem(400, EXPIRED, message, RefusalReason.StateMismatch, it.app), {
        it,
        tenantId: login?.tenantId,
        providerId: login?.providerId,
      });
    }
    const [tenant, p] = await Promise.all([
      this.repo.tenant(login.tenantId),
      this.providers.find(login.tenantId, login.providerId),
    ]);
    if (!tenant || !p || !(await this.repo.isDeployed(it.app.id, tenant.id))) {
      const message = 'This sign-in is no longer available at your school.';
      return this.refusals.refuse(
        problem(400, 'Sign-in not available', message, RefusalReason.ConfigurationChanged, it.app),
        { it, tenantId: login.tenantId, providerId: login.providerId },
      );
    }
    const answer = new URL(`${callbackUrl(this.host.issuer)}?${rawQuery}`);
    const who = await this.upstream
      .exchange(p, answer, login)
      .catch((err: unknown) => this.refusals.upstreamFailed(it, tenant.id, p, err));
    if ('kind' in who) return who;
    const mapped = await this.mapper.map(tenant.id, p, who);
    if ('refused' in mapped) return this.refusals.person(it, tenant, p, mapped.refused);
    const { member, linked, provisioned } = mapped;
    return this.completion.signedIn(
      req,
      res,
      it,
      { tenantId: tenant.id, providerId: p.id },
      { userId: member.userId, linked, provisioned },
    );
  }
}
