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
import { CreateTenantUserDto, UpdateTenantUserDto } from './dto/user.dto';
import { TenantUsersService } from './tenant-users.service';
import { TenantUserView } from './user.view';

const TENANT = { name: 'id', description: 'The token\u2019s own tenant id; any other id answers 404' };
const EMAIL = { name: 'email', description: 'E-mail address of the linked user' };

@ApiTags('tenant-users')
@Controller('tenants/:id/users')
export class TenantUsersController {
  constructor(private readonly links: TenantUsersService) {}

  @Get()
  @RequireScopes('id.tenant-core.readonly', 'id.tenant-core.write')
  @ApiOperation({ summary: 'Tenant-user records of the tenant' })
  @ApiParam(TENANT)
  @ApiOkResponse({ type: [TenantUserView] })
  list(@CurrentPrincipal() who: Principal, @Param('id') tenantId: string): Promise<TenantUserView[]> {
    return this.links.list(who, tenantId);
  }

  @Post()
  @RequireScopes('id.tenant-core.write')
  @ApiOperation({
    summary:
      'Add a person to the tenant with constituencies and the tenant\u2019s own profile (409 only when this tenant already has them)',
  })
  @ApiParam(TENANT)
  @ApiCreatedResponse({ type: TenantUserView })
  create(
    @CurrentPrincipal() who: Principal,
    @Param('id') tenantId: string,
    @Body() dto: CreateTenantUserDto,
  ): Promise<TenantUserView> {
    return this.links.create(who, tenantId, dto);
  }

  @Patch(':email')
  @RequireScopes('id.tenant-core.write')
  @ApiOperation({ summary: 'Set the constituencies of a linked user' })
  @ApiParam(TENANT)
  @ApiParam(EMAIL)
  @ApiOkResponse({ type: TenantUserView })
  update(
    @CurrentPrincipal() who: Principal,
    @Param('id') tenantId: string,
    @Param('email') email: string,
    @Body() dto: UpdateTenantUserDto,
  ): Promise<TenantUserView> {
    return this.links.update(who, tenantId, email, dto);
  }

  @Delete(':email')
  @HttpCode(204)
  @RequireScopes('id.tenant-core.write')
  @ApiOperation({ summary: 'Remove a user from the tenant (the person is deleted when no tenant is left)' })
  @ApiParam(TENANT)
  @ApiParam(EMAIL)
  @ApiNoContentResponse()
  remove(
    @CurrentPrincipal() who: Principal,
    @Param('id') tenantId: string,
    @Param('email') email: string,
  ): Promise<void> {
    return this.links.remove(who, tenantId, email);
  }
}
