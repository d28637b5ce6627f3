import { Controller, Delete, Get, Param, Put, Req, Res, UseGuards } from '@nestjs/common';
import type { Request, Response } from 'express';
import { CurrentPrincipal, RequireScopes } from '@edu/auth';
import type { Principal } from '@edu/domain';
import { namedFor, type ApiScopes, type OneRosterApi } from '../../common/oneroster-api';
import type { CollectionOperation, SingleOperation } from '../../roster/roster-operations';
import { RosterHttp } from '../../roster/roster-http';
import { RosterAccessGuard, RosterTenant } from '../../tenancy/roster-access.guard';
import type { TenantAccess } from '../../tenancy/tenant-access.service';
import { collectionOf, type GradebookClass } from '../gradebook-classes';
import { GradebookHttp } from '../gradebook-http';
import {
  GRADEBOOK_COLLECTIONS,
  GRADEBOOK_SINGLES,
  GRADEBOOK_V1P2_COLLECTIONS,
  GRADEBOOK_V1P2_SINGLES,
} from '../gradebook-operations';

/** Which scopes open the four operations on one class's objects. */
interface ObjectScopes {
  readonly read: keyof ApiScopes;
  readonly put: keyof ApiScopes;
  readonly delete: keyof ApiScopes;
}

const GRADEBOOK_SCOPES: ObjectScopes = { read: 'gradebookBase', put: 'gradebookPut', delete: 'gradebookDelete' };
const ASSESSMENT_SCOPES: ObjectScopes = { read: 'assessmentRead', put: 'assessmentPut', delete: 'assessmentDelete' };

const COLLECTIONS: Readonly<Record<string, CollectionOperation>> = {
  ...GRADEBOOK_COLLECTIONS,
  ...GRADEBOOK_V1P2_COLLECTIONS,
};
const SINGLES: Readonly<Record<string, SingleOperation>> = { ...GRADEBOOK_SINGLES, ...GRADEBOOK_V1P2_SINGLES };

const upper = (s: string) => `${s.charAt(0).toUpperCase()}${s.slice(1)}`;

/**
 * GET all, GET one, PUT and DELETE on one gradebook class (reference §6.3; v1.2 §9.2): the same
 * four operations for categories, line items and results (both versions) and score scales,
 * assessment line items and results (v1.2). The handlers are named after the standard's
 * operations (`getAllLineItems`, `putLineItem`, ...), which the OpenAPI documents and the
 * route inventory read.
 */
function gradebookObjectsController(api: OneRosterApi, kind: GradebookClass, scopes: ObjectScopes) {
  const plural = collectionOf(kind);
  const names = {
    all: `getAll${upper(plural)}`,
    one: `get${upper(kind)}`,
    put: `put${upper(kind)}`,
    delete: `delete${upper(kind)}`,
  } as const;
  const list = COLLECTIONS[names.all];
  const single = SINGLES[names.one];
  if (!list || !single) throw new TypeError(`no read operations for ${kind}`);

  @Controller(api.prefix.gradebook)
  @UseGuards(RosterAccessGuard)
  class GradebookObjectsController {
    constructor(
      private readonly http: RosterHttp,
      private readonly writes: GradebookHttp,
    ) {}

    @Get(plural)
    @RequireScopes(...api.scopes[scopes.read])
    [names.all](@RosterTenant() t: TenantAccess, @Req() req: Request, @Res() res: Response) {
      return this.http.list(api, t, list as CollectionOperation, {}, req, res);
    }

    @Get(`${plural}/:id`)
    @RequireScopes(...api.scopes[scopes.read])
    [names.one](@RosterTenant() t: TenantAccess, @Param('id') id: string, @Req() req: Request, @Res() res: Response) {
      return this.http.get(api, t, single as SingleOperation, id, req, res);
    }

    @Put(`${plural}/:id`)
    @RequireScopes(...api.scopes[scopes.put])
    [names.put](
      @RosterTenant() t: TenantAccess,
      @CurrentPrincipal() who: Principal,
      @Param('id') id: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.writes.put(api, t, who, kind, names.put, id, req, res);
    }

    @Delete(`${plural}/:id`)
    @RequireScopes(...api.scopes[scopes.delete])
    [names.delete](
      @RosterTenant() t: TenantAccess,
      @CurrentPrincipal() who: Principal,
      @Param('id') id: string,
      @Req() req: Request,
      @Res() res: Response,
    ) {
      return this.writes.delete(api, t, who, kind, names.delete, id, req, res);
    }
  }
  Object.defineProperty(GradebookObjectsController, 'name', { value: `${upper(plural)}Controller` });
  return namedFor(api, GradebookObjectsController);
}

/** Categories, line items and results: both versions. */
export const SHARED_OBJECT_CONTROLLERS = (['category', 'lineItem', 'result'] as const).map(
  (kind) => (api: OneRosterApi) => gradebookObjectsController(api, kind, GRADEBOOK_SCOPES),
);

/** Score scales (gradebook scopes), assessment line items and results (assessment scopes): v1.2 only. */
export const V1P2_OBJECT_CONTROLLERS = [
  (api: OneRosterApi) => gradebookObjectsController(api, 'scoreScale', GRADEBOOK_SCOPES),
  (api: OneRosterApi) => gradebookObjectsController(api, 'assessmentLineItem', ASSESSMENT_SCOPES),
  (api: OneRosterApi) => gradebookObjectsController(api, 'assessmentResult', ASSESSMENT_SCOPES),
];
