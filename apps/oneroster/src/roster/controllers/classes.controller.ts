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
export class ClassesController {
  constructor(private readonly http: RosterHttp) {}

  @Get('classes')
  getAllClasses(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getAllClasses, {}, req, res);
  }

  @Get('classes/:id')
  getClass(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.http.get(t, S.getClass, id, req, res);
  }

  @Get('classes/:id/students')
  getStudentsForClass(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getStudentsForClass, { id }, req, res);
  }

  @Get('classes/:id/teachers')
  getTeachersForClass(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getTeachersForClass, { id }, req, res);
  }
}
