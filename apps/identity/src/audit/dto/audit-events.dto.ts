import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { CursorPageQuery } from '@edu/http';
import { AUDIT_EVENT_TYPES, type AuditEventType } from '@edu/persistence';

/** GET /tenants/:tenant_id/audit-events: cursor paging as the sign-in log, optionally one type. */
export class ListAuditEventsQuery extends CursorPageQuery('The cursor of the `Link` rel="next" of the previous page') {
  @ApiPropertyOptional({ enum: AUDIT_EVENT_TYPES })
  @IsOptional()
  @IsIn(AUDIT_EVENT_TYPES)
  type?: AuditEventType;
}
