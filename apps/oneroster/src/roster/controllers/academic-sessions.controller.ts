import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequireScopes } from '@edu/auth';
import { RosterAccessGuard, RosterTenant } from '../../tenancy/roster-access.guard';
import type { TenantAccess } from '../../tenancy/tenant-access.service';
import { ONEROSTER_PREFIX, ROSTER_READ, RosterHttp } from '../roster-http';
import { COLLECTIONS as C, SINGLES as S } from '../roster-operations';

/** Academic sessions, terms and grading periods (reference §6: all keyed `academicSession(s)`). */
@Controller(ONEROSTER_PREFIX)
@UseGuards(RosterAccessGuard)
@RequireScopes(...ROSTER_READ)
export class AcademicSessionsController {
  constructor(private readonly http: RosterHttp) {}

  @Get('academicSessions')
  getAllAcademicSessions(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getAllAcademicSessions, {}, req, res);
  }

  @Get('academicSessions/:id')
  getAcademicSession(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.http.get(t, S.getAcademicSession, id, req, res);
  }

  @Get('terms')
  getAllTerms(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getAllTerms, {}, req, res);
  }

  @Get('terms/:id')
  getTerm(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.http.get(t, S.getTerm, id, req, res);
  }

  @Get('terms/:id/classes')
  getClassesForTerm(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getClassesForTerm, { id }, req, res);
  }

  @Get('terms/:id/gradingPeriods')
  getGradingPeriodsForTerm(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getGradingPeriodsForTerm, { id }, req, res);
  }

  @Get('gradingPeriods')
  getAllGradingPeriods(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getAllGradingPeriods, {}, req, res);
  }

  @Get('gradingPeriods/:id')
  getGradingPeriod(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.http.get(t, S.getGradingPeriod, id, req, res);
  }
}
