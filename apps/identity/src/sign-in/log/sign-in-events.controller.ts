import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '@edu/auth';
import type { Principal } from '@edu/domain';
import { Scopes } from '../../common/scopes.decorator';
import { ListSignInsQuery } from './dto/sign-in-events.dto';
import { SignInEventsService } from './sign-in-events.service';
import { SignInEventPage } from './sign-in-event.view';

const TENANT = { name: 'id', description: 'The token\u2019s own tenant id; any other id answers 404' };

@ApiTags('sign-in')
@Controller('tenants/:id/sign-ins')
export class SignInEventsController {
  constructor(private readonly events: SignInEventsService) {}

  @Get()
  @Scopes('id.tenant-core.readonly', 'id.tenant-core.write')
  @ApiOperation({ summary: 'The tenant\u2019s sign-in log (beyond the spec): every sign-in at the tenant, success or refusal, newest first, cursor paging' })
  @ApiParam(TENANT)
  @ApiOkResponse({ type: SignInEventPage })
  list(@CurrentPrincipal() who: Principal, @Param('id') tenantId: string, @Query() query: ListSignInsQuery): Promise<SignInEventPage> {
    return this.events.list(who, tenantId, query);
  }
}
