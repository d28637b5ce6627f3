import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequireScopes } from '@edu/auth';
import { RosterAccessGuard, RosterTenant } from '../../tenancy/roster-access.guard';
import type { TenantAccess } from '../../tenancy/tenant-access.service';
import { ONEROSTER_PREFIX, ROSTER_READ, RosterHttp } from '../roster-http';
import { COLLECTIONS as C, SINGLES as S } from '../roster-operations';

@Controller(ONEROSTER_PREFIX)
@UseGuards(RosterAccessGuard)
@RequireScopes(...ROSTER_READ)
export class CoursesController {
  constructor(private readonly http: RosterHttp) {}

  @Get('courses')
  getAllCourses(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getAllCourses, {}, req, res);
  }

  @Get('courses/:id')
  getCourse(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.http.get(t, S.getCourse, id, req, res);
  }

  @Get('courses/:id/classes')
  getClassesForCourse(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getClassesForCourse, { id }, req, res);
  }
}
