/**
 * Jobs of the roster sync queue (design §11 and scale.md principle 8: SIS syncs are jobs). Each
 * carries ids only; the sync, its source and its report are rows in PostgreSQL. Names and values
 * are persistent: they are stored in queued jobs and name Redis keys.
 */
export const ROSTER_SYNC_QUEUE = 'roster-syncs';

/** Run one sync row (queued by "sync now", an SFTP package, an approval, or the sweeper). */
export interface SyncJob {
  kind: 'sync';
  syncId: string;
  tenantId: string;
  /**
   * The run an approval asks for. It has a job id of its own: the job that held the sync may
   * still be finishing when the approval comes, and a second job under its id would be dropped.
   */
  approved?: true;
}

/** A source's schedule fired: the worker records a sync for it and runs it. */
export interface ScheduledJob {
  kind: 'scheduled';
  sourceId: string;
  tenantId: string;
}

/** Announce a held sync at the tenant's endpoint (retried on failure). */
export interface NotifyJob {
  kind: 'notify';
  syncId: string;
  tenantId: string;
}

export type RosterSyncJob = SyncJob | ScheduledJob | NotifyJob;

/** Job ids: a sync's job is unique while it exists, so queueing it twice does nothing. */
export function rosterSyncJobId(job: SyncJob | NotifyJob): string {
  return `${job.kind}-${job.syncId}${job.kind === 'sync' && job.approved ? '-approved' : ''}`;
}

/** The job scheduler of a source (one per source: upserting replaces its schedule). */
export function sourceSchedulerId(sourceId: string): string {
  return `source-${sourceId}`;
}

/** The source id of a scheduler id, or undefined for anything else. */
export function sourceIdOfScheduler(schedulerId: string): string | undefined {
  return schedulerId.startsWith('source-') ? schedulerId.slice('source-'.length) : undefined;
}
