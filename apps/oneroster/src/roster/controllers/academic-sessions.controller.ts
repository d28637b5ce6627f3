import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequireScopes } from '@edu/auth';
import { RosterAccessGuard, RosterTenant } from '../../tenancy/roster-access.guard';
import { namedFor, type OneRosterApi } from '../../common/oneroster-api';
import type { TenantAccess } from '../../tenancy/tenant-access.service';
import { RosterHttp } from '../roster-http';
import { COLLECTIONS as C, SINGLES as S } from '../roster-operations';

/** Academic sessions, terms and grading periods (reference §6: all keyed `academicSession(s)`). */
export function academicSessionsController(api: OneRosterApi) {
  @Controller(api.prefix.rostering)
  @UseGuards(RosterAccessGuard)
  class AcademicSessionsController {
    constructor(private readonly http: RosterHttp) {}

    @Get('academicSessions')
    @RequireScopes(...api.scopes.rosterBase)
    getAllAcademicSessions(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
      return this.http.list(api, t, C.getAllAcademicSessions, {}, req, res);
    }

    @Get('academicSessions/:id')
    @RequireScopes(...api.scopes.rosterBase)
    getAcademicSession(
      @RosterTenant() t: TenantAccess,
      @Param('id') id: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.get(api, t, S.getAcademicSession, id, req, res);
    }

    @Get('terms')
    @RequireScopes(...api.scopes.rosterBase)
    getAllTerms(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
      return this.http.list(api, t, C.getAllTerms, {}, req, res);
    }

    @Get('terms/:id')
    @RequireScopes(...api.scopes.rosterBase)
    getTerm(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
      return this.http.get(api, t, S.getTerm, id, req, res);
    }

    @Get('terms/:id/classes')
    @RequireScopes(...api.scopes.rosterRelated)
    getClassesForTerm(
      @RosterTenant() t: TenantAccess,
      @Param('id') id: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getClassesForTerm, { id }, req, res);
    }

    @Get('terms/:id/gradingPeriods')
    @RequireScopes(...api.scopes.rosterRelated)
    getGradingPeriodsForTerm(
      @RosterTenant() t: TenantAccess,
      @Param('id') id: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getGradingPeriodsForTerm, { id }, req, res);
    }

    @Get('gradingPeriods')
    @RequireScopes(...api.scopes.rosterBase)
    getAllGradingPeriods(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
      return this.http.list(api, t, C.getAllGradingPeriods, {}, req, res);
    }

    @Get('gradingPeriods/:id')
    @RequireScopes(...api.scopes.rosterBase)
    getGradingPeriod(
      @RosterTenant() t: TenantAccess,
      @Param('id') id: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.get(api, t, S.getGradingPeriod, id, req, res);
    }
  }
  return namedFor(api, AcademicSessionsController);
}
