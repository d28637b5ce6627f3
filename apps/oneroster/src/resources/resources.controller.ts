import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequireScopes } from '@edu/auth';
import { RosterHttp } from '../roster/roster-http';
import { RosterAccessGuard, RosterTenant } from '../tenancy/roster-access.guard';
import { namedFor, type OneRosterApi } from '../common/oneroster-api';
import type { TenantAccess } from '../tenancy/tenant-access.service';
import { RESOURCE_COLLECTIONS as C, RESOURCE_SINGLES as S } from './resource-operations';

/** The four reads of the OneRoster v1.1 resources service (reference §6.3). */
export function resourcesController(api: OneRosterApi) {
  @Controller(api.prefix.resources)
  @UseGuards(RosterAccessGuard)
  class ResourcesController {
    constructor(private readonly http: RosterHttp) {}

    @Get('resources')
    @RequireScopes(...api.scopes.resourceBase)
    getAllResources(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
      return this.http.list(api, t, C.getAllResources, {}, req, res);
    }

    @Get('resources/:id')
    @RequireScopes(...api.scopes.resourceBase)
    getResource(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
      return this.http.get(api, t, S.getResource, id, req, res);
    }

    @Get('courses/:course_id/resources')
    @RequireScopes(...api.scopes.resourceRelated)
    getResourcesForCourse(
      @RosterTenant() t: TenantAccess,
      @Param('course_id') courseId: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getResourcesForCourse, { course_id: courseId }, req, res);
    }

    @Get('classes/:class_id/resources')
    @RequireScopes(...api.scopes.resourceRelated)
    getResourcesForClass(
      @RosterTenant() t: TenantAccess,
      @Param('class_id') classId: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getResourcesForClass, { class_id: classId }, req, res);
    }
  }
  return namedFor(api, ResourcesController);
}
