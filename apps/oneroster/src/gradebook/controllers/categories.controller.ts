import { Controller, Delete, Get, Param, Put, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import type { Principal } from '@edu/domain';
import { GRADEBOOK_DELETE, GRADEBOOK_PUT, GRADEBOOK_READ, ONEROSTER_PREFIX, RosterHttp } from '../../roster/roster-http';
import { RosterAccessGuard, RosterTenant } from '../../tenancy/roster-access.guard';
import type { TenantAccess } from '../../tenancy/tenant-access.service';
import { GRADEBOOK_COLLECTIONS as C, GRADEBOOK_SINGLES as S } from '../gradebook-operations';
import { GradebookHttp } from '../gradebook-http';

/** The OneRoster v1.1 gradebook operations on one collection: GET all, GET one, PUT, DELETE (reference §6.3). */
@Controller(ONEROSTER_PREFIX)
@UseGuards(RosterAccessGuard)
export class CategoriesController {
  constructor(
    private readonly http: RosterHttp,
    private readonly writes: GradebookHttp,
  ) {}

  @Get('categories')
  @RequireScopes(...GRADEBOOK_READ)
  getAllCategories(@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
    return this.http.list(t, C.getAllCategories, {}, req, res);
  }

  @Get('categories/:id')
  @RequireScopes(...GRADEBOOK_READ)
  getCategory(@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.http.get(t, S.getCategory, id, req, res);
  }

  @Put('categories/:id')
  @RequireScopes(...GRADEBOOK_PUT)
  putCategory(@RosterTenant() t: TenantAccess, @CurrentPrincipal() who: Principal, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.writes.put(t, who, 'category', 'putCategory', id, req, res);
  }

  @Delete('categories/:id')
  @RequireScopes(...GRADEBOOK_DELETE)
  deleteCategory(@RosterTenant() t: TenantAccess, @CurrentPrincipal() who: Principal, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.writes.delete(t, who, 'category', 'deleteCategory', id, req, res);
  }
}
