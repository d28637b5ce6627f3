import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequireScopes } from '@edu/auth';
import { RosterAccessGuard, RosterTenant } from '../../tenancy/roster-access.guard';
import type { TenantAccess } from '../../tenancy/tenant-access.service';
import { DEMOGRAPHICS_READ, ONEROSTER_PREFIX, RosterHttp } from '../roster-http';
import { COLLECTIONS as C, SINGLES as S } from '../roster-operations';

/** Sensitive: only `roster-demographics.readonly` opens these (design §8). */
@Controller(ONEROSTER_PREFIX)
@UseGuards(RosterAccessGuard)
@RequireScopes(...DEMOGRAPHICS_READ)
export class DemographicsController {
  constructor(private readonly http: RosterHttp) {}

  @Get('demographics')
  getAllDemographics(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getAllDemographics, {}, req, res);
  }

  @Get('demographics/:id')
  getDemographics(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.http.get(t, S.getDemographics, id, req, res);
  }
}
