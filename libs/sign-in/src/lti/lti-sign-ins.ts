import { Injectable } from '@nestjs/common';
import { RefusalReason } from '../log/refusal-reason';
import { SignInRepository } from '../sign-in.repository';
import { LtiIdTokens } from './lti-id-token';
import { LtiProviders } from './lti-providers';
import { LtiRefusal } from './lti-refusal';
import { LtiStore, type LtiSignIn } from './lti-store';

/** A launch refused at the app's sign-in, at the school and provider it came from. */
export interface RefusedLaunch {
  refused: LtiRefusal;
  tenantId: string;
  providerId: string;
}

/**
 * The portal's side of a launch: when an app's authorization request reaches the portal in a
 * browser an LMS just launched, the launched person is signed in to that app without being asked
 * again. With `validate_lti_tokens_at_oidc_login` the launch's id_token is verified once more at
 * that moment (still signed by a key of the platform's JWKS, not expired, same issuer, client and
 * deployment); without it, the launch alone suffices for LAUNCH_TTL_SECONDS.
 */
@Injectable()
export class LtiSignIns {
  constructor(
    private readonly store: LtiStore,
    private readonly providers: LtiProviders,
    private readonly tokens: LtiIdTokens,
    private readonly repo: SignInRepository,
  ) {}

  /** The launched person for `appId` bound to the browser's LTI_COOKIE (used once), a refusal, or undefined when there is no launch. */
  async take(cookie: string | undefined, appId: string): Promise<LtiSignIn | RefusedLaunch | undefined> {
    const signIn = cookie ? await this.store.takeSignIn(cookie, appId) : undefined;
    if (!signIn) return undefined;
    const p = await this.providers.find(signIn.providerId);
    if (!p || p.tenantId !== signIn.tenantId || !(await this.repo.isDeployed(appId, signIn.tenantId))) {
      return {
        refused: new LtiRefusal(
          RefusalReason.ConfigurationChanged,
          400,
          'Sign-in not available',
          'This sign-in is no longer available at your school.',
        ),
        tenantId: signIn.tenantId,
        providerId: signIn.providerId,
      };
    }
    if (!p.settings.validate_lti_tokens_at_oidc_login) return signIn;
    if (!signIn.idToken) {
      return {
        refused: new LtiRefusal(
          RefusalReason.ConfigurationChanged,
          400,
          'Sign-in not available',
          'Your school changed how launches are checked. Open the activity in your learning platform again.',
        ),
        tenantId: p.tenantId,
        providerId: p.id,
      };
    }
    try {
      const claims = await this.tokens.verify(p, signIn.idToken);
      if (claims.nonce !== signIn.nonce)
        throw new LtiRefusal(
          RefusalReason.LtiInvalidToken,
          403,
          'Launch not accepted',
          'The launch could not be verified again.',
          'nonce changed',
        );
      return signIn;
    } catch (err) {
      if (!(err instanceof LtiRefusal)) throw err;
      // The portal records the refusal (`CompleteSignIn.fromLaunch`), with this detail.
      const expired = new LtiRefusal(
        err.reason,
        err.status,
        'This launch has expired',
        'Your launch from the learning platform is no longer valid. Go back to your learning platform and open the activity again.',
        err.detail,
      );
      return { refused: expired, tenantId: p.tenantId, providerId: p.id };
    }
  }
}
