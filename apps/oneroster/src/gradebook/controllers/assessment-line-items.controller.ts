import { Controller, Delete, Get, Param, Put, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import type { Principal } from '@edu/domain';
import { RosterHttp } from '../../roster/roster-http';
import { RosterAccessGuard, RosterTenant } from '../../tenancy/roster-access.guard';
import { namedFor, type OneRosterApi } from '../../common/oneroster-api';
import type { TenantAccess } from '../../tenancy/tenant-access.service';
import { GRADEBOOK_V1P2_COLLECTIONS as C, GRADEBOOK_V1P2_SINGLES as S } from '../gradebook-operations';
import { GradebookHttp } from '../gradebook-http';

/** v1.2 only: assessment line items (the assessment scopes), GET all, GET one, PUT, DELETE (reference v1.2 §9.2). */
export function assessmentLineItemsController(api: OneRosterApi) {
  @Controller(api.prefix.gradebook)
  @UseGuards(RosterAccessGuard)
  class AssessmentLineItemsController {
    constructor(
      private readonly http: RosterHttp,
      private readonly writes: GradebookHttp,
    ) {}

    @Get('assessmentLineItems')
    @RequireScopes(...api.scopes.assessmentRead)
    getAllAssessmentLineItems(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
      return this.http.list(api, t, C.getAllAssessmentLineItems, {}, req, res);
    }

    @Get('assessmentLineItems/:id')
    @RequireScopes(...api.scopes.assessmentRead)
    getAssessmentLineItem(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
      return this.http.get(api, t, S.getAssessmentLineItem, id, req, res);
    }

    @Put('assessmentLineItems/:id')
    @RequireScopes(...api.scopes.assessmentPut)
    putAssessmentLineItem(@RosterTenant() t: TenantAccess, @CurrentPrincipal() who: Principal, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
      return this.writes.put(api, t, who, 'assessmentLineItem', 'putAssessmentLineItem', id, req, res);
    }

    @Delete('assessmentLineItems/:id')
    @RequireScopes(...api.scopes.assessmentDelete)
    deleteAssessmentLineItem(@RosterTenant() t: TenantAccess, @CurrentPrincipal() who: Principal, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
      return this.writes.delete(api, t, who, 'assessmentLineItem', 'deleteAssessmentLineItem', id, req, res);
    }
  }
  return namedFor(api, AssessmentLineItemsController);
}
