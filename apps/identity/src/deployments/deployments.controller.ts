import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import type { Principal } from '@edu/domain';
import { DeploymentCredentialsView, DeploymentView } from './deployment.view';
import { DeploymentsService } from './deployments.service';
import { CreateDeploymentDto, UpdateDeploymentDto } from './dto/deployment.dto';

const TENANT = {
  name: 'tenant_id',
  description: 'The token\u2019s own tenant id (any other id answers 404); with platform.admin, any tenant',
};
const APP = { name: 'app_id', description: 'Id (uuid) of an app deployed at the tenant' };

@ApiTags('deployments')
@Controller('tenants/:tenant_id/apps')
export class DeploymentsController {
  constructor(private readonly deployments: DeploymentsService) {}

  @Get()
  @RequireScopes('id.tenant-core.readonly', 'id.tenant-core.write', 'platform.admin')
  @ApiOperation({ summary: 'Deployment records of the apps deployed by the tenant' })
  @ApiParam(TENANT)
  @ApiOkResponse({ type: [DeploymentView] })
  list(@CurrentPrincipal() who: Principal, @Param('tenant_id') tenantId: string): Promise<DeploymentView[]> {
    return this.deployments.list(who, tenantId);
  }

  @Get(':app_id')
  @RequireScopes('id.tenant-core.readonly', 'id.tenant-core.write', 'platform.admin')
  @ApiOperation({ summary: 'One deployment, as a one-element array' })
  @ApiParam(TENANT)
  @ApiParam(APP)
  @ApiOkResponse({ type: [DeploymentView] })
  @ApiNotFoundResponse()
  get(
    @CurrentPrincipal() who: Principal,
    @Param('tenant_id') tenantId: string,
    @Param('app_id') appId: string,
  ): Promise<DeploymentView[]> {
    return this.deployments.list(who, tenantId, appId);
  }

  @Post()
  @RequireScopes('id.tenant-core.write', 'platform.admin')
  @ApiOperation({
    summary:
      'Deploy an app at the tenant with a list of scopes and optional settings (alerts scopes: platform.admin only)',
  })
  @ApiParam(TENANT)
  @ApiCreatedResponse({ type: DeploymentView })
  create(
    @CurrentPrincipal() who: Principal,
    @Param('tenant_id') tenantId: string,
    @Body() dto: CreateDeploymentDto,
  ): Promise<DeploymentView> {
    return this.deployments.create(who, tenantId, dto);
  }

  @Patch(':app_id')
  @RequireScopes('id.tenant-core.write', 'platform.admin')
  @ApiOperation({ summary: 'Replace the scopes granted to a deployed app and/or set some of its settings' })
  @ApiParam(TENANT)
  @ApiParam(APP)
  @ApiOkResponse({ type: DeploymentView })
  update(
    @CurrentPrincipal() who: Principal,
    @Param('tenant_id') tenantId: string,
    @Param('app_id') appId: string,
    @Body() dto: UpdateDeploymentDto,
  ): Promise<DeploymentView> {
    return this.deployments.update(who, tenantId, appId, dto);
  }

  @Delete(':app_id')
  @HttpCode(204)
  @RequireScopes('id.tenant-core.write', 'platform.admin')
  @ApiOperation({ summary: 'Remove an app from the tenant' })
  @ApiParam(TENANT)
  @ApiParam(APP)
  @ApiNoContentResponse()
  remove(
    @CurrentPrincipal() who: Principal,
    @Param('tenant_id') tenantId: string,
    @Param('app_id') appId: string,
  ): Promise<void> {
    return this.deployments.remove(who, tenantId, appId);
  }

  @Post(':app_id/secret')
  @HttpCode(200)
  @RequireScopes('id.tenant-core.write', 'platform.admin')
  @ApiOperation({ summary: 'Issue or rotate per-deployment client credentials; the secret is shown only here' })
  @ApiParam(TENANT)
  @ApiParam(APP)
  @ApiOkResponse({ type: DeploymentCredentialsView })
  issueCredentials(
    @CurrentPrincipal() who: Principal,
    @Param('tenant_id') tenantId: string,
    @Param('app_id') appId: string,
  ): Promise<DeploymentCredentialsView> {
    return this.deployments.issueCredentials(who, tenantId, appId);
  }
}
