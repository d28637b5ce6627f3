import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequireScopes } from '@edu/auth';
import { RosterAccessGuard, RosterTenant } from '../../tenancy/roster-access.guard';
import type { TenantAccess } from '../../tenancy/tenant-access.service';
import { ONEROSTER_PREFIX, ROSTER_READ, RosterHttp } from '../roster-http';
import { COLLECTIONS as C, SINGLES as S } from '../roster-operations';

/** Orgs, schools and the "for school" relationship reads (all keyed `org(s)` or by payload type). */
@Controller(ONEROSTER_PREFIX)
@UseGuards(RosterAccessGuard)
@RequireScopes(...ROSTER_READ)
export class OrgsController {
  constructor(private readonly http: RosterHttp) {}

  @Get('orgs')
  getAllOrgs(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getAllOrgs, {}, req, res);
  }

  @Get('orgs/:id')
  getOrg(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.http.get(t, S.getOrg, id, req, res);
  }

  @Get('schools')
  getAllSchools(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getAllSchools, {}, req, res);
  }

  @Get('schools/:id')
  getSchool(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.http.get(t, S.getSchool, id, req, res);
  }

  @Get('schools/:school_id/courses')
  getCoursesForSchool(@RosterTenant() t: TenantAccess, @Param('school_id') school: string, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getCoursesForSchool, { school_id: school }, req, res);
  }

  @Get('schools/:school_id/classes')
  getClassesForSchool(@RosterTenant() t: TenantAccess, @Param('school_id') school: string, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getClassesForSchool, { school_id: school }, req, res);
  }

  @Get('schools/:school_id/enrollments')
  getEnrollmentsForSchool(@RosterTenant() t: TenantAccess, @Param('school_id') school: string, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getEnrollmentsForSchool, { school_id: school }, req, res);
  }

  @Get('schools/:school_id/classes/:class_id/enrollments')
  getEnrollmentsForClassInSchool(
    @RosterTenant() t: TenantAccess,
    @Param('school_id') school: string,
    @Param('class_id') cls: string,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    return this.http.list(t, C.getEnrollmentsForClassInSchool, { school_id: school, class_id: cls }, req, res);
  }

  @Get('schools/:school_id/classes/:class_id/students')
  getStudentsForClassInSchool(
    @RosterTenant() t: TenantAccess,
    @Param('school_id') school: string,
    @Param('class_id') cls: string,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    return this.http.list(t, C.getStudentsForClassInSchool, { school_id: school, class_id: cls }, req, res);
  }

  @Get('schools/:school_id/classes/:class_id/teachers')
  getTeachersForClassInSchool(
    @RosterTenant() t: TenantAccess,
    @Param('school_id') school: string,
    @Param('class_id') cls: string,
    @Req() req: Request,
    @Res() res: Response,
  ) {
    return this.http.list(t, C.getTeachersForClassInSchool, { school_id: school, class_id: cls }, req, res);
  }

  @Get('schools/:school_id/students')
  getStudentsForSchool(@RosterTenant() t: TenantAccess, @Param('school_id') school: string, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getStudentsForSchool, { school_id: school }, req, res);
  }

  @Get('schools/:school_id/teachers')
  getTeachersForSchool(@RosterTenant() t: TenantAccess, @Param('school_id') school: string, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getTeachersForSchool, { school_id: school }, req, res);
  }

  @Get('schools/:school_id/terms')
  getTermsForSchool(@RosterTenant() t: TenantAccess, @Param('school_id') school: string, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getTermsForSchool, { school_id: school }, req, res);
  }
}
