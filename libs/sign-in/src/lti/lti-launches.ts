import { randomBytes } from 'node:crypto';
import { RefusalReason } from '../log/refusal-reason';
import { Injectable, Logger } from '@nestjs/common';
import { SignInEnv, oidcIssuer } from '../sign-in.env';
import { IdentityMapper } from '../accounts/identity-mapper';
import { SignInOutcomes } from '../log/sign-in-outcomes';
import { SignInRepository } from '../sign-in.repository';
import type { UpstreamIdentity } from '../upstream/upstream-client';
import { LtiIdTokens, TARGET_LINK_CLAIM, type LaunchClaims } from './lti-id-token';
import { LtiProviders, type LtiProvider } from './lti-providers';
import { LtiRefusal, refusals } from './lti-refusal';
import { constituenciesForRoles, ROLES_CLAIM } from './lti-roles';
import { LtiStore } from './lti-store';
import { LtiTargets } from './lti-targets';

/** The login initiation's parameters (OIDC third-party initiated login, LTI 1.3 §5.1.1). */
export interface LoginInitiation {
  iss?: string;
  login_hint?: string;
  target_link_uri?: string;
  lti_message_hint?: string;
  client_id?: string;
  lti_deployment_id?: string;
}

/** A cookie for the browser: `crossSite` when the LMS's cross-site form post must carry it back. */
export interface LaunchCookie {
  name: string;
  value: string;
  path: string;
  maxAgeSeconds: number;
  crossSite: boolean;
}

/** Where the browser goes next, with the cookie binding the login or the launched person to it. */
export interface LaunchResult {
  location: string;
  cookie?: LaunchCookie;
}

export const LTI_COOKIE = 'signin_lti';
/** Binds a login's `state` to the browser that started it (the launch is refused in any other). */
export const LTI_STATE_COOKIE = 'signin_lti_state';
/** The launch binds the person to the browser this long, for the app's authorization request to arrive. */
export const LAUNCH_TTL_SECONDS = 300;
const LOGIN_TTL_SECONDS = 600;

export const ltiPath = (providerId: string, step: 'login' | 'launch') => `/signin/lti/${providerId}/${step}`;

/**
 * LTI 1.3 launches from a tenant's `lti1.3` provider: the login initiation sends the browser to
 * the LMS's authentication endpoint with a `state` and `nonce`; the LMS posts back an id_token,
 * which is verified, its nonce used once; the person is mapped (or provisioned just in time) by
 * the existing account mapping and bound to the browser for the app's own sign-in.
 */
@Injectable()
export class LtiLaunches {
  private readonly logger = new Logger('SignIn');

  constructor(
    private readonly providers: LtiProviders,
    private readonly store: LtiStore,
    private readonly tokens: LtiIdTokens,
    private readonly targets: LtiTargets,
    private readonly mapper: IdentityMapper,
    private readonly outcomes: SignInOutcomes,
    private readonly env: SignInEnv,
    private readonly repo: SignInRepository,
  ) {}

  /**
   * The authentication request to the LMS (LTI 1.3 §5.1.1.2), or a refusal. The launch comes back
   * to `origin`, the host the LMS used: the issuer's or a school's vanity domain, nowhere else.
   */
  async initiate(providerId: string, q: LoginInitiation, origin: URL): Promise<LaunchResult> {
    const p = await this.providerOrRefuse(providerId);
    return this.refusing(p, undefined, async () => {
      checkInitiation(p, q);
      if (!(await this.isSignInHost(origin.hostname))) throw refusals.host(`host ${origin.host}`);
      const nonce = randomBytes(24).toString('base64url');
      const { state, cookie } = await this.store.saveLogin({ providerId: p.id, nonce }, LOGIN_TTL_SECONDS);
      const url = new URL(p.settings.oidc_authentication_url);
      const params: Record<string, string> = {
        scope: 'openid',
        response_type: 'id_token',
        response_mode: 'form_post',
        prompt: 'none',
        client_id: p.settings.client_id,
        redirect_uri: `${origin.origin}${ltiPath(p.id, 'launch')}`,
        login_hint: q.login_hint as string,
        state,
        nonce,
      };
      if (q.lti_message_hint) params.lti_message_hint = q.lti_message_hint;
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
      return {
        location: url.href,
        cookie: {
          name: LTI_STATE_COOKIE,
          value: cookie,
          path: ltiPath(p.id, 'launch'),
          maxAgeSeconds: LOGIN_TTL_SECONDS,
          crossSite: true,
        },
      };
    });
  }

