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

/** v1.2 only: score scales, GET all, GET one, PUT, DELETE (reference v1.2 §9.2). */
export function scoreScalesController(api: OneRosterApi) {
  @Controller(api.prefix.gradebook)
  @UseGuards(RosterAccessGuard)
  class ScoreScalesController {
    constructor(
      private readonly http: RosterHttp,
      private readonly writes: GradebookHttp,
    ) {}

    @Get('scoreScales')
    @RequireScopes(...api.scopes.gradebookBase)
    getAllScoreScales(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
      return this.http.list(api, t, C.getAllScoreScales, {}, req, res);
    }

    @Get('scoreScales/:id')
    @RequireScopes(...api.scopes.gradebookBase)
    getScoreScale(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
      return this.http.get(api, t, S.getScoreScale, id, req, res);
    }

    @Put('scoreScales/:id')
    @RequireScopes(...api.scopes.gradebookPut)
    putScoreScale(@RosterTenant() t: TenantAccess, @CurrentPrincipal() who: Principal, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
      return this.writes.put(api, t, who, 'scoreScale', 'putScoreScale', id, req, res);
    }

    @Delete('scoreScales/:id')
    @RequireScopes(...api.scopes.gradebookDelete)
    deleteScoreScale(@RosterTenant() t: TenantAccess, @CurrentPrincipal() who: Principal, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
      return this.writes.delete(api, t, who, 'scoreScale', 'deleteScoreScale', id, req, res);
    }
  }
  return namedFor(api, ScoreScalesController);
}
