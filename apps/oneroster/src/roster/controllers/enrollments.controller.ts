import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequireScopes } from '@edu/auth';
import { RosterAccessGuard, RosterTenant } from '../../tenancy/roster-access.guard';
import { namedFor, type OneRosterApi } from '../../common/oneroster-api';
import type { TenantAccess } from '../../tenancy/tenant-access.service';
import { RosterHttp } from '../roster-http';
import { COLLECTIONS as C, SINGLES as S } from '../roster-operations';

export function enrollmentsController(api: OneRosterApi) {
  @Controller(api.prefix.rostering)
  @UseGuards(RosterAccessGuard)
  class EnrollmentsController {
    constructor(private readonly http: RosterHttp) {}

    @Get('enrollments')
    @RequireScopes(...api.scopes.rosterBase)
    getAllEnrollments(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
      return this.http.list(api, t, C.getAllEnrollments, {}, req, res);
    }

    @Get('enrollments/:id')
    @RequireScopes(...api.scopes.rosterBase)
    getEnrollment(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
      return this.http.get(api, t, S.getEnrollment, id, req, res);
    }
  }
  return namedFor(api, EnrollmentsController);
}