  /** The LMS's form post: the id_token verified, the person found, bound to this browser, sent to the app. */
  async launch(
    providerId: string,
    form: { id_token?: unknown; state?: unknown; error?: unknown; error_description?: unknown },
    stateCookie: string | undefined,
  ): Promise<LaunchResult> {
    const p = await this.providerOrRefuse(providerId);
    let appId: string | undefined;
    return this.refusing(
      p,
      () => appId,
      async () => {
        if (typeof form.error === 'string')
          throw refusals.platform(`${form.error}: ${String(form.error_description ?? '')}`.slice(0, 500));
        if (typeof form.id_token !== 'string' || typeof form.state !== 'string' || form.id_token.length > 16_384)
          throw refusals.badRequest('an id_token and a state');
        const claims = await this.tokens.verify(p, form.id_token);
        await this.checkOnce(p, form.state, stateCookie, claims);
        const target = await this.targets.resolve(p.tenantId, claims[TARGET_LINK_CLAIM]);
        if (!target) throw refusals.target(`target_link_uri ${String(claims[TARGET_LINK_CLAIM])}`);
        appId = target.appIds[0];
        const mapped = await this.mapper.map(p.tenantId, p.upstream, identityOf(claims), {
          constituencies: constituenciesForRoles(claims[ROLES_CLAIM]),
        });
        if ('refused' in mapped) throw refusedPerson(mapped.refused);
        const keep = p.settings.validate_lti_tokens_at_oidc_login ? form.id_token : undefined;
        const signIn = {
          tenantId: p.tenantId,
          providerId: p.id,
          userId: mapped.member.userId,
          appIds: target.appIds,
          linked: mapped.linked,
          provisioned: mapped.provisioned,
          idToken: keep,
          nonce: claims.nonce,
        };
        const cookie = await this.store.saveSignIn(signIn, LAUNCH_TTL_SECONDS);
        this.logger.log(
          { event: 'lti_launch', tenant: p.tenantId, provider: p.id, user: mapped.member.userId, apps: target.appIds },
          'LTI launch accepted',
        );
        // Lax: sent when the app's authorization request comes back as a top-level navigation.
        return {
          location: target.url,
          cookie: {
            name: LTI_COOKIE,
            value: cookie,
            path: '/signin/interaction',
            maxAgeSeconds: LAUNCH_TTL_SECONDS,
            crossSite: false,
          },
        };
      },
    );
  }

  /** The state names a login of this provider, started in this browser, whose nonce is the token's; the nonce was never used. */
  private async checkOnce(
    p: LtiProvider,
    state: string,
    stateCookie: string | undefined,
    claims: LaunchClaims,
  ): Promise<void> {
    const login = await this.store.takeLogin(state);
    if (!(await this.store.useNonce(p.id, claims.nonce, new Date((claims.exp + 60) * 1000)))) throw refusals.replayed();
    if (!login || login.providerId !== p.id) throw refusals.state();
    if (!LtiStore.bindingMatches(login, stateCookie)) throw refusals.otherBrowser();
    if (login.nonce !== claims.nonce) throw refusals.invalidToken('the nonce is not the one sent at login');
  }

  private async isSignInHost(hostname: string): Promise<boolean> {
    return (
      hostname === new URL(oidcIssuer(this.env)).hostname || (await this.repo.vanityDomainTenants(hostname)) !== null
    );
  }

  private async providerOrRefuse(providerId: string): Promise<LtiProvider> {
    const p = await this.providers.find(providerId);
    if (!p) {
      const refusal = refusals.unknownProvider();
      await this.outcomes.refused({
        protocol: 'lti',
        reason: refusal.reason,
        detail: `provider ${providerId.slice(0, 64)}`,
      });
      throw refusal;
    }
    return p;
  }

  /** Runs a step; a refusal is logged and recorded in the school's sign-in log, then thrown for the page. */
  private async refusing(
    p: LtiProvider,
    appId: (() => string | undefined) | undefined,
    step: () => Promise<LaunchResult>,
  ): Promise<LaunchResult> {
    try {
      return await step();
    } catch (err) {
      if (!(err instanceof LtiRefusal)) throw err;
      await this.outcomes.refused({
        protocol: 'lti',
        reason: err.reason,
        tenantId: p.tenantId,
        appId: appId?.(),
        providerId: p.id,
        detail: err.detail,
      });
      throw err;
    }
  }
}

/** The login initiation must come from this provider's platform, for this tool and deployment. */
function checkInitiation(p: LtiProvider, q: LoginInitiation): void {
  const s = p.settings;
  if (!q.iss || !q.login_hint || !q.target_link_uri) throw refusals.badRequest('iss, login_hint and target_link_uri');
  if (q.iss !== s.issuer) throw refusals.issuer(`iss ${q.iss} is not ${s.issuer}`);
  if (q.client_id !== undefined && q.client_id !== s.client_id)
    throw refusals.client(`client_id ${q.client_id} is not ${s.client_id}`);
  if (q.lti_deployment_id !== undefined && q.lti_deployment_id !== s.deployment_id)
    throw refusals.deployment(`lti_deployment_id ${q.lti_deployment_id} is not ${s.deployment_id}`);
}

/**
 * The person as account mapping sees them: the LTI `sub` at the platform's issuer is the upstream
 * identifier. The school's own LMS vouches for the e-mail it sends (LTI has no email_verified).
 */
function identityOf(c: LaunchClaims): UpstreamIdentity {
  const str = (v: unknown) => (typeof v === 'string' && v.length > 0 && v.length <= 320 ? v : undefined);
  const email = str(c.email)?.toLowerCase();
  return {
    issuer: String(c.iss),
    subject: c.sub,
    email,
    emailVerified: email !== undefined,
    name: str(c.name),
    nickname: str(c.given_name),
    picture: str(c.picture),
  };
}

function refusedPerson(reason: RefusalReason.NotEnrolled | RefusalReason.ProviderNotAllowed): LtiRefusal {
  return reason === RefusalReason.NotEnrolled
    ? new LtiRefusal(
        RefusalReason.NotEnrolled,
        403,
        'Not enrolled at this school',
        'Your learning platform account is not enrolled here. Ask your school to add you.',
      )
    : new LtiRefusal(
        RefusalReason.ProviderNotAllowed,
        403,
        'Use another way to sign in',
        'Your school does not let your group sign in from the learning platform.',
      );
}
