import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequireScopes } from '@edu/auth';
import { RosterAccessGuard, RosterTenant } from '../../tenancy/roster-access.guard';
import type { TenantAccess } from '../../tenancy/tenant-access.service';
import { ONEROSTER_PREFIX, ROSTER_READ, RosterHttp } from '../roster-http';
import { COLLECTIONS as C, SINGLES as S } from '../roster-operations';

/** Users, students and teachers (all staff, spec 4.2); every payload keyed `user(s)`. */
@Controller(ONEROSTER_PREFIX)
@UseGuards(RosterAccessGuard)
@RequireScopes(...ROSTER_READ)
export class UsersController {
  constructor(private readonly http: RosterHttp) {}

  @Get('users')
  getAllUsers(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getAllUsers, {}, req, res);
  }

  @Get('users/:id')
  getUser(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.http.get(t, S.getUser, id, req, res);
  }

  @Get('users/:id/classes')
  getClassesForUser(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getClassesForUser, { id }, req, res);
  }

  @Get('students')
  getAllStudents(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getAllStudents, {}, req, res);
  }

  @Get('students/:id')
  getStudent(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.http.get(t, S.getStudent, id, req, res);
  }

  @Get('students/:id/classes')
  getClassesForStudent(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getClassesForStudent, { id }, req, res);
  }

  @Get('teachers')
  getAllTeachers(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getAllTeachers, {}, req, res);
  }

  @Get('teachers/:id')
  getTeacher(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.http.get(t, S.getTeacher, id, req, res);
  }

  @Get('teachers/:id/classes')
  getClassesForTeacher(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getClassesForTeacher, { id }, req, res);
  }
}
