import { Injectable } from '@nestjs/common';
import { DataSource, In, type Repository } from 'typeorm';
import {
  RosterSyncEntity,
  type RosterSourceType,
  type RosterSyncMode,
  type RosterSyncStatus,
  type RosterSyncTrigger,
} from '@edu/persistence';

export interface NewSync {
  tenantId: string;
  sourceId: string;
  sourceType: RosterSourceType;
  trigger: RosterSyncTrigger;
  requestedMode: RosterSyncMode | null;
  origin: string | null;
}

export interface SyncListQuery {
  limit: number;
  /** Position after which the page starts (newest first): the last row's stored time and id. */
  after?: { at: string; id: string };
  sourceId?: string;
  status?: RosterSyncStatus;
}

/** What a finished (or held) sync records. */
export type SyncOutcome = Partial<
  Pick<
    RosterSyncEntity,
    | 'status'
    | 'mode'
    | 'origin'
    | 'finishedAt'
    | 'importId'
    | 'dataVersion'
    | 'rows'
    | 'diff'
    | 'counts'
    | 'errors'
    | 'warnings'
    | 'nextCursor'
  >
>;

const OPEN = ['queued', 'running'];

/** TypeORM answers an UPDATE ... RETURNING on PostgreSQL with the rows and the count of rows changed. */
type UpdateReturning<T> = [T[], number];

/**
 * Every statement on `roster_syncs`: the API's reads and decisions, the worker's claims and reports.
 * Each names the tenant (a worker's job carries it) except the sweeper's scan of every tenant.
 */
@Injectable()
export class RosterSyncsRepository {
  private readonly repo: Repository<RosterSyncEntity>;

  constructor(private readonly ds: DataSource) {
    this.repo = ds.getRepository(RosterSyncEntity);
  }

  /** A queued sync, or null when the source already has one queued or running (the unique index decides). */
  async createQueued(s: NewSync): Promise<RosterSyncEntity | null> {
    const rows: Array<{ id: string }> = await this.ds.query(
      `INSERT INTO roster_syncs (tenant_id, source_id, source_type, trigger, requested_mode, origin, status)
       VALUES ($1, $2, $3, $4, $5, $6, 'queued') ON CONFLICT DO NOTHING RETURNING id`,
      [s.tenantId, s.sourceId, s.sourceType, s.trigger, s.requestedMode, s.origin],
    );
    return rows[0] ? this.get(s.tenantId, rows[0].id) : null;
  }

  /** The source's queued or running sync. */
  openSync(tenantId: string, sourceId: string): Promise<RosterSyncEntity | null> {
    return this.repo.findOneBy({ tenantId, sourceId, status: In(OPEN) });
  }

  get(tenantId: string, id: string): Promise<RosterSyncEntity | null> {
    return this.repo.findOneBy({ tenantId, id });
  }

  /** Newest first, keyset-paged on (created_at, id); `next` is where the following page starts. */
  async list(
    tenantId: string,
    q: SyncListQuery,
  ): Promise<{ syncs: RosterSyncEntity[]; next?: { at: string; id: string } }> {
    const params: unknown[] = [tenantId];
    const where = ['tenant_id = $1'];
    if (q.sourceId) where.push(`source_id = $${params.push(q.sourceId)}`);
    if (q.status) where.push(`status = $${params.push(q.status)}`);
    if (q.after)
      where.push(`(created_at, id) < ($${params.push(q.after.at)}::timestamptz, $${params.push(q.after.id)})`);
    const keys: Array<{ id: string; at: string }> = await this.ds.query(
      `SELECT id, created_at::text AS at FROM roster_syncs WHERE ${where.join(' AND ')}
        ORDER BY created_at DESC, id DESC LIMIT ${q.limit + 1}`,
      params,
    );
    const page = keys.slice(0, q.limit);
    const byId = new Map((await this.repo.findBy({ tenantId, id: In(page.map((k) => k.id)) })).map((s) => [s.id, s]));
    const last = page[page.length - 1];
    return {
      syncs: page.map((k) => byId.get(k.id)).filter((s): s is RosterSyncEntity => s !== undefined),
      ...(keys.length > q.limit && last ? { next: { at: last.at, id: last.id } } : {}),
    };
  }

  /** Marks the sync running (again, when its worker died); false when it is no longer queued or running. */
  async claim(tenantId: string, id: string): Promise<boolean> {
    const [rows]: UpdateReturning<{ id: string }> = await this.ds.query(
      `UPDATE roster_syncs SET status = 'running', started_at = now() WHERE id = $1 AND tenant_id = $2 AND status IN ('queued', 'running') RETURNING id`,
      [id, tenantId],
    );
    return rows.length > 0;
  }

  async record(tenantId: string, id: string, outcome: SyncOutcome): Promise<void> {
    await this.repo.update({ tenantId, id }, outcome);
  }

  /** Approve (back to the queue, to be applied as diffed) or reject a held sync; null unless it was held. */
  async decide(tenantId: string, id: string, approve: boolean, by: string): Promise<RosterSyncEntity | null> {
    const [rows]: UpdateReturning<{ id: string }> = await this.ds.query(
      `UPDATE roster_syncs SET status = $3, decided_by = $4, decided_at = now(),
              finished_at = CASE WHEN $3 = 'rejected' THEN now() ELSE finished_at END
        WHERE tenant_id = $1 AND id = $2 AND status = 'held' RETURNING id`,
      [tenantId, id, approve ? 'queued' : 'rejected', by],
    );
    return rows[0] ? this.get(tenantId, id) : null;
  }

  /** Older held syncs of a source that a newer sync makes moot: rejected, saying which sync superseded them. */
  async supersedeHeld(tenantId: string, sourceId: string, newerId: string): Promise<string[]> {
    const [rows]: UpdateReturning<{ id: string }> = await this.ds.query(
      `UPDATE roster_syncs SET status = 'rejected', finished_at = now(), decided_by = 'superseded',
              warnings = warnings || jsonb_build_array(jsonb_build_object('message', $3::text))
        WHERE tenant_id = $4 AND source_id = $1 AND status = 'held' AND id <> $2
          AND created_at <= (SELECT n.created_at FROM roster_syncs n WHERE n.id = $2 AND n.tenant_id = $4)
        RETURNING id`,
      // The newer sync's time is read in SQL, in microseconds: a JavaScript Date keeps milliseconds
      // only, and a sync held within the same millisecond would look later than it.
      [sourceId, newerId, `superseded by the later sync ${newerId}`, tenantId],
    );
    return rows.map((r) => r.id);
  }

  async markNotified(tenantId: string, id: string): Promise<void> {
    await this.repo.update({ tenantId, id }, { notifiedAt: new Date() });
  }

  /** Queued or running syncs untouched for `ageMs` (the sweeper queues them again when Redis lost their job). */
  async stale(ageMs: number): Promise<Array<{ id: string; tenantId: string }>> {
    const rows: Array<{ id: string; tenant_id: string }> = await this.ds.query(
      `SELECT id, tenant_id FROM roster_syncs
        WHERE status IN ('queued', 'running')
          AND greatest(created_at, coalesce(started_at, created_at), coalesce(decided_at, created_at)) < now() - $1 * interval '1 millisecond'
        ORDER BY created_at LIMIT 1000`,
      [ageMs],
    );
    return rows.map((r) => ({ id: r.id, tenantId: r.tenant_id }));
  }
}
