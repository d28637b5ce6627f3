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
  getSchemaPath,
  type ApiResponseSchemaHost,
} from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import type { Principal } from '@edu/domain';
import { CreateIdentityProviderDto, UpdateIdentityProviderDto } from './dto/identity-provider.dto';
import { IdentityProvidersService } from './identity-providers.service';
import {
  CoreIdentityProviderView,
  TenantIdentityProviderView,
  type IdentityProviderView,
} from './identity-provider.view';

const EITHER_SHAPE: NonNullable<ApiResponseSchemaHost['schema']> = {
  type: 'array',
  items: {
    oneOf: [{ $ref: getSchemaPath(CoreIdentityProviderView) }, { $ref: getSchemaPath(TenantIdentityProviderView) }],
  },
};

@ApiTags('identity-providers')
@ApiExtraModels(CoreIdentityProviderView, TenantIdentityProviderView)
@Controller('identity-providers')
export class IdentityProvidersController {
  constructor(private readonly providers: IdentityProvidersService) {}

  @Get()
  @RequireScopes('id.tenant-core.readonly', 'id.tenant-core.write')
  @ApiOperation({
    summary: 'Identity providers in use by the token\u2019s tenant: allowed core providers, then its own',
  })
  @ApiOkResponse({ schema: EITHER_SHAPE })
  list(@CurrentPrincipal() who: Principal): Promise<IdentityProviderView[]> {
    return this.providers.list(who);
  }

  @Get(':id')
  @RequireScopes('id.tenant-core.readonly', 'id.tenant-core.write')
  @ApiOperation({ summary: 'One provider, as a one-element array' })
  @ApiParam({
    name: 'id',
    description: 'Core provider name (e.g. google) or the uuid of one of the tenant\u2019s providers',
  })
  @ApiOkResponse({ schema: EITHER_SHAPE })
  @ApiNotFoundResponse()
  get(@CurrentPrincipal() who: Principal, @Param('id') id: string): Promise<IdentityProviderView[]> {
    return this.providers.list(who, id);
  }

  @Post()
  @RequireScopes('id.tenant-core.write')
  @ApiOperation({ summary: 'Create a provider for the token\u2019s tenant' })
  @ApiCreatedResponse({ type: TenantIdentityProviderView })
  create(
    @CurrentPrincipal() who: Principal,
    @Body() dto: CreateIdentityProviderDto,
  ): Promise<TenantIdentityProviderView> {
    return this.providers.create(who, dto);
  }

  @Patch(':id')
  @RequireScopes('id.tenant-core.write')
  @ApiOperation({ summary: 'Change one of the tenant\u2019s providers (core providers cannot be changed)' })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiOkResponse({ type: TenantIdentityProviderView })
  update(
    @CurrentPrincipal() who: Principal,
    @Param('id') id: string,
    @Body() dto: UpdateIdentityProviderDto,
  ): Promise<TenantIdentityProviderView> {
    return this.providers.update(who, id, dto);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('id.tenant-core.write')
  @ApiOperation({ summary: 'Delete one of the tenant\u2019s providers (409 while a constituency allows it)' })
  @ApiParam({ name: 'id', format: 'uuid' })
  @ApiNoContentResponse()
  remove(@CurrentPrincipal() who: Principal, @Param('id') id: string): Promise<void> {
    return this.providers.remove(who, id);
  }
}
