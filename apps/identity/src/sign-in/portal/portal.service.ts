import { Injectable, Logger } from '@nestjs/common';
import type { Request } from 'express';
import type Provider from 'oidc-provider';
import { IdentityEnv } from '../../config/identity.env';
import { IdentityMapper, type Refusal } from '../accounts/identity-mapper';
import { SignInSharing } from '../accounts/sign-in-sharing';
import { subjectFor } from '../accounts/tenant-subject';
import { SignInLog } from '../log/sign-in-log';
import { LTI_COOKIE } from '../lti/lti-launches';
import { LtiSignIns } from '../lti/lti-sign-ins';
import { OidcProviderHost } from '../oidc/oidc-provider.host';
import { SignInRepository, type SignInApp, type SignInTenant } from '../sign-in.repository';
import { cookieOf } from '../ui/cookies';
import { UpstreamClient, UpstreamError } from '../upstream/upstream-client';
import { UpstreamLogins } from '../upstream/upstream-logins';
import type { UpstreamProvider } from '../upstream/upstream-provider';
import { UpstreamProviders } from '../upstream/upstream-providers';

/** What the portal shows or does next; the controller turns it into a response. */
export type Step =
  | { kind: 'pick'; app: SignInApp; query: string; results?: SignInTenant[] }
  | { kind: 'providers'; app: SignInApp; tenant: SignInTenant; providers: UpstreamProvider[]; pickAnother: boolean }
  | { kind: 'redirect'; location: string; cookie?: { name: string; value: string; path: string; maxAgeMs: number } }
  | { kind: 'problem'; status: number; title: string; message: string; app?: SignInApp; reason: string };

export interface Interaction {
  uid: string;
  params: Record<string, unknown>;
  app: SignInApp;
}

const problem = (status: number, title: string, message: string, reason: string, app?: SignInApp): Step => ({
  kind: 'problem',
  status,
  title,
  message,
  reason,
  app,
});

export const BINDING_COOKIE = 'signin_upstream';
export const CALLBACK_PATH = '/signin/callback';

const REFUSAL_PAGES: Record<Refusal, { title: string; message: (t: SignInTenant, p: UpstreamProvider) => string }> = {
  not_enrolled: {
    title: 'Not enrolled at this school',
    message: (t, p) =>
      `The ${p.label} account you used is not enrolled at ${t.name}. Sign in with your school account, or ask your school to add you.`,
  },
  provider_not_allowed: {
    title: 'Use another way to sign in',
    message: (t, p) => `${t.name} does not let your group sign in with ${p.label}. Choose another way to sign in.`,
  },
};

/** The school does not share the person with the app (data sharing): the page says so without naming what is shared. */
const notShared = (tenant: SignInTenant | null, app: SignInApp): Step =>
  problem(
    403,
    'Not shared with this app',
    `${tenant?.name ?? 'Your school'} does not share your information with ${app.name}, so you cannot sign in to it. Ask your school if you need to use it.`,
    'not_shared',
    app,
  );

/** The sign-in portal's rules: which school, which providers, the trip to the provider and back. */
@Injectable()
export class PortalService {
  private readonly logger = new Logger('SignIn');

  constructor(
    private readonly env: IdentityEnv,
    private readonly host: OidcProviderHost,
    private readonly repo: SignInRepository,
    private readonly providers: UpstreamProviders,
    private readonly upstream: UpstreamClient,
    private readonly logins: UpstreamLogins,
    private readonly mapper: IdentityMapper,
    private readonly signInLog: SignInLog,
    private readonly launches: LtiSignIns,
    private readonly sharing: SignInSharing,
  ) {}

  /** The interaction this browser started (oidc-provider checks its interaction cookie). */
  async interaction(req: Request, res: import('express').Response, uid: string): Promise<Interaction | Step> {
    const provider = await this.host.provider();
    let details: Awaited<ReturnType<Provider['interactionDetails']>>;
    try {
      details = await provider.interactionDetails(req, res);
    } catch {
      return problem(
        400,
        'This sign-in has expired',
        'This sign-in expired or was started in another browser. Go back to the app and sign in again.',
        'interaction_not_found',
      );
    }
    if (details.uid !== uid)
      return problem(
        400,
        'This sign-in has expired',
        'This sign-in link does not belong to this browser. Go back to the app and sign in again.',
        'interaction_mismatch',
      );
    const app = await this.repo.appByClientId(String(details.params.client_id));
    if (!app) return problem(400, 'Unknown app', 'The app that sent you here is not registered.', 'unknown_client');
    return { uid, params: details.params, app };
  }

