import { Controller, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import type { Principal } from '@edu/domain';
import { RosterSyncsService } from './roster-syncs.service';

type View = Record<string, unknown>;

/** Sync reports, newest first, and the decision on a held sync (operator or the school's admin app). */
@Controller('admin/tenants/:tenantId/roster-syncs')
export class RosterSyncsController {
  constructor(private readonly syncs: RosterSyncsService) {}

  @Get()
  @RequireScopes('platform.admin', 'id.tenant-core.readonly', 'id.tenant-core.write')
  async list(
    @CurrentPrincipal() who: Principal,
    @Param('tenantId') tenantId: string,
    @Query() query: Record<string, unknown>,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ syncs: View[]; next_cursor?: string }> {
    const page = await this.syncs.list(who, tenantId, query);
    if (page.next_cursor) {
      const next = new URLSearchParams({ ...(query as Record<string, string>), cursor: page.next_cursor });
      res.set('Link', `</admin/tenants/${tenantId.toLowerCase()}/roster-syncs?${next.toString()}>; rel="next"`);
    }
    return page;
  }

  @Get(':syncId')
  @RequireScopes('platform.admin', 'id.tenant-core.readonly', 'id.tenant-core.write')
  async get(
    @CurrentPrincipal() who: Principal,
    @Param('tenantId') tenantId: string,
    @Param('syncId') syncId: string,
  ): Promise<{ sync: View }> {
    return { sync: await this.syncs.get(who, tenantId, syncId) };
  }

  /** 202: the held sync is queued again and applied as diffed. */
  @Post(':syncId/approve')
  @RequireScopes('platform.admin', 'id.tenant-core.write')
  @HttpCode(202)
  async approve(
    @CurrentPrincipal() who: Principal,
    @Param('tenantId') tenantId: string,
    @Param('syncId') syncId: string,
  ): Promise<{ sync: View }> {
    return { sync: await this.syncs.approve(who, tenantId, syncId) };
  }

  @Post(':syncId/reject')
  @RequireScopes('platform.admin', 'id.tenant-core.write')
  @HttpCode(200)
  async reject(
    @CurrentPrincipal() who: Principal,
    @Param('tenantId') tenantId: string,
    @Param('syncId') syncId: string,
  ): Promise<{ sync: View }> {
    return { sync: await this.syncs.reject(who, tenantId, syncId) };
  }
}
