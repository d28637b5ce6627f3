import { Injectable } from '@nestjs/common';
import { decodePageCursor, encodePageCursor, type Principal } from '@edu/domain';
import { AccessPolicy } from '../common/access-policy';
import type { ListSignInsQuery } from './dto/sign-in-events.dto';
import { SignInEventRepository } from '@edu/sign-in';
import { toSignInEventView, type SignInEventPage } from './sign-in-event.view';

/** The sign-in log of the tenant named in the path, which must be the token's tenant (any other id is 404). */
@Injectable()
export class SignInEventsService {
  constructor(
    private readonly events: SignInEventRepository,
    private readonly policy: AccessPolicy,
  ) {}

  async list(who: Principal, rawTenantId: string, q: ListSignInsQuery): Promise<SignInEventPage> {
    const tenantId = this.policy.pathTenant(who, 'read', rawTenantId);
    const limit = q.limit ?? 20;
    const rows = await this.events.page(tenantId, {
      after: q.cursor ? decodePageCursor(q.cursor) : undefined,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      rows: page.map(toSignInEventView),
      nextCursor: rows.length > limit && last ? encodePageCursor({ at: last.cursorAt, id: last.id }) : null,
    };
  }
}
