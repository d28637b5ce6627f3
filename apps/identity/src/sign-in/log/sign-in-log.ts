import { Injectable, Logger } from '@nestjs/common';
import { isUuid } from '@edu/domain';
import { SignInEventRepository, type NewSignInEvent } from './sign-in-event.repository';

/**
 * Records every sign-in that ended at a tenant, success or refusal. A row that
 * cannot be written is logged: the person's sign-in does not fail because of the log.
 */
@Injectable()
export class SignInLog {
  private readonly logger = new Logger('SignIn');

  constructor(private readonly events: SignInEventRepository) {}

  async record(e: NewSignInEvent): Promise<void> {
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
