import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequireScopes } from '@edu/auth';
import { namedFor, type OneRosterApi } from '../common/oneroster-api';
import { RosterHttp } from '../roster/roster-http';
import { RosterAccessGuard, RosterTenant } from '../tenancy/roster-access.guard';
import type { TenantAccess } from '../tenancy/tenant-access.service';
import { RESOURCE_COLLECTIONS as C } from './resource-operations';

/** `getResourcesForUser`, new in v1.2 (reference v1.2 §9.3): served under the v1.2 resources root only. */
export function userResourcesController(api: OneRosterApi) {
  @Controller(api.prefix.resources)
  @UseGuards(RosterAccessGuard)
  class UserResourcesController {
    constructor(private readonly http: RosterHttp) {}

    @Get('users/:user_id/resources')
    @RequireScopes(...api.scopes.resourceRelated)
    getResourcesForUser(
      @RosterTenant() t: TenantAccess,
      @Param('user_id') userId: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getResourcesForUser, { user_id: userId }, req, res);
    }
  }
  return namedFor(api, UserResourcesController);
}
