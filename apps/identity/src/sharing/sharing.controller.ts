import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import type { Principal } from '@edu/domain';
import { SharingPreviewQuery, SharingSpecDto } from './dto/sharing.dto';
import { SharingService } from './sharing.service';
import { SharingPreviewView, SharingView } from './sharing.view';

const TENANT = {
  name: 'tenant_id',
  description: 'The token\u2019s own tenant id (any other id answers 404); with platform.admin, any tenant',
};
const APP = { name: 'app_id', description: 'Id (uuid) of an app deployed at the tenant' };

/** A deployment's data sharing: what the school lets the app see (design §11). */
@ApiTags('sharing')
@Controller('tenants/:tenant_id/apps/:app_id/sharing')
export class SharingController {
  constructor(private readonly sharing: SharingService) {}

  @Get()
  @RequireScopes('id.tenant-core.write', 'platform.admin')
  @ApiOperation({
    summary: 'The sharing in force (`active`; `mode: all` until one is activated) and the draft, if any',
  })
  @ApiParam(TENANT)
  @ApiParam(APP)
  @ApiOkResponse({ type: SharingView })
  @ApiNotFoundResponse()
  get(
    @CurrentPrincipal() who: Principal,
    @Param('tenant_id') tenantId: string,
    @Param('app_id') appId: string,
  ): Promise<SharingView> {
    return this.sharing.get(who, tenantId, appId);
  }

  @Put()
  @RequireScopes('id.tenant-core.write', 'platform.admin')
  @ApiOperation({
    summary:
      'Save a draft: a mode (`all`, `schools`, `classes`, `rules`) with its lists or rules, and the field categories withheld. Nothing changes for the app until it is activated',
  })
  @ApiParam(TENANT)
  @ApiParam(APP)
  @ApiBody({ type: SharingSpecDto })
  @ApiOkResponse({ type: SharingView })
  @ApiNotFoundResponse()
  saveDraft(
    @CurrentPrincipal() who: Principal,
    @Param('tenant_id') tenantId: string,
    @Param('app_id') appId: string,
    @Body() dto: SharingSpecDto,
  ): Promise<SharingView> {
    return this.sharing.saveDraft(who, tenantId, appId, dto);
  }

  @Post('activate')
  @HttpCode(200)
  @RequireScopes('id.tenant-core.write', 'platform.admin')
  @ApiOperation({ summary: 'Make the draft the sharing in force, atomically (409 when there is no draft)' })
  @ApiParam(TENANT)
  @ApiParam(APP)
  @ApiOkResponse({ type: SharingView })
  @ApiConflictResponse()
  @ApiNotFoundResponse()
  activate(
    @CurrentPrincipal() who: Principal,
    @Param('tenant_id') tenantId: string,
    @Param('app_id') appId: string,
  ): Promise<SharingView> {
    return this.sharing.activate(who, tenantId, appId);
  }

  @Get('preview')
  @RequireScopes('id.tenant-core.write', 'platform.admin')
  @ApiOperation({
    summary:
      'What the app would see under the draft (or the active sharing), now: per collection the count its getAll* read answers and the first sourcedIds, and listed sourcedIds the roster does not hold',
  })
  @ApiParam(TENANT)
  @ApiParam(APP)
  @ApiOkResponse({ type: SharingPreviewView })
  @ApiConflictResponse()
  @ApiNotFoundResponse()
  preview(
    @CurrentPrincipal() who: Principal,
    @Param('tenant_id') tenantId: string,
    @Param('app_id') appId: string,
    @Query() query: SharingPreviewQuery,
  ): Promise<SharingPreviewView> {
    return this.sharing.preview(who, tenantId, appId, query.state ?? 'draft');
  }
}
