import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ApiError, ApiErrorCode, type Principal } from '@edu/domain';
import type { OneRosterApi } from '../common/oneroster-api';
import { RosterHttp, sendJson } from '../roster/roster-http';
import type { TenantAccess } from '../tenancy/tenant-access.service';
import type { GradebookClass } from './gradebook-input';
import { GradebookWritesService } from './gradebook-writes.service';

/** The HTTP side of the gradebook writes: 201/200 with the stored object, 204 after a delete. */
@Injectable()
export class GradebookHttp {
  constructor(
    private readonly writes: GradebookWritesService,
    private readonly http: RosterHttp,
  ) {}

  async put(api: OneRosterApi, access: TenantAccess, who: Principal, kind: GradebookClass, operation: string, id: string, req: Request, res: Response): Promise<void> {
    const info = this.http.info(api, req, operation);
    if (api.version !== 'v1p1') throw new ApiError(ApiErrorCode.NotFound, 'Not yet served');
    const out = await this.writes.put(kind, access, who.appId, id, req.body as unknown, info);
    sendJson(res, out, out.created ? 201 : 200);
  }

  async delete(api: OneRosterApi, access: TenantAccess, who: Principal, kind: GradebookClass, operation: string, id: string, req: Request, res: Response): Promise<void> {
    this.http.info(api, req, operation);
    await this.writes.delete(kind, access, who.appId, id);
    res.status(204).end();
  }
}
