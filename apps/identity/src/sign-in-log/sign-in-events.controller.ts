import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import type { Principal } from '@edu/domain';
import { ListSignInsQuery } from './dto/sign-in-events.dto';
import { SignInEventsService } from './sign-in-events.service';
import { SignInEventView } from './sign-in-event.view';

const TENANT = { name: 'id', description: 'The token\u2019s own tenant id; any other id answers 404' };
const LINK = {
  description: 'RFC 8288 `<…?limit=…&cursor=…>; rel="next"` when there is a next page (absent on the last page)',
  schema: { type: 'string' },
};

@ApiTags('sign-in')
@Controller('tenants/:id/sign-ins')
export class SignInEventsController {
  constructor(private readonly events: SignInEventsService) {}

  @Get()
  @RequireScopes('id.tenant-core.readonly', 'id.tenant-core.write')
  @ApiOperation({
    summary:
      'The tenant\u2019s sign-in log (beyond the spec): every sign-in at the tenant, success or refusal, newest first; `limit` and `cursor` paging, the next page in `Link`',
  })
  @ApiParam(TENANT)
  @ApiOkResponse({ type: [SignInEventView], headers: { Link: LINK } })
  async list(
    @CurrentPrincipal() who: Principal,
    @Param('id') tenantId: string,
    @Query() query: ListSignInsQuery,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SignInEventView[]> {
    const page = await this.events.list(who, tenantId, query);
    if (page.nextCursor) {
      const next = new URLSearchParams({ limit: String(query.limit ?? 20), cursor: page.nextCursor });
      res.setHeader('Link', `</tenants/${encodeURIComponent(tenantId.toLowerCase())}/sign-ins?${next}>; rel="next"`);
    }
    return page.rows;
  }
}
