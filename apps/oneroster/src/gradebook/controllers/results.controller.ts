import { Controller, Delete, Get, Param, Put, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import type { Principal } from '@edu/domain';
import { RosterHttp } from '../../roster/roster-http';
import { RosterAccessGuard, RosterTenant } from '../../tenancy/roster-access.guard';
import { namedFor, type OneRosterApi } from '../../common/oneroster-api';
import type { TenantAccess } from '../../tenancy/tenant-access.service';
import { GRADEBOOK_COLLECTIONS as C, GRADEBOOK_SINGLES as S } from '../gradebook-operations';
import { GradebookHttp } from '../gradebook-http';

/** The gradebook operations on one collection, in both bindings: GET all, GET one, PUT, DELETE (reference §6.3, v1.2 §9.2). */
export function resultsController(api: OneRosterApi) {
  @Controller(api.prefix.gradebook)
  @UseGuards(RosterAccessGuard)
  class ResultsController {
    constructor(
      private readonly http: RosterHttp,
      private readonly writes: GradebookHttp,
    ) {}

    @Get('results')
    @RequireScopes(...api.scopes.gradebookBase)
    getAllResults(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
      return this.http.list(api, t, C.getAllResults, {}, req, res);
    }

    @Get('results/:id')
    @RequireScopes(...api.scopes.gradebookBase)
    getResult(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
      return this.http.get(api, t, S.getResult, id, req, res);
    }

    @Put('results/:id')
    @RequireScopes(...api.scopes.gradebookPut)
    putResult(@RosterTenant() t: TenantAccess, @CurrentPrincipal() who: Principal, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
      return this.writes.put(api, t, who, 'result', 'putResult', id, req, res);
    }

    @Delete('results/:id')
    @RequireScopes(...api.scopes.gradebookDelete)
    deleteResult(@RosterTenant() t: TenantAccess, @CurrentPrincipal() who: Principal, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
      return this.writes.delete(api, t, who, 'result', 'deleteResult', id, req, res);
    }
  }
  return namedFor(api, ResultsController);
}
