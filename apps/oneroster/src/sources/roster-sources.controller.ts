import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Res, UseGuards } from '@nestjs/common';
import type { Response } from 'express';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import type { Principal } from '@edu/domain';
import { RequireJsonBody } from '@edu/http';
import { RosterSourcesService } from './roster-sources.service';

type View = Record<string, unknown>;

/**
 * A tenant's roster sources (design §11): the operator configures them; the school's admin app
 * (`tenant-core.*` at its own tenant) reads them and may sync now. Secrets are write-only.
 */
@Controller('admin/tenants/:tenantId/roster-sources')
export class RosterSourcesController {
  constructor(private readonly sources: RosterSourcesService) {}

  @Post()
  @RequireScopes('platform.admin')
  @UseGuards(RequireJsonBody)
  async create(
    @CurrentPrincipal() who: Principal,
    @Param('tenantId') tenantId: string,
    @Body() body: unknown,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ source: View }> {
    const source = await this.sources.create(who, tenantId, body);
    res.status(201).location(`/admin/tenants/${source.tenant_id as string}/roster-sources/${source.id as string}`);
    return { source };
  }

  @Get()
  @RequireScopes('platform.admin', 'id.tenant-core.readonly', 'id.tenant-core.write')
  async list(@CurrentPrincipal() who: Principal, @Param('tenantId') tenantId: string): Promise<{ sources: View[] }> {
    return { sources: await this.sources.list(who, tenantId) };
  }

  @Get(':sourceId')
  @RequireScopes('platform.admin', 'id.tenant-core.readonly', 'id.tenant-core.write')
  async get(
    @CurrentPrincipal() who: Principal,
    @Param('tenantId') tenantId: string,
    @Param('sourceId') sourceId: string,
  ): Promise<{ source: View }> {
    return { source: await this.sources.get(who, tenantId, sourceId) };
  }

  @Patch(':sourceId')
  @RequireScopes('platform.admin')
  @UseGuards(RequireJsonBody)
  async patch(
    @CurrentPrincipal() who: Principal,
    @Param('tenantId') tenantId: string,
    @Param('sourceId') sourceId: string,
    @Body() body: unknown,
  ): Promise<{ source: View }> {
    return { source: await this.sources.patch(who, tenantId, sourceId, body) };
  }

  @Delete(':sourceId')
  @RequireScopes('platform.admin')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() who: Principal,
    @Param('tenantId') tenantId: string,
    @Param('sourceId') sourceId: string,
  ): Promise<void> {
    await this.sources.remove(who, tenantId, sourceId);
  }

  /** Sync now: 202 with the queued sync (its report at the Location). */
  @Post(':sourceId/sync')
  @RequireScopes('platform.admin', 'id.tenant-core.write')
  async sync(
    @CurrentPrincipal() who: Principal,
    @Param('tenantId') tenantId: string,
    @Param('sourceId') sourceId: string,
    @Body() body: unknown,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ sync: View }> {
    const sync = await this.sources.syncNow(who, tenantId, sourceId, body);
    res.status(202).location(`/admin/tenants/${sync.tenant_id as string}/roster-syncs/${sync.id as string}`);
    return { sync };
  }
}
