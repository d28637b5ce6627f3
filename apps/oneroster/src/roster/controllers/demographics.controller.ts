import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequireScopes } from '@edu/auth';
import { RosterAccessGuard, RosterTenant } from '../../tenancy/roster-access.guard';
import { namedFor, type OneRosterApi } from '../../common/oneroster-api';
import type { TenantAccess } from '../../tenancy/tenant-access.service';
import { RosterHttp } from '../roster-http';
import { COLLECTIONS as C, SINGLES as S } from '../roster-operations';

/** Sensitive: only `roster-demographics.readonly` opens these (design §8). */
export function demographicsController(api: OneRosterApi) {
  @Controller(api.prefix.rostering)
  @UseGuards(RosterAccessGuard)
  class DemographicsController {
    constructor(private readonly http: RosterHttp) {}

    @Get('demographics')
    @RequireScopes(...api.scopes.demographics)
    getAllDemographics(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
      return this.http.list(api, t, C.getAllDemographics, {}, req, res);
    }

    @Get('demographics/:id')
    @RequireScopes(...api.scopes.demographics)
    getDemographics(
      @RosterTenant() t: TenantAccess,
      @Param('id') id: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.get(api, t, S.getDemographics, id, req, res);
    }
  }
  return namedFor(api, DemographicsController);
}
