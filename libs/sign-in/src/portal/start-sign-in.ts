import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { RefusalReason } from '../log/refusal-reason';
import { OidcProviderHost } from '../oidc/oidc-provider.host';
import { SignInEnv } from '../sign-in.env';
import { UpstreamClient } from '../upstream/upstream-client';
import { UpstreamLogins } from '../upstream/upstream-logins';
import { UpstreamProviders } from '../upstream/upstream-providers';
import { BINDING_COOKIE, callbackUrl, portalOrigin, problem, type Interaction, type Step } from './portal-steps';
import { RefuseSignIn } from './refuse-sign-in';
import { SchoolChoice } from './school-choice';

/** The first half of a sign-in: the school page, its ways of signing in, and the trip to the chosen provider. */
@Injectable()
export class StartSignIn {
  constructor(
    private readonly env: SignInEnv,
    private readonly host: OidcProviderHost,
    private readonly schools: SchoolChoice,
    private readonly providers: UpstreamProviders,
    private readonly upstream: UpstreamClient,
    private readonly logins: UpstreamLogins,
    private readonly refusals: RefuseSignIn,
  ) {}

  /** The school page: a tenant chosen by vanity domain, parameter or hint, else the search. */
  async show(req: Request, it: Interaction, query: { tenant?: string; q?: string; pick?: string }): Promise<Step> {
    const chosen = await this.schools.resolve(req, it, query.pick ? undefined : query.tenant);
    if ('kind' in chosen) return chosen;
    if (!chosen.tenant) {
      const q = (query.q ?? '').trim().slice(0, 100);
      const results = q.length >= 2 ? await this.schools.search(req, it, q) : undefined;
      return { kind: 'pick', app: it.app, query: q, results };
    }
    const providers = await this.providers.forTenant(chosen.tenant.id);
    return { kind: 'providers', app: it.app, tenant: chosen.tenant, providers, pickAnother: !chosen.fixed };
  }

  /** Sends the person to the chosen provider, bound to this browser by a cookie. */
  async start(
    req: Request,
    it: Interaction,
    tenantId: string | undefined,
    providerId: string | undefined,
  ): Promise<Step> {
    const chosen = await this.schools.resolve(req, it, tenantId);
    if ('kind' in chosen) return chosen;
    // No school: the app is known, the tenant is not (none is guessed for its log).
    if (!chosen.tenant)
      return this.refusals.refuse(
        problem(400, 'Choose your school', 'Choose your school first.', RefusalReason.NoTenant, it.app),
        { it, detail: 'no tenant in the form, the authorization or the address' },
      );
    const tenant = chosen.tenant;
    const at = { it, tenantId: tenant.id };
    if (!(await this.schools.isPortalHost(req))) {
      const message = 'Sign in through your school’s sign-in page.';
      return this.refusals.refuse(
        problem(400, 'Unknown sign-in address', message, RefusalReason.UnknownHost, it.app),
        at,
      );
    }
    const p = providerId ? await this.providers.find(tenant.id, providerId) : undefined;
    if (!p) {
      const message = `That way of signing in is not offered at ${tenant.name}.`;
      return this.refusals.refuse(
        problem(400, 'Sign-in method not available', message, RefusalReason.ProviderNotInUse, it.app),
        at,
      );
    }
    const sent = await this.upstream
      .authorizationUrl(p, callbackUrl(this.host.issuer))
      .catch((err: unknown) => this.refusals.upstreamFailed(it, tenant.id, p, err));
    if ('kind' in sent) return sent;
    const ttl = this.env.SIGNIN_INTERACTION_TTL_SECONDS;
    const binding = { uid: it.uid, tenantId: tenant.id, providerId: p.id, appId: it.app.id };
    const cookie = await this.logins.save({ ...sent.checks, ...binding, portalOrigin: portalOrigin(req) }, ttl);
    return {
      kind: 'redirect',
      location: sent.url.href,
      cookie: { name: BINDING_COOKIE, value: cookie, path: `/signin/interaction/${it.uid}`, maxAgeMs: ttl * 1000 },
    };
  }
}
