import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequireScopes } from '@edu/auth';
import { RosterAccessGuard, RosterTenant } from '../../tenancy/roster-access.guard';
import { namedFor, type OneRosterApi } from '../../common/oneroster-api';
import type { TenantAccess } from '../../tenancy/tenant-access.service';
import { RosterHttp } from '../roster-http';
import { COLLECTIONS as C, SINGLES as S } from '../roster-operations';

/** Orgs and schools (keyed `org(s)`). */
export function orgsController(api: OneRosterApi) {
  @Controller(api.prefix.rostering)
  @UseGuards(RosterAccessGuard)
  class OrgsController {
    constructor(private readonly http: RosterHttp) {}

    @Get('orgs')
    @RequireScopes(...api.scopes.rosterBase)
    getAllOrgs(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
      return this.http.list(api, t, C.getAllOrgs, {}, req, res);
    }

    @Get('orgs/:id')
    @RequireScopes(...api.scopes.rosterBase)
    getOrg(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
      return this.http.get(api, t, S.getOrg, id, req, res);
    }

    @Get('schools')
    @RequireScopes(...api.scopes.rosterBase)
    getAllSchools(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
      return this.http.list(api, t, C.getAllSchools, {}, req, res);
    }

    @Get('schools/:id')
    @RequireScopes(...api.scopes.rosterBase)
    getSchool(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
      return this.http.get(api, t, S.getSchool, id, req, res);
    }
  }
  return namedFor(api, OrgsController);
}

/** The "for school" relationship reads (keyed by payload type: courses, classes, enrollments, users, academic sessions). */
export function schoolReadsController(api: OneRosterApi) {
  @Controller(api.prefix.rostering)
  @UseGuards(RosterAccessGuard)
  class SchoolReadsController {
    constructor(private readonly http: RosterHttp) {}

    @Get('schools/:school_id/courses')
    @RequireScopes(...api.scopes.rosterRelated)
    getCoursesForSchool(
      @RosterTenant() t: TenantAccess,
      @Param('school_id') school: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getCoursesForSchool, { school_id: school }, req, res);
    }

    @Get('schools/:school_id/classes')
    @RequireScopes(...api.scopes.rosterRelated)
    getClassesForSchool(
      @RosterTenant() t: TenantAccess,
      @Param('school_id') school: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getClassesForSchool, { school_id: school }, req, res);
    }

    @Get('schools/:school_id/enrollments')
    @RequireScopes(...api.scopes.rosterRelated)
    getEnrollmentsForSchool(
      @RosterTenant() t: TenantAccess,
      @Param('school_id') school: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getEnrollmentsForSchool, { school_id: school }, req, res);
    }

    @Get('schools/:school_id/students')
    @RequireScopes(...api.scopes.rosterRelated)
    getStudentsForSchool(
      @RosterTenant() t: TenantAccess,
      @Param('school_id') school: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getStudentsForSchool, { school_id: school }, req, res);
    }

    @Get('schools/:school_id/teachers')
    @RequireScopes(...api.scopes.rosterRelated)
    getTeachersForSchool(
      @RosterTenant() t: TenantAccess,
      @Param('school_id') school: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getTeachersForSchool, { school_id: school }, req, res);
    }

    @Get('schools/:school_id/terms')
    @RequireScopes(...api.scopes.rosterRelated)
    getTermsForSchool(
      @RosterTenant() t: TenantAccess,
      @Param('school_id') school: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getTermsForSchool, { school_id: school }, req, res);
    }
  }
  return namedFor(api, SchoolReadsController);
}

/** The reads of one class of a school (its enrollments, students and teachers). */
export function schoolClassReadsController(api: OneRosterApi) {
  @Controller(api.prefix.rostering)
  @UseGuards(RosterAccessGuard)
  class SchoolClassReadsController {
    constructor(private readonly http: RosterHttp) {}

    @Get('schools/:school_id/classes/:class_id/enrollments')
    @RequireScopes(...api.scopes.rosterRelated)
    getEnrollmentsForClassInSchool(
      @RosterTenant() t: TenantAccess,
      @Param('school_id') school: string,
      @Param('class_id') cls: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getEnrollmentsForClassInSchool, { school_id: school, class_id: cls }, req, res);
    }

    @Get('schools/:school_id/classes/:class_id/students')
    @RequireScopes(...api.scopes.rosterRelated)
    getStudentsForClassInSchool(
      @RosterTenant() t: TenantAccess,
      @Param('school_id') school: string,
      @Param('class_id') cls: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getStudentsForClassInSchool, { school_id: school, class_id: cls }, req, res);
    }

    @Get('schools/:school_id/classes/:class_id/teachers')
    @RequireScopes(...api.scopes.rosterRelated)
    getTeachersForClassInSchool(
      @RosterTenant() t: TenantAccess,
      @Param('school_id') school: string,
      @Param('class_id') cls: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getTeachersForClassInSchool, { school_id: school, class_id: cls }, req, res);
    }
  }
  return namedFor(api, SchoolClassReadsController);
}
