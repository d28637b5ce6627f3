import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import type { Principal } from '@edu/domain';
import { ConstituenciesService } from './constituencies.service';
import { ConstituencyView } from './constituency.view';
import { CreateConstituencyDto, UpdateConstituencyDto } from './dto/constituency.dto';

const TENANT = { name: 'id', description: 'The token\u2019s own tenant id; any other id answers 404' };
const CONSTITUENCY = { name: 'constituency_id', description: 'Constituency key' };

@ApiTags('constituencies')
@Controller('tenants/:id/constituencies')
export class ConstituenciesController {
  constructor(private readonly constituencies: ConstituenciesService) {}

  @Get()
  @RequireScopes('id.tenant-core.readonly', 'id.tenant-core.write')
  @ApiOperation({ summary: 'Constituencies in use by the tenant' })
  @ApiParam(TENANT)
  @ApiOkResponse({ type: [ConstituencyView] })
  list(@CurrentPrincipal() who: Principal, @Param('id') tenantId: string): Promise<ConstituencyView[]> {
    return this.constituencies.list(who, tenantId);
  }

  @Post()
  @RequireScopes('id.tenant-core.write')
  @ApiOperation({ summary: 'Create a constituency' })
  @ApiParam(TENANT)
  @ApiCreatedResponse({ type: ConstituencyView })
  create(
    @CurrentPrincipal() who: Principal,
    @Param('id') tenantId: string,
    @Body() dto: CreateConstituencyDto,
  ): Promise<ConstituencyView> {
    return this.constituencies.create(who, tenantId, dto);
  }

  @Patch(':constituency_id')
  @RequireScopes('id.tenant-core.write')
  @ApiOperation({ summary: 'Change a constituency' })
  @ApiParam(TENANT)
  @ApiParam(CONSTITUENCY)
  @ApiOkResponse({ type: ConstituencyView })
  update(
    @CurrentPrincipal() who: Principal,
    @Param('id') tenantId: string,
    @Param('constituency_id') id: string,
    @Body() dto: UpdateConstituencyDto,
  ): Promise<ConstituencyView> {
    return this.constituencies.update(who, tenantId, id, dto);
  }

  @Delete(':constituency_id')
  @HttpCode(204)
  @RequireScopes('id.tenant-core.write')
  @ApiOperation({ summary: 'Delete a constituency (its members stay, without it)' })
  @ApiParam(TENANT)
  @ApiParam(CONSTITUENCY)
  @ApiNoContentResponse()
  remove(
    @CurrentPrincipal() who: Principal,
    @Param('id') tenantId: string,
    @Param('constituency_id') id: string,
  ): Promise<void> {
    return this.constituencies.remove(who, tenantId, id);
  }
}
