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
export function lineItemsController(api: OneRosterApi) {
  @Controller(api.prefix.gradebook)
  @UseGuards(RosterAccessGuard)
  class LineItemsController {
    constructor(
      private readonly http: RosterHttp,
      private readonly writes: GradebookHttp,
    ) {}

    @Get('lineItems')
    @RequireScopes(...api.scopes.gradebookBase)
    getAllLineItems(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
      return this.http.list(api, t, C.getAllLineItems, {}, req, res);
    }

    @Get('lineItems/:id')
    @RequireScopes(...api.scopes.gradebookBase)
    getLineItem(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
      return this.http.get(api, t, S.getLineItem, id, req, res);
    }

    @Put('lineItems/:id')
    @RequireScopes(...api.scopes.gradebookPut)
    putLineItem(@RosterTenant() t: TenantAccess, @CurrentPrincipal() who: Principal, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
      return this.writes.put(api, t, who, 'lineItem', 'putLineItem', id, req, res);
    }

    @Delete('lineItems/:id')
    @RequireScopes(...api.scopes.gradebookDelete)
    deleteLineItem(@RosterTenant() t: TenantAccess, @CurrentPrincipal() who: Principal, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
      return this.writes.delete(api, t, who, 'lineItem', 'deleteLineItem', id, req, res);
    }
  }
  return namedFor(api, LineItemsController);
}
