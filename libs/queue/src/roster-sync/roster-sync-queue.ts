import { Queue, type JobsOptions } from 'bullmq';
import { redisOptionsFromUrl } from '../redis-connection';
import {
  ROSTER_SYNC_QUEUE,
  rosterSyncJobId,
  sourceIdOfScheduler,
  sourceSchedulerId,
  type NotifyJob,
  type RosterSyncJob,
  type SyncJob,
} from './roster-sync-jobs';
import { repeatOptionsOf, type SyncSchedule } from './schedule';

export interface RosterSyncQueueOptions {
  redisUrl: string;
  /** Key prefix; a `{hash tag}` keeps every key of the queue on one Redis Cluster slot. */
  prefix: string;
}

/** Finished jobs are kept a while for inspection; the sync row is the record. */
const KEEP_COMPLETED = { age: 3600, count: 10_000 };
const KEEP_FAILED = { age: 7 * 24 * 3600 };
/** A held sync's announcement: retried for about an hour (10 s doubling). */
const NOTIFY_ATTEMPTS = 9;

/**
 * Producer side of the roster sync queue: sync jobs (id = the sync's, so a sync is queued once),
 * the announcements of held syncs, and one BullMQ job scheduler per scheduled source. Used by the
 * OneRoster API (sync now, approve, schedules of created or changed sources) and the sync worker
 * (SFTP packages, the sweeper, reconciling schedules with the sources table).
 */
export class RosterSyncQueue {
  private readonly queue: Queue<RosterSyncJob>;

  constructor(o: RosterSyncQueueOptions) {
    this.queue = new Queue<RosterSyncJob>(ROSTER_SYNC_QUEUE, {
      connection: redisOptionsFromUrl(o.redisUrl),
      prefix: o.prefix,
    });
    this.queue.on('error', () => undefined); // surfaced by the calls that fail
  }

  /**
   * Queues a sync's job. A finished job of the same sync (kept a while for inspection) is removed
   * first: a sync runs again after its approval, or when the sweeper finds it was never applied.
   */
  async enqueueSync(job: Omit<SyncJob, 'kind'>): Promise<void> {
    const data: SyncJob = { kind: 'sync', ...job };
    const id = rosterSyncJobId(data);
    const state = await this.queue.getJobState(id);
    if (state === 'completed' || state === 'failed') await this.queue.remove(id);
    await this.queue.add('sync', data, this.options(id));
  }

  async enqueueNotify(job: Omit<NotifyJob, 'kind'>): Promise<void> {
    const data: NotifyJob = { kind: 'notify', ...job };
    await this.queue.add('notify', data, {
      ...this.options(rosterSyncJobId(data)),
      attempts: NOTIFY_ATTEMPTS,
      backoff: { type: 'exponential', delay: 10_000 },
    });
  }

  /** Sets (or, with null, removes) a source's schedule. */
  async schedule(sourceId: string, tenantId: string, schedule: SyncSchedule | null): Promise<void> {
    const id = sourceSchedulerId(sourceId);
    if (!schedule) {
      await this.queue.removeJobScheduler(id);
      return;
    }
    await this.queue.upsertJobScheduler(id, repeatOptionsOf(schedule), {
      name: 'scheduled',
      data: { kind: 'scheduled', sourceId, tenantId },
      opts: { removeOnComplete: KEEP_COMPLETED, removeOnFail: KEEP_FAILED },
    });
  }

  /** Source ids that have a job scheduler. */
  async scheduledSources(): Promise<string[]> {
    const ids: string[] = [];
    for (let start = 0; ; start += 500) {
      const page = await this.queue.getJobSchedulers(start, start + 499, true);
      for (const s of page) {
        const sourceId = s.key ? sourceIdOfScheduler(s.key) : undefined;
        if (sourceId) ids.push(sourceId);
      }
      if (page.length < 500) return ids;
    }
  }

  /**
   * The state of a sync's job (`unknown` when Redis has none): of its approved run's job when
   * there is one, else of its first run's.
   */
  async syncJobState(syncId: string): Promise<string> {
    const approved = await this.jobState({ kind: 'sync', syncId, tenantId: '', approved: true });
    return approved !== 'unknown' ? approved : this.jobState({ kind: 'sync', syncId, tenantId: '' });
  }

  jobState(job: SyncJob | NotifyJob): Promise<string> {
    return this.queue.getJobState(rosterSyncJobId(job));
  }

  close(): Promise<void> {
    return this.queue.close();
  }

  private options(jobId: string): JobsOptions {
    return { jobId, attempts: 1, removeOnComplete: KEEP_COMPLETED, removeOnFail: KEEP_FAILED };
  }
}
