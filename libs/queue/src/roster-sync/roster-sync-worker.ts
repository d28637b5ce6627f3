import { DelayedError, Worker, type Job } from 'bullmq';
import { redisOptionsFromUrl } from '../redis-connection';
import { ROSTER_SYNC_QUEUE, type RosterSyncJob } from './roster-sync-jobs';

/** What became of a job: done, or put back to run again after a wait (the tenant is busy). */
export type RosterSyncSettlement = { kind: 'done' } | { kind: 'postpone'; ms: number };

export type RosterSyncHandler = (job: RosterSyncJob, attemptsMade: number) => Promise<RosterSyncSettlement>;

export interface RosterSyncWorkerOptions {
  redisUrl: string;
  prefix: string;
  /** Jobs this process runs at once (syncs of different tenants). */
  concurrency: number;
  /** A worker that dies holds its jobs for at most this long (the lock is renewed every half of it). */
  lockDurationMs: number;
  /** Name shown in Redis for this worker. */
  name?: string;
  onError?: (err: Error) => void;
}

/**
 * The consumer side of the roster sync queue, for the sync worker process. A handler that throws
 * fails the job (notifications are retried by their backoff; a sync records its own failure
 * first). A job whose worker died is taken up again by another (BullMQ's stalled-job check).
 */
export class RosterSyncWorker {
  private readonly worker: Worker<RosterSyncJob>;

  constructor(o: RosterSyncWorkerOptions, handler: RosterSyncHandler) {
    this.worker = new Worker<RosterSyncJob>(ROSTER_SYNC_QUEUE, (job, token) => this.process(job, token, handler), {
      connection: redisOptionsFromUrl(o.redisUrl),
      prefix: o.prefix,
      name: o.name,
      autorun: false,
      concurrency: o.concurrency,
      lockDuration: o.lockDurationMs,
      stalledInterval: o.lockDurationMs,
      maxStalledCount: 2,
    });
    this.worker.on('error', (err) => o.onError?.(err));
  }

  run(): Promise<void> {
    return this.worker.run();
  }

  /** Stops taking jobs and waits for the active ones. */
  close(): Promise<void> {
    return this.worker.close();
  }

  private async process(job: Job<RosterSyncJob>, token: string | undefined, handler: RosterSyncHandler): Promise<void> {
    const outcome = await handler(job.data, job.attemptsMade);
    if (outcome.kind === 'postpone') {
      await job.moveToDelayed(Date.now() + Math.round(outcome.ms), token);
      throw new DelayedError();
    }
  }
}
