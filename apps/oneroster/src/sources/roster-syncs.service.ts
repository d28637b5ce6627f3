import { Injectable } from '@nestjs/common';
import { ApiError, ApiErrorCode, isUuid, type Principal } from '@edu/domain';
import type { RosterSyncEntity, RosterSyncStatus } from '@edu/persistence';
import { badField } from './input-checks';
import { RosterSyncsRepository, type SyncListQuery } from './roster-syncs.repository';
import { syncView } from './source-views';
import { SourcesAccess } from './sources-access';
import { SyncPackagesRepository } from './sync-packages.repository';
import { SyncQueueClient } from './sync-queue.client';

type View = Record<string, unknown>;

const STATUSES: readonly RosterSyncStatus[] = ['queued', 'running', 'succeeded', 'failed', 'held', 'rejected'];
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 200;

function encodeCursor(c: { at: string; id: string }): string {
  return Buffer.from(`${c.at}|${c.id}`).toString('base64url');
}

function decodeCursor(raw: string): { at: string; id: string } {
  const [at, id, extra] = Buffer.from(raw, 'base64url').toString('utf8').split('|');
  if (extra !== undefined || !isUuid(id) || Number.isNaN(Date.parse(at ?? '')))
    throw badField('cursor', 'not a cursor this API issued');
  return { at: at!, id: id! };
}

/** The query of `GET .../roster-syncs`: `limit`, `cursor`, `source_id`, `status`. */
function listQuery(q: Record<string, unknown>): SyncListQuery {
  const one = (name: string): string | undefined => {
    const v = q[name];
    if (v === undefined) return undefined;
    if (typeof v !== 'string') throw badField(name, 'must be given once');
    return v;
  };
  const limitText = one('limit');
  const limit = limitText === undefined ? DEFAULT_LIMIT : Number(limitText);
  if (!/^\d+$/.test(limitText ?? '1') || limit < 1 || limit > MAX_LIMIT)
    throw badField('limit', `must be an integer from 1 to ${MAX_LIMIT}`);
  const cursor = one('cursor');
  const sourceId = one('source_id');
  if (sourceId !== undefined && !isUuid(sourceId)) throw badField('source_id', 'must be a source id');
  const status = one('status');
  if (status !== undefined && !(STATUSES as readonly string[]).includes(status))
    throw badField('status', `must be one of ${STATUSES.join(', ')}`);
  return {
    limit,
    ...(cursor !== undefined ? { after: decodeCursor(cursor) } : {}),
    ...(sourceId ? { sourceId: sourceId.toLowerCase() } : {}),
    ...(status ? { status: status as RosterSyncStatus } : {}),
  };
}

/** Sync reports of a tenant, and the decision on a held sync. */
@Injectable()
export class RosterSyncsService {
  constructor(
    private readonly syncs: RosterSyncsRepository,
    private readonly access: SourcesAccess,
    private readonly queue: SyncQueueClient,
    private readonly packages: SyncPackagesRepository,
  ) {}

  async list(
    who: Principal,
    rawTenantId: string,
    query: Record<string, unknown>,
  ): Promise<{ syncs: View[]; next_cursor?: string }> {
    const tenantId = await this.access.tenant(who, rawTenantId, 'read');
    const page = await this.syncs.list(tenantId, listQuery(query));
    return { syncs: page.syncs.map(syncView), ...(page.next ? { next_cursor: encodeCursor(page.next) } : {}) };
  }

  async get(who: Principal, rawTenantId: string, id: string): Promise<View> {
    const tenantId = await this.access.tenant(who, rawTenantId, 'read');
    return syncView(await this.find(tenantId, id));
  }

  /** A held sync goes back to the queue and is applied as it was diffed, without the guard (202). */
  async approve(who: Principal, rawTenantId: string, id: string): Promise<View> {
    const tenantId = await this.access.tenant(who, rawTenantId, 'operate');
    const sync = await this.decide(tenantId, id, true, SourcesAccess.actor(who));
    await this.queue.enqueueApproved(sync.id, tenantId);
    return syncView(sync);
  }

  /** A held sync is dropped: nothing of it is applied, and its stored files go. */
  async reject(who: Principal, rawTenantId: string, id: string): Promise<View> {
    const tenantId = await this.access.tenant(who, rawTenantId, 'operate');
    const sync = await this.decide(tenantId, id, false, SourcesAccess.actor(who));
    await this.packages.delete(tenantId, sync.id);
    return syncView(sync);
  }

  private async decide(tenantId: string, id: string, approve: boolean, by: string): Promise<RosterSyncEntity> {
    const sync = await this.find(tenantId, id);
    if (sync.status !== 'held')
      throw new ApiError(
        ApiErrorCode.Conflict,
        `Only a held sync can be approved or rejected; this one is ${sync.status}`,
      );
    let decided: RosterSyncEntity | null;
    try {
      decided = await this.syncs.decide(tenantId, sync.id, approve, by);
    } catch (err) {
      // The unique index on open syncs: the source has another sync queued or running.
      if (
        (err as { code?: string; driverError?: { code?: string } }).code === '23505' ||
        (err as { driverError?: { code?: string } }).driverError?.code === '23505'
      )
        throw new ApiError(
          ApiErrorCode.Conflict,
          'Another sync of this source is queued or running: approve once it ends',
        );
      throw err;
    }
    if (!decided) throw new ApiError(ApiErrorCode.Conflict, 'The sync was decided meanwhile');
    return decided;
  }

  private async find(tenantId: string, id: string): Promise<RosterSyncEntity> {
    const sync = isUuid(id) ? await this.syncs.get(tenantId, id.toLowerCase()) : null;
    if (!sync) throw ApiError.notFound('Roster sync');
    return sync;
  }
}
