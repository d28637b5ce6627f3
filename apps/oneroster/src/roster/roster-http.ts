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
/** Gradebook reads: the read scope, or the write scope (a grade-sync client reads back what it writes). */
export const GRADEBOOK_READ: ScopeKey[] = ['gradebook.readonly', 'gradebook.createput'];
/** putCategory, putLineItem, putResult (reference §9). */
export const GRADEBOOK_PUT: ScopeKey[] = ['gradebook.createput'];
/** deleteCategory, deleteLineItem, deleteResult (reference §9). */
export const GRADEBOOK_DELETE: ScopeKey[] = ['gradebook.delete'];
/** The four resources reads. */
export const RESOURCE_READ: ScopeKey[] = ['resource.readonly'];

type RosterRequest = Request & { id?: string | number } & Record<string, unknown>;

/** Writes the JSON text as is (it was serialised by the database; no re-encoding, no ETag hashing). */
export function sendJson(res: Response, out: RosterResponse, status = 200): void {
  res.status(status);
  res.set(out.headers);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(out.body));
  res.end(out.body);
}

/** The HTTP side of the reads (every controller): request info in, headers and body out. */
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
    sendJson(res, await this.roster.list(access, op, ids, req.query as Record<string, unknown>, info));
  }

  async get(access: TenantAccess, op: SingleOperation, id: string, req: Request, res: Response): Promise<void> {
    const info = this.info(req, op.name);
    sendJson(res, await this.roster.get(access, op, id, req.query as Record<string, unknown>, info));
  }

  /** Names the operation for error payloads and returns where links and hrefs are built. */
  info(req: Request, operation: string): RequestInfo {
    const r = req as RosterRequest;
    r[OPERATION_KEY] = operation;
    return { hrefRoot: `${this.publicBase}/${ONEROSTER_PREFIX}`, selfUrl: `${this.publicBase}${req.path}`, requestId: String(r.id ?? '') };
  }
}
