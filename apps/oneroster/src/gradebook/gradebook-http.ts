import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Principal } from '@edu/domain';
import type { OneRosterApi } from '../common/oneroster-api';
import { sendJson } from '../common/roster-response';
import { RosterHttp } from '../roster/roster-http';
import type { TenantAccess } from '../tenancy/tenant-access.service';
import type { GradebookClass } from './gradebook-classes';
import type { BulkPost } from './gradebook-posts';
import { GradebookPostsService } from './gradebook-posts.service';
import { GradebookWritesService } from './gradebook-writes.service';

/**
 * The HTTP side of the gradebook writes: PUT 201 (v1.1 with the stored object; v1.2 without a
 * body, `Location` either way) or 200 with the stored object; DELETE 204; bulk POST 201 with
 * the sourcedId pairs.
 */
@Injectable()
export class GradebookHttp {
  constructor(
    private readonly writes: GradebookWritesService,
    private readonly posts: GradebookPostsService,
    private readonly http: RosterHttp,
  ) {}

  async put(
    api: OneRosterApi,
    access: TenantAccess,
    who: Principal,
    kind: GradebookClass,
    operation: string,
    id: string,
    req: Request,
    res: Response,
  ): Promise<void> {
    const info = this.http.info(api, req, operation);
    const out = await this.writes.put(api, kind, access, who.appId, id, req.body as unknown, info);
    if (out.body === '') {
      res.status(201).set(out.headers).end();
      return;
    }
    sendJson(res, out, out.created ? 201 : 200);
  }

  async delete(
    api: OneRosterApi,
    access: TenantAccess,
    who: Principal,
    kind: GradebookClass,
    operation: string,
    id: string,
    req: Request,
    res: Response,
  ): Promise<void> {
    this.http.info(api, req, operation);
    await this.writes.delete(api, kind, access, who.appId, id);
    res.status(204).end();
  }

  async post(
    api: OneRosterApi,
    access: TenantAccess,
    who: Principal,
    op: BulkPost,
    ids: Record<string, string>,
    req: Request,
    res: Response,
  ): Promise<void> {
    const info = this.http.info(api, req, op.name);
    sendJson(res, await this.posts.post(op, access, who.appId, ids, req.body as unknown, info), 201);
  }
}
