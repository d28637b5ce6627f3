import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequireScopes } from '@edu/auth';
import { RosterAccessGuard, RosterTenant } from '../../tenancy/roster-access.guard';
import { namedFor, type OneRosterApi } from '../../common/oneroster-api';
import type { TenantAccess } from '../../tenancy/tenant-access.service';
import { RosterHttp } from '../roster-http';
import { COLLECTIONS as C, SINGLES as S } from '../roster-operations';

export function coursesController(api: OneRosterApi) {
  @Controller(api.prefix.rostering)
  @UseGuards(RosterAccessGuard)
  class CoursesController {
    constructor(private readonly http: RosterHttp) {}

    @Get('courses')
    @RequireScopes(...api.scopes.rosterBase)
    getAllCourses(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
      return this.http.list(api, t, C.getAllCourses, {}, req, res);
    }

    @Get('courses/:id')
    @RequireScopes(...api.scopes.rosterBase)
    getCourse(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
      return this.http.get(api, t, S.getCourse, id, req, res);
    }

    @Get('courses/:id/classes')
    @RequireScopes(...api.scopes.rosterRelated)
    getClassesForCourse(
      @RosterTenant() t: TenantAccess,
      @Param('id') id: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getClassesForCourse, { id }, req, res);
    }
  }
  return namedFor(api, CoursesController);
}
