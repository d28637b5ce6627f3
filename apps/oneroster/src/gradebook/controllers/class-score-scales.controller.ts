import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequireScopes } from '@edu/auth';
import { RosterHttp } from '../../roster/roster-http';
import { RosterAccessGuard, RosterTenant } from '../../tenancy/roster-access.guard';
import { namedFor, type OneRosterApi } from '../../common/oneroster-api';
import type { TenantAccess } from '../../tenancy/tenant-access.service';
import { GRADEBOOK_V1P2_COLLECTIONS as C } from '../gradebook-operations';

/** v1.2 only: the score scales of a class and of a school (reference v1.2 §9.2); unknown parents are 404. */
export function classScoreScalesController(api: OneRosterApi) {
  @Controller(api.prefix.gradebook)
  @UseGuards(RosterAccessGuard)
  class ClassScoreScalesController {
    constructor(private readonly http: RosterHttp) {}

    @Get('classes/:class_id/scoreScales')
    @RequireScopes(...api.scopes.gradebookRelated)
    getScoreScalesForClass(
      @RosterTenant() t: TenantAccess,
      @Param('class_id') classId: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getScoreScalesForClass, { class_id: classId }, req, res);
    }

    @Get('schools/:school_id/scoreScales')
    @RequireScopes(...api.scopes.gradebookRelated)
    getScoreScalesForSchool(
      @RosterTenant() t: TenantAccess,
      @Param('school_id') schoolId: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getScoreScalesForSchool, { school_id: schoolId }, req, res);
    }
  }
  return namedFor(api, ClassScoreScalesController);
}
