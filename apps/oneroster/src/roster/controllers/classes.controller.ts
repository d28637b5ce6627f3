import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequireScopes } from '@edu/auth';
import { RosterAccessGuard, RosterTenant } from '../../tenancy/roster-access.guard';
import { namedFor, type OneRosterApi } from '../../common/oneroster-api';
import type { TenantAccess } from '../../tenancy/tenant-access.service';
import { RosterHttp } from '../roster-http';
import { COLLECTIONS as C, SINGLES as S } from '../roster-operations';

export function classesController(api: OneRosterApi) {
  @Controller(api.prefix.rostering)
  @UseGuards(RosterAccessGuard)
  class ClassesController {
    constructor(private readonly http: RosterHttp) {}

    @Get('classes')
    @RequireScopes(...api.scopes.rosterBase)
    getAllClasses(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
      return this.http.list(api, t, C.getAllClasses, {}, req, res);
    }

    @Get('classes/:id')
    @RequireScopes(...api.scopes.rosterBase)
    getClass(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
      return this.http.get(api, t, S.getClass, id, req, res);
    }

    @Get('classes/:id/students')
    @RequireScopes(...api.scopes.rosterRelated)
    getStudentsForClass(
      @RosterTenant() t: TenantAccess,
      @Param('id') id: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getStudentsForClass, { id }, req, res);
    }

    @Get('classes/:id/teachers')
    @RequireScopes(...api.scopes.rosterRelated)
    getTeachersForClass(
      @RosterTenant() t: TenantAccess,
      @Param('id') id: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getTeachersForClass, { id }, req, res);
    }
  }
  return namedFor(api, ClassesController);
}
