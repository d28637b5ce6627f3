import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequireScopes } from '@edu/auth';
import { ONEROSTER_PREFIX, RESOURCE_READ, RosterHttp } from '../roster/roster-http';
import { RosterAccessGuard, RosterTenant } from '../tenancy/roster-access.guard';
import type { TenantAccess } from '../tenancy/tenant-access.service';
import { RESOURCE_COLLECTIONS as C, RESOURCE_SINGLES as S } from './resource-operations';

/** The four reads of the OneRoster v1.1 resources service (reference §6.3). */
@Controller(ONEROSTER_PREFIX)
@UseGuards(RosterAccessGuard)
@RequireScopes(...RESOURCE_READ)
export class ResourcesController {
  constructor(private readonly http: RosterHttp) {}

  @Get('resources')
  getAllResources(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getAllResources, {}, req, res);
  }

  @Get('resources/:id')
  getResource(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.http.get(t, S.getResource, id, req, res);
  }

  @Get('courses/:course_id/resources')
  getResourcesForCourse(@RosterTenant() t: TenantAccess, @Param('course_id') courseId: string, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getResourcesForCourse, { course_id: courseId }, req, res);
  }

  @Get('classes/:class_id/resources')
  getResourcesForClass(@RosterTenant() t: TenantAccess, @Param('class_id') classId: string, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getResourcesForClass, { class_id: classId }, req, res);
  }
}
