import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { RosterSyncQueue, type SyncSchedule } from '@edu/queue';
import type { RosterSourcesSettings } from './sources.env';
import { SOURCES_SETTINGS } from './sources-settings.token';

/** How long a request waits for Redis before leaving the job to the worker's sweeper. */
const QUEUE_WAIT_MS = 2_000;

/**
 * The roster sync queue as the API and the worker use it. Redis trouble never fails a request:
 * a sync row stays `queued` and the worker's sweeper queues it again, and the worker brings the
 * schedulers back to what the sources table says; so each call reports and returns false instead.
 */
@Injectable()
export class SyncQueueClient implements OnModuleDestroy {
  private readonly logger = new Logger('RosterSyncQueue');
  private readonly queue: RosterSyncQueue | undefined;

  constructor(@Inject(SOURCES_SETTINGS) env: RosterSourcesSettings) {
    this.queue = env.REDIS_URL ? new RosterSyncQueue({ redisUrl: env.REDIS_URL, prefix: env.QUEUE_PREFIX }) : undefined;
  }

  enqueueSync(syncId: string, tenantId: string): Promise<boolean> {
    return this.attempt('queue sync', (q) => q.enqueueSync({ syncId, tenantId }));
  }

  /** Queues the run of an approved sync (a job of its own, see SyncJob.approved). */
  enqueueApproved(syncId: string, tenantId: string): Promise<boolean> {
    return this.attempt('queue approved sync', (q) => q.enqueueSync({ syncId, tenantId, approved: true }));
  }

  enqueueNotify(syncId: string, tenantId: string): Promise<boolean> {
    return this.attempt('queue notification', (q) => q.enqueueNotify({ syncId, tenantId }));
  }

  schedule(sourceId: string, tenantId: string, schedule: SyncSchedule | null): Promise<boolean> {
    return this.attempt('schedule source', (q) => q.schedule(sourceId, tenantId, schedule));
  }

  /** The queue itself (the worker's reconciler and sweeper), when Redis is configured. */
  get raw(): RosterSyncQueue | undefined {
    return this.queue;
  }

  async onModuleDestroy(): Promise<void> {
    await this.queue?.close().catch(() => undefined);
  }

  private async attempt(what: string, call: (q: RosterSyncQueue) => Promise<unknown>): Promise<boolean> {
    if (!this.queue) {
      this.logger.warn(`cannot ${what}: REDIS_URL is not set (the sync worker picks it up from the database)`);
      return false;
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        call(this.queue),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`Redis did not answer in ${QUEUE_WAIT_MS} ms`)), QUEUE_WAIT_MS);
        }),
      ]);
      return true;
    } catch (err) {
      this.logger.warn({ err }, `could not ${what}; the sync worker catches up from the database`);
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}
