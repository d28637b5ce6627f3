import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequireScopes } from '@edu/auth';
import { RosterAccessGuard, RosterTenant } from '../../tenancy/roster-access.guard';
import { namedFor, type OneRosterApi } from '../../common/oneroster-api';
import type { TenantAccess } from '../../tenancy/tenant-access.service';
import { RosterHttp } from '../roster-http';
import { COLLECTIONS as C, SINGLES as S } from '../roster-operations';

/** Users, students and teachers (all staff, spec 4.2); every payload keyed `user(s)`. */
export function usersController(api: OneRosterApi) {
  @Controller(api.prefix.rostering)
  @UseGuards(RosterAccessGuard)
  class UsersController {
    constructor(private readonly http: RosterHttp) {}

    @Get('users')
    @RequireScopes(...api.scopes.rosterBase)
    getAllUsers(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
      return this.http.list(api, t, C.getAllUsers, {}, req, res);
    }

    @Get('users/:id')
    @RequireScopes(...api.scopes.rosterBase)
    getUser(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
      return this.http.get(api, t, S.getUser, id, req, res);
    }

    @Get('users/:id/classes')
    @RequireScopes(...api.scopes.rosterRelated)
    getClassesForUser(
      @RosterTenant() t: TenantAccess,
      @Param('id') id: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getClassesForUser, { id }, req, res);
    }

    @Get('students')
    @RequireScopes(...api.scopes.rosterBase)
    getAllStudents(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
      return this.http.list(api, t, C.getAllStudents, {}, req, res);
    }

    @Get('students/:id')
    @RequireScopes(...api.scopes.rosterBase)
    getStudent(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
      return this.http.get(api, t, S.getStudent, id, req, res);
    }

    @Get('students/:id/classes')
    @RequireScopes(...api.scopes.rosterRelated)
    getClassesForStudent(
      @RosterTenant() t: TenantAccess,
      @Param('id') id: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getClassesForStudent, { id }, req, res);
    }

    @Get('teachers')
    @RequireScopes(...api.scopes.rosterBase)
    getAllTeachers(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
      return this.http.list(api, t, C.getAllTeachers, {}, req, res);
    }

    @Get('teachers/:id')
    @RequireScopes(...api.scopes.rosterBase)
    getTeacher(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
      return this.http.get(api, t, S.getTeacher, id, req, res);
    }

    @Get('teachers/:id/classes')
    @RequireScopes(...api.scopes.rosterRelated)
    getClassesForTeacher(
      @RosterTenant() t: TenantAccess,
      @Param('id') id: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getClassesForTeacher, { id }, req, res);
    }
  }
  return namedFor(api, UsersController);
}