  /** The school page: a tenant chosen by vanity domain, parameter or hint, else the search. */
  async show(req: Request, it: Interaction, query: { tenant?: string; q?: string; pick?: string }): Promise<Step> {
    const tenant = await this.resolveTenant(req, it, query.pick ? undefined : query.tenant);
    if ('kind' in tenant) return tenant;
    if (!tenant.tenant) {
      const q = (query.q ?? '').trim().slice(0, 100);
      return {
        kind: 'pick',
        app: it.app,
        query: q,
        results: q.length >= 2 ? await this.searchSchools(req, it, q) : undefined,
      };
    }
    return {
      kind: 'providers',
      app: it.app,
      tenant: tenant.tenant,
      providers: await this.providers.forTenant(tenant.tenant.id),
      pickAnother: !tenant.fixed,
    };
  }

  /** Schools matching `q` where the app is deployed; on a vanity domain, only the domain's (others would be refused). */
  private async searchSchools(req: Request, it: Interaction, q: string): Promise<SignInTenant[]> {
    const domainTenants = await this.repo.vanityDomainTenants(req.hostname);
    if (!domainTenants) return this.repo.searchTenants(it.app.id, q);
    return (await this.repo.searchTenants(it.app.id, q, 200)).filter((t) => domainTenants.includes(t.id)).slice(0, 20);
  }

  /** Sends the person to the chosen provider, bound to this browser by a cookie. */
  async start(
    req: Request,
    it: Interaction,
    tenantId: string | undefined,
    providerId: string | undefined,
  ): Promise<Step> {
    const resolved = await this.resolveTenant(req, it, tenantId);
    if ('kind' in resolved) return resolved;
    if (!resolved.tenant) return problem(400, 'Choose your school', 'Choose your school first.', 'no_tenant', it.app);
    const tenant = resolved.tenant;
    if (!(await this.isPortalHost(req)))
      return this.refuse(
        it,
        tenant,
        problem(400, 'Unknown sign-in address', 'Sign in through your school’s sign-in page.', 'unknown_host', it.app),
      );
    const p = providerId ? await this.providers.find(tenant.id, providerId) : undefined;
    if (!p)
      return this.refuse(
        it,
        tenant,
        problem(
          400,
          'Sign-in method not available',
          `That way of signing in is not offered at ${tenant.name}.`,
          'provider_not_in_use',
          it.app,
        ),
      );
    const sent = await this.upstream
      .authorizationUrl(p, this.callbackUrl())
      .catch((err: unknown) => this.upstreamFailed(it, tenant.id, p, err));
    if ('kind' in sent) return sent;
    const { url, checks } = sent;
    const ttl = this.env.SIGNIN_INTERACTION_TTL_SECONDS;
    const cookie = await this.logins.save(
      {
        ...checks,
        uid: it.uid,
        tenantId: tenant.id,
        providerId: p.id,
        appId: it.app.id,
        portalOrigin: portalOrigin(req),
      },
      ttl,
    );
    return {
      kind: 'redirect',
      location: url.href,
      cookie: { name: BINDING_COOKIE, value: cookie, path: `/signin/interaction/${it.uid}`, maxAgeMs: ttl * 1000 },
    };
  }

  /** The provider's redirect: back to the portal's host, where the browser's cookies are. */
  async callback(rawQuery: string, state: string | undefined): Promise<Step> {
    const login = state ? await this.logins.peek(state) : undefined;
    if (!login)
      return problem(
        400,
        'This sign-in has expired',
        'This sign-in is unknown or was already used. Go back to the app and sign in again.',
        'unknown_state',
      );
    return { kind: 'redirect', location: `${login.portalOrigin}/signin/interaction/${login.uid}/upstream?${rawQuery}` };
  }

