import { Controller, Get, Param, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { RequireScopes } from '@edu/auth';
import { RosterHttp } from '../../roster/roster-http';
import { RosterAccessGuard, RosterTenant } from '../../tenancy/roster-access.guard';
import { namedFor, type OneRosterApi } from '../../common/oneroster-api';
import type { TenantAccess } from '../../tenancy/tenant-access.service';
import { GRADEBOOK_COLLECTIONS as C } from '../gradebook-operations';

/** The gradebook reads of one class (reference §6.3, v1.2 §9.2), plus its usable categories; unknown parents are 404 in v1.2. */
export function classGradebookController(api: OneRosterApi) {
  @Controller(api.prefix.gradebook)
  @UseGuards(RosterAccessGuard)
  class ClassGradebookController {
    constructor(private readonly http: RosterHttp) {}

    @Get('classes/:class_id/lineItems')
    @RequireScopes(...api.scopes.gradebookRelated)
    getLineItemsForClass(
      @RosterTenant() t: TenantAccess,
      @Param('class_id') classId: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getLineItemsForClass, { class_id: classId }, req, res);
    }

    @Get('classes/:class_id/results')
    @RequireScopes(...api.scopes.gradebookRelated)
    getResultsForClass(
      @RosterTenant() t: TenantAccess,
      @Param('class_id') classId: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getResultsForClass, { class_id: classId }, req, res);
    }

    @Get('classes/:class_id/lineItems/:li_id/results')
    @RequireScopes(...api.scopes.gradebookRelated)
    getResultsForLineItemForClass(
      @RosterTenant() t: TenantAccess,
      @Param('class_id') classId: string,
      @Param('li_id') lineItemId: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(
        api,
        t,
        C.getResultsForLineItemForClass,
        { class_id: classId, li_id: lineItemId },
        req,
        res,
      );
    }

    @Get('classes/:class_id/students/:student_id/results')
    @RequireScopes(...api.scopes.gradebookRelated)
    getResultsForStudentForClass(
      @RosterTenant() t: TenantAccess,
      @Param('class_id') classId: string,
      @Param('student_id') studentId: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(
        api,
        t,
        C.getResultsForStudentForClass,
        { class_id: classId, student_id: studentId },
        req,
        res,
      );
    }

    /** Not one of the 16 v1.1 operations (v1.2 has it): grade-sync clients call it on v1.1 servers too (see the README for the rule). */
    @Get('classes/:class_id/categories')
    @RequireScopes(...api.scopes.gradebookRelated)
    getCategoriesForClass(
      @RosterTenant() t: TenantAccess,
      @Param('class_id') classId: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.http.list(api, t, C.getCategoriesForClass, { class_id: classId }, req, res);
    }
  }
  return namedFor(api, ClassGradebookController);
}
