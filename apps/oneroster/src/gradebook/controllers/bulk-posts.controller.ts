import { Controller, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import type { Principal } from '@edu/domain';
import { RosterAccessGuard, RosterTenant } from '../../tenancy/roster-access.guard';
import { namedFor, type OneRosterApi } from '../../common/oneroster-api';
import type { TenantAccess } from '../../tenancy/tenant-access.service';
import { GradebookHttp } from '../gradebook-http';
import { BULK_POSTS as P } from '../gradebook-posts';

/** v1.2 only: the four bulk creations, 201 with the sourcedId pairs (reference v1.2 §5.2). */
export function bulkPostsController(api: OneRosterApi) {
  @Controller(api.prefix.gradebook)
  @UseGuards(RosterAccessGuard)
  class BulkPostsController {
    constructor(private readonly writes: GradebookHttp) {}

    @Post('classes/:class_id/lineItems')
    @RequireScopes(...api.scopes.gradebookPost)
    postLineItemsForClass(
      @RosterTenant() t: TenantAccess,
      @CurrentPrincipal() who: Principal,
      @Param('class_id') classId: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.writes.post(api, t, who, P.postLineItemsForClass, { class_id: classId }, req, res);
    }

    @Post('schools/:school_id/lineItems')
    @RequireScopes(...api.scopes.gradebookPost)
    postLineItemsForSchool(
      @RosterTenant() t: TenantAccess,
      @CurrentPrincipal() who: Principal,
      @Param('school_id') schoolId: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.writes.post(api, t, who, P.postLineItemsForSchool, { school_id: schoolId }, req, res);
    }

    @Post('lineItems/:li_id/results')
    @RequireScopes(...api.scopes.gradebookPost)
    postResultsForLineItem(
      @RosterTenant() t: TenantAccess,
      @CurrentPrincipal() who: Principal,
      @Param('li_id') lineItemId: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.writes.post(api, t, who, P.postResultsForLineItem, { li_id: lineItemId }, req, res);
    }

    @Post('classes/:class_id/academicSessions/:session_id/results')
    @RequireScopes(...api.scopes.gradebookPost)
    postResultsForAcademicSessionForClass(
      @RosterTenant() t: TenantAccess,
      @CurrentPrincipal() who: Principal,
      @Param('class_id') classId: string,
      @Param('session_id') sessionId: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.writes.post(
        api,
        t,
        who,
        P.postResultsForAcademicSessionForClass,
        { class_id: classId, session_id: sessionId },
        req,
        res,
      );
    }
  }
  return namedFor(api, BulkPostsController);
}
