import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ConditionalReads } from '../caching/conditional-reads';
import { OPERATION_KEY } from '../common/imsx-error.filter';
import { V1P1_API, type OneRosterApi } from '../common/oneroster-api';
import { sendJson } from '../common/roster-response';
import { OnerosterEnv, publicBaseUrl } from '../oneroster.env';
import type { TenantAccess } from '../tenancy/tenant-access.service';
import type { CollectionOperation, SingleOperation } from './roster-operations';
import { RosterService, type RequestInfo } from './roster.service';

/** Route prefix of the OneRoster v1.1 service (reference §0). */
export const ONEROSTER_PREFIX = V1P1_API.prefix.rostering;

type RosterRequest = Request & { id?: string | number } & Record<string, unknown>;

/** The HTTP side of the reads (every controller): request info in, headers and body out, conditional on the data versions (`ConditionalReads`). */
@Injectable()
export class RosterHttp {
  /** Configured, never read from the request: `Host` and `X-Forwarded-*` are the client's to forge. */
  private readonly publicBase: string;

  constructor(
    private readonly roster: RosterService,
    private readonly conditional: ConditionalReads,
    env: OnerosterEnv,
  ) {
    this.publicBase = publicBaseUrl(env);
  }

  async list(
    api: OneRosterApi,
    access: TenantAccess,
    op: CollectionOperation,
    ids: Record<string, string>,
    req: Request,
    res: Response,
  ): Promise<void> {
    const info = this.info(api, req, op.name);
    const read = { api, access, resource: op.resource, req, res };
    const render = (keyed: TenantAccess, observe: boolean) =>
      this.roster.list(keyed, op, ids, req.query as Record<string, unknown>, info, observe);
    await this.conditional.answer(read, render, (out) => sendJson(res, out));
  }

  async get(
    api: OneRosterApi,
    access: TenantAccess,
    op: SingleOperation,
    id: string,
    req: Request,
    res: Response,
  ): Promise<void> {
    const info = this.info(api, req, op.name);
    const read = { api, access, resource: op.resource, req, res };
    const render = (keyed: TenantAccess, observe: boolean) =>
      this.roster.get(keyed, op, id, req.query as Record<string, unknown>, info, observe);
    await this.conditional.answer(read, render, (out) => sendJson(res, out));
  }

  /** Names the operation for error payloads and returns where links and hrefs are built. */
  info(api: OneRosterApi, req: Request, operation: string): RequestInfo {
    const r = req as RosterRequest;
    r[OPERATION_KEY] = operation;
    const root = (prefix: string) => `${this.publicBase}/${prefix}`;
    const hrefRoots = {
      rostering: root(api.prefix.rostering),
      gradebook: root(api.prefix.gradebook),
      resources: root(api.prefix.resources),
    };
    return { api, hrefRoots, selfUrl: `${this.publicBase}${req.path}`, requestId: String(r.id ?? '') };
  }
}
