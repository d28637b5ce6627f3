import { Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { ScopeKey } from '@edu/domain';
import { OPERATION_KEY } from '../common/imsx-error.filter';
import { OnerosterEnv, publicBaseUrl } from '../config/oneroster.env';
import type { TenantAccess } from '../tenancy/tenant-access.service';
import type { CollectionOperation, SingleOperation } from './roster-operations';
import { RosterService, type RequestInfo, type RosterResponse } from './roster.service';

/** Route prefix of the OneRoster v1.1 service (reference §0). */
export const ONEROSTER_PREFIX = 'ims/oneroster/v1p1';

/** Every rostering read except demographics (spec 5; design §8). */
export const ROSTER_READ: ScopeKey[] = ['roster-core.readonly', 'roster.readonly'];
/** Demographics: only this scope (design §8: roster.readonly does not unlock them). */
export const DEMOGRAPHICS_READ: ScopeKey[] = ['roster-demographics.readonly'];

type RosterRequest = Request & { id?: string | number } & Record<string, unknown>;

/** Writes a 200 with the JSON text as is (it was serialised by the database; no re-encoding, no ETag hashing). */
function send(res: Response, out: RosterResponse): void {
  res.status(200);
  res.set(out.headers);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(out.body));
  res.end(out.body);
}

/** The HTTP side shared by the rostering controllers: request info in, headers and body out. */
@Injectable()
export class RosterHttp {
  /** Configured, never read from the request: `Host` and `X-Forwarded-*` are the client's to forge. */
  private readonly publicBase: string;

  constructor(
    private readonly roster: RosterService,
    env: OnerosterEnv,
  ) {
    this.publicBase = publicBaseUrl(env);
  }

  async list(access: TenantAccess, op: CollectionOperation, ids: Record<string, string>, req: Request, res: Response): Promise<void> {
    const info = this.info(req, op.name);
    send(res, await this.roster.list(access, op, ids, req.query as Record<string, unknown>, info));
  }

  async get(access: TenantAccess, op: SingleOperation, id: string, req: Request, res: Response): Promise<void> {
    const info = this.info(req, op.name);
    send(res, await this.roster.get(access, op, id, req.query as Record<string, unknown>, info));
  }

  private info(req: Request, operation: string): RequestInfo {
    const r = req as RosterRequest;
    r[OPERATION_KEY] = operation;
    return { hrefRoot: `${this.publicBase}/${ONEROSTER_PREFIX}`, selfUrl: `${this.publicBase}${req.path}`, requestId: String(r.id ?? '') };
  }
}
