import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import type { Principal } from '@edu/domain';
import { CreateTenantDto, UpdateTenantDto } from './dto/tenant.dto';
import { TenantAdminView, TenantView } from './tenant.view';
import { TenantsService } from './tenants.service';

const ID = {
  name: 'id',
  description: 'Tenant id (uuid). Unknown, malformed and other tenants\u2019 ids all answer 404.',
};

@ApiTags('tenants')
@ApiExtraModels(TenantAdminView)
@Controller('tenants')
export class TenantsController {
  constructor(private readonly tenants: TenantsService) {}

  @Get()
  @RequireScopes('id.tenant-core.readonly', 'id.tenant-core.write', 'platform.admin')
  @ApiOperation({ summary: 'The tenant of the token (platform.admin: every tenant, with licences and root org)' })
  @ApiOkResponse({ type: [TenantView] })
  list(@CurrentPrincipal() who: Principal): Promise<TenantView[]> {
    return this.tenants.list(who);
  }

  @Get(':id')
  @RequireScopes('id.tenant-core.readonly', 'id.tenant-core.write', 'platform.admin')
  @ApiOperation({ summary: 'One tenant, as a one-element array' })
  @ApiParam(ID)
  @ApiOkResponse({ type: [TenantView] })
  @ApiNotFoundResponse()
  get(@CurrentPrincipal() who: Principal, @Param('id') id: string): Promise<TenantView[]> {
    return this.tenants.list(who, id);
  }

  @Post()
  @RequireScopes('platform.admin')
  @ApiOperation({ summary: 'Create a tenant with its region and licences' })
  @ApiCreatedResponse({ type: TenantAdminView })
  create(@CurrentPrincipal() who: Principal, @Body() dto: CreateTenantDto): Promise<TenantAdminView> {
    return this.tenants.create(who, dto);
  }

  @Patch(':id')
  @RequireScopes('platform.admin')
  @ApiOperation({ summary: 'Change a tenant, its region or its licences' })
  @ApiParam(ID)
  @ApiOkResponse({ type: TenantAdminView })
  update(
    @CurrentPrincipal() who: Principal,
    @Param('id') id: string,
    @Body() dto: UpdateTenantDto,
  ): Promise<TenantAdminView> {
    return this.tenants.update(who, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('platform.admin')
  @ApiOperation({ summary: 'Delete a tenant and everything it owns' })
  @ApiParam(ID)
  @ApiNoContentResponse()
  remove(@CurrentPrincipal() who: Principal, @Param('id') id: string): Promise<void> {
    return this.tenants.remove(who, id);
  }
}
