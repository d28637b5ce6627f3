import { Body, Controller, Get, Param, Put, UseGuards } from '@nestjs/common';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import type { Principal } from '@edu/domain';
import { RequireJsonBody } from '@edu/http';
import { SyncSettingsService } from './sync-settings.service';

type View = Record<string, unknown>;

/** The tenant's sync guard: deletion threshold and the endpoint held syncs are announced at. */
@Controller('admin/tenants/:tenantId/roster-sync-settings')
export class SyncSettingsController {
  constructor(private readonly settings: SyncSettingsService) {}

  @Get()
  @RequireScopes('platform.admin', 'id.tenant-core.readonly', 'id.tenant-core.write')
  async get(@CurrentPrincipal() who: Principal, @Param('tenantId') tenantId: string): Promise<{ settings: View }> {
    return { settings: await this.settings.get(who, tenantId) };
  }

  @Put()
  @RequireScopes('platform.admin')
  @UseGuards(RequireJsonBody)
  async put(
    @CurrentPrincipal() who: Principal,
    @Param('tenantId') tenantId: string,
    @Body() body: unknown,
  ): Promise<{ settings: View }> {
    return { settings: await this.settings.put(who, tenantId, body) };
  }
}