  /** Verifies the provider's answer, maps the person, and completes the authorization. */
  async finish(
    req: Request,
    res: import('express').Response,
    it: Interaction,
    rawQuery: string,
  ): Promise<Step | 'done'> {
    const state = new URLSearchParams(rawQuery).get('state') ?? '';
    const login = await this.logins.take(state);
    if (
      !login ||
      login.uid !== it.uid ||
      !UpstreamLogins.bindingMatches(login, req.cookies?.[BINDING_COOKIE] ?? cookieOf(req, BINDING_COOKIE))
    ) {
      return this.log(
        it,
        login?.tenantId,
        login?.providerId,
        problem(
          400,
          'This sign-in has expired',
          'This sign-in does not belong to this browser or was already used. Go back to the app and sign in again.',
          'state_mismatch',
          it.app,
        ),
      );
    }
    const [tenant, p] = await Promise.all([
      this.repo.tenant(login.tenantId),
      this.providers.find(login.tenantId, login.providerId),
    ]);
    if (!tenant || !p || !(await this.repo.isDeployed(it.app.id, tenant.id))) {
      return this.log(
        it,
        login.tenantId,
        login.providerId,
        problem(
          400,
          'Sign-in not available',
          'This sign-in is no longer available at your school.',
          'configuration_changed',
          it.app,
        ),
      );
    }
    const callbackUrl = new URL(`${this.callbackUrl()}?${rawQuery}`);
    const who = await this.upstream
      .exchange(p, callbackUrl, login)
      .catch((err: unknown) => this.upstreamFailed(it, tenant.id, p, err));
    if ('kind' in who) return who;
    const mapped = await this.mapper.map(tenant.id, p, who);
    if ('refused' in mapped) {
      const page = REFUSAL_PAGES[mapped.refused];
      return this.log(it, tenant.id, p.id, problem(403, page.title, page.message(tenant, p), mapped.refused, it.app));
    }
    return this.signedIn(req, res, it, tenant.id, p.id, {
      userId: mapped.member.userId,
      linked: mapped.linked,
      provisioned: mapped.provisioned,
    });
  }

  /**
   * A browser an LMS just launched (LTI 1.3): the launched person is signed in to the app without
   * being asked again; undefined when there is no launch for this app in this browser.
   */
  async fromLaunch(req: Request, res: import('express').Response, it: Interaction): Promise<Step | 'done' | undefined> {
    const launched = await this.launches.take(cookieOf(req, LTI_COOKIE), it.app.id);
    if (!launched) return undefined;
    if ('refused' in launched) {
      const { refused: r, tenantId, providerId } = launched;
      return this.log(it, tenantId, providerId, problem(r.status, r.title, r.message, r.reason, it.app), r.detail);
    }
    return this.signedIn(req, res, it, launched.tenantId, launched.providerId, launched);
  }

  /**
   * Completes the authorization for the person, and records the success; or refuses a person the
   * school does not share with the app. Every protocol ends here (OpenID Connect, SAML through the
   * app's authorization, LTI launches), so data sharing is checked once for all of them.
   */
  private async signedIn(
    req: Request,
    res: import('express').Response,
    it: Interaction,
    tenantId: string,
    providerId: string,
    who: { userId: string; linked: boolean; provisioned: boolean },
  ): Promise<Step | 'done'> {
    if (!(await this.sharing.sharesMember(tenantId, it.app.id, who.userId)))
      return this.log(
        it,
        tenantId,
        providerId,
        notShared(await this.repo.tenant(tenantId), it.app),
        undefined,
        who.userId,
      );
    await this.complete(req, res, it, tenantId, providerId, who.userId);
    this.logger.log(
      {
        event: 'sign_in',
        outcome: 'success',
        tenant: tenantId,
        app: it.app.id,
        provider: providerId,
        user: who.userId,
        linked: who.linked,
        provisioned: who.provisioned,
      },
      'sign-in succeeded',
    );
    const how = who.provisioned ? 'provisioned' : who.linked ? 'linked' : null;
    await this.signInLog.record({
      tenantId,
      appId: it.app.id,
      providerId,
      userId: who.userId,
      outcome: 'success',
      reason: how,
    });
    return 'done';
  }

