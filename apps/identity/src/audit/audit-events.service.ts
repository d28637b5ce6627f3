import { Injectable } from '@nestjs/common';
import { ApiError, decodePageCursor, encodePageCursor, type Principal } from '@edu/domain';
import { AccessPolicy } from '../common/access-policy';
import { TenantRepository } from '../directory/tenant.repository';
import type { ListAuditEventsQuery } from './dto/audit-events.dto';
import { AuditEventRepository } from './audit-event.repository';
import { toAuditEventView, type AuditEventPage } from './audit-event.view';

/** The audit trail of the tenant named in the path: its own (tenant-core scopes) or any (the operator). */
@Injectable()
export class AuditEventsService {
  constructor(
    private readonly events: AuditEventRepository,
    private readonly tenants: TenantRepository,
    private readonly policy: AccessPolicy,
  ) {}

  async list(who: Principal, rawTenantId: string, q: ListAuditEventsQuery): Promise<AuditEventPage> {
    const actor = this.policy.pathTenantOrOperator(who, 'read', rawTenantId);
    if (actor.by === 'operator' && !(await this.tenants.exists(actor.tenantId))) throw ApiError.notFound('Tenant');
    const limit = q.limit ?? 20;
    const rows = await this.events.page(actor.tenantId, {
      type: q.type,
      after: q.cursor ? decodePageCursor(q.cursor) : undefined,
      limit: limit + 1,
    });
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      rows: page.map(toAuditEventView),
      nextCursor: rows.length > limit && last ? encodePageCursor({ at: last.cursorAt, id: last.id }) : null,
    };
  }
}
