import { Injectable, Logger } from '@nestjs/common';
import { isUuid } from '@edu/domain';
import type { RefusalReason } from './refusal-reason';
import { SignInEventRepository, type NewSignInEvent } from './sign-in-event.repository';

/** Which door the person came through (the service log says so; the tenant's log does not). */
export type SignInProtocol = 'oidc' | 'saml' | 'lti';

export interface SignInSuccess {
  readonly protocol?: SignInProtocol;
  readonly tenantId: string;
  readonly appId: string;
  readonly providerId?: string;
  readonly userId: string;
  /** The upstream identity was linked to the person at this sign-in. */
  readonly linked: boolean;
  /** The person was added to the tenant at this sign-in (just in time). */
  readonly provisioned: boolean;
}

export interface SignInRefusal {
  readonly protocol?: SignInProtocol;
  readonly reason: RefusalReason;
  /** Unknown when the refusal came before the school was: then only the service log has it. */
  readonly tenantId?: string;
  readonly appId?: string;
  readonly providerId?: string;
  readonly userId?: string;
  /** What went wrong in detail, for the service log only (never shown, never in the tenant's log). */
  readonly detail?: string;
}

/**
 * The one place a sign-in's outcome is written, whichever protocol ended it: a service log line,
 * and a row of the tenant's sign-in log when the tenant is known. A row that cannot be written is
 * logged: the person's sign-in does not fail because of the log.
 */
@Injectable()
export class SignInOutcomes {
  private readonly logger = new Logger('SignIn');

  constructor(private readonly events: SignInEventRepository) {}

  async succeeded(s: SignInSuccess): Promise<void> {
    const { protocol, tenantId, appId, providerId, userId, linked, provisioned } = s;
    this.logger.log(
      {
        event: 'sign_in',
        protocol,
        outcome: 'success',
        tenant: tenantId,
        app: appId,
        provider: providerId,
        user: userId,
        linked,
        provisioned,
      },
      'sign-in succeeded',
    );
    const how = provisioned ? 'provisioned' : linked ? 'linked' : null;
    await this.row({ tenantId, appId, providerId, userId, outcome: 'success', reason: how });
  }

  async refused(r: SignInRefusal): Promise<void> {
    const { protocol, reason, tenantId, appId, providerId, userId, detail } = r;
    this.logger.warn(
      {
        event: 'sign_in',
        protocol,
        outcome: 'refused',
        reason,
        tenant: tenantId,
        app: appId,
        provider: providerId,
        user: userId,
        detail,
      },
      `sign-in refused: ${reason}`,
    );
    if (tenantId) await this.row({ tenantId, appId, providerId, userId, outcome: 'refused', reason });
  }

  private async row(e: NewSignInEvent): Promise<void> {
    if (!isUuid(e.tenantId)) return;
    try {
      await this.events.insert({
        ...e,
        appId: e.appId && isUuid(e.appId) ? e.appId : undefined,
        userId: e.userId && isUuid(e.userId) ? e.userId : undefined,
      });
    } catch (err) {
      this.logger.error(
        { err, event: 'sign_in_log', tenant: e.tenantId, outcome: e.outcome, reason: e.reason },
        'sign-in not recorded in the sign-in log',
      );
    }
  }
}
