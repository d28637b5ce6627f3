import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import type { Principal } from '@edu/domain';
import { ListAuditEventsQuery } from './dto/audit-events.dto';
import { AuditEventsService } from './audit-events.service';
import { AuditEventView } from './audit-event.view';

const TENANT = {
  name: 'tenant_id',
  description: 'The token\u2019s own tenant id (any other id answers 404); with platform.admin, any tenant',
};
const LINK = {
  description: 'RFC 8288 `<…?limit=…&cursor=…>; rel="next"` when there is a next page (absent on the last page)',
  schema: { type: 'string' },
};

@ApiTags('audit')
@Controller('tenants/:tenant_id/audit-events')
export class AuditEventsController {
  constructor(private readonly events: AuditEventsService) {}

  @Get()
  @RequireScopes('id.tenant-core.readonly', 'id.tenant-core.write', 'platform.admin')
  @ApiOperation({
    summary:
      'The tenant\u2019s audit trail: every change to what its apps may see (sharing drafts saved and activated), with who, when, before and after; newest first, `limit`/`cursor` paging, `type` filter, the next page in `Link`',
  })
  @ApiParam(TENANT)
  @ApiOkResponse({ type: [AuditEventView], headers: { Link: LINK } })
  async list(
    @CurrentPrincipal() who: Principal,
    @Param('tenant_id') tenantId: string,
    @Query() query: ListAuditEventsQuery,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AuditEventView[]> {
    const page = await this.events.list(who, tenantId, query);
    if (page.nextCursor) {
      const next = new URLSearchParams({ limit: String(query.limit ?? 20), cursor: page.nextCursor });
      if (query.type) next.set('type', query.type);
      res.setHeader(
        'Link',
        `</tenants/${encodeURIComponent(tenantId.toLowerCase())}/audit-events?${next}>; rel="next"`,
      );
    }
    return page.rows;
  }
}