  /** Ends the authorization with `access_denied` (the person chose to go back). */
  async abort(req: Request, res: import('express').Response): Promise<void> {
    const provider = await this.host.provider();
    await provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'the person did not complete the sign-in' },
      { mergeWithLastSubmission: false },
    );
  }

  refuse(it: Interaction, tenant: SignInTenant | undefined, step: Step): Promise<Step> {
    return this.log(it, tenant?.id, undefined, step);
  }

  /** Logs a refusal, and records it in the tenant's sign-in log when the tenant is known (with the person, when one was found). */
  async log(
    it: Interaction | undefined,
    tenantId: string | undefined,
    providerId: string | undefined,
    step: Step,
    detail?: string,
    userId?: string,
  ): Promise<Step> {
    if (step.kind !== 'problem') return step;
    this.logger.warn(
      {
        event: 'sign_in',
        outcome: 'refused',
        reason: step.reason,
        tenant: tenantId,
        app: it?.app.id,
        provider: providerId,
        user: userId,
        detail,
      },
      `sign-in refused: ${step.reason}`,
    );
    if (tenantId)
      await this.signInLog.record({
        tenantId,
        appId: it?.app.id,
        providerId,
        userId,
        outcome: 'refused',
        reason: step.reason,
      });
    return step;
  }

  /** A provider that failed or answered wrongly: a page naming it, the cause in the log only. */
  private upstreamFailed(it: Interaction, tenantId: string, p: UpstreamProvider, err: unknown): Promise<Step> {
    if (!(err instanceof UpstreamError)) throw err;
    return this.log(
      it,
      tenantId,
      p.id,
      problem(502, 'Sign-in failed', `${err.message}. Go back to the app and try again.`, 'upstream_error', it.app),
      err.detail,
    );
  }

  private async complete(
    req: Request,
    res: import('express').Response,
    it: Interaction,
    tenantId: string,
    providerId: string,
    userId: string,
  ): Promise<void> {
    const provider = await this.host.provider();
    // The account is the person at this tenant: apps see a different `sub` at each school.
    const accountId = subjectFor(tenantId, userId);
    const grant = new provider.Grant({ accountId, clientId: it.app.clientId });
    const requested = String(it.params.scope ?? 'openid').split(' ');
    grant.addOIDCScope(
      requested.filter((s) => ['openid', 'offline_access', 'profile', 'email', 'tenant'].includes(s)).join(' '),
    );
    const grantId = await grant.save();
    const expiresAt = new Date(Date.now() + this.env.SIGNIN_REFRESH_TOKEN_TTL_SECONDS * 1000);
    await this.repo.recordGrant({ grantId, tenantId, userId, appId: it.app.id, providerId, expiresAt });
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId, amr: ['fed'] }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  }

  /** The issuer's own host or a registered vanity domain: the only places a person is sent back to. */
  private async isPortalHost(req: Request): Promise<boolean> {
    return (
      req.hostname === new URL(this.host.issuer).hostname ||
      (await this.repo.vanityDomainTenants(req.hostname)) !== null
    );
  }

  private callbackUrl(): string {
    return `${this.host.issuer}${CALLBACK_PATH}`;
  }

  /**
   * The school of this sign-in: a vanity domain fixes it (or limits it to the domain's tenants);
   * else the `tenant` parameter, then a `login_hint` naming a tenant id. The app must be deployed there.
   */
  private async resolveTenant(
    req: Request,
    it: Interaction,
    chosen: string | undefined,
  ): Promise<{ tenant?: SignInTenant; fixed: boolean } | Step> {
    const domainTenants = await this.repo.vanityDomainTenants(req.hostname);
    const candidate =
      chosen ??
      stringParam(it.params.tenant) ??
      stringParam(it.params.login_hint) ??
      (domainTenants?.length === 1 ? domainTenants[0] : undefined);
    if (!candidate) return { fixed: false };
    const tenant = await this.repo.tenant(candidate);
    if (domainTenants && (!tenant || !domainTenants.includes(tenant.id))) {
      return this.refuse(
        it,
        undefined,
        problem(
          400,
          'Wrong sign-in page',
          'This sign-in page belongs to another school. Use your own school’s sign-in page.',
          'other_tenant_domain',
          it.app,
        ),
      );
    }
    if (!tenant)
      return chosen || stringParam(it.params.tenant)
        ? this.refuse(
            it,
            undefined,
            problem(400, 'Unknown school', 'That school is not known here.', 'unknown_tenant', it.app),
          )
        : { fixed: false };
    if (!(await this.repo.isDeployed(it.app.id, tenant.id))) {
      return this.refuse(
        it,
        tenant,
        problem(
          403,
          'App not available at this school',
          `${it.app.name} is not available at ${tenant.name}. Ask your school to add it.`,
          'app_not_deployed',
          it.app,
        ),
      );
    }
    // A domain serving several schools lets the person choose another of them.
    return { tenant, fixed: domainTenants?.length === 1 || Boolean(stringParam(it.params.tenant)) };
  }
}

function stringParam(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** The origin the person is using (the issuer's host or a vanity domain). */
function portalOrigin(req: Request): string {
  return `${req.protocol}://${req.get('host') ?? req.hostname}`;
}
