import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { RosterSyncWorker, type RosterSyncJob, type RosterSyncSettlement } from '@edu/queue';
import { SOURCES_SETTINGS } from '../sources-settings.token';
import { HeldNotifier } from './held-notifier';
import { SyncRunner } from './sync-runner';
import type { RosterSyncWorkerEnv } from './worker.env';

/** The consumer of the roster sync queue: each job kind to its handler. */
@Injectable()
export class SyncJobs implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('RosterSyncJobs');
  private readonly worker: RosterSyncWorker;

  constructor(
    @Inject(SOURCES_SETTINGS) env: RosterSyncWorkerEnv,
    private readonly runner: SyncRunner,
    private readonly notifier: HeldNotifier,
  ) {
    this.worker = new RosterSyncWorker(
      {
        redisUrl: env.REDIS_URL,
        prefix: env.QUEUE_PREFIX,
        concurrency: env.ROSTER_SYNC_CONCURRENCY,
        lockDurationMs: env.ROSTER_SYNC_LOCK_MS,
        onError: (err) => this.logger.error({ err }, 'Roster sync worker error'),
      },
      (job) => this.handle(job),
    );
  }

  onApplicationBootstrap(): void {
    void this.worker.run().catch((err) => this.logger.error({ err }, 'Roster sync worker stopped'));
  }

  /** Stops taking jobs; the running syncs finish (their import commits or rolls back) first. */
  async onModuleDestroy(): Promise<void> {
    await this.worker.close();
  }

  private async handle(job: RosterSyncJob): Promise<RosterSyncSettlement> {
    switch (job.kind) {
      case 'sync':
        return this.runner.run(job.tenantId, job.syncId);
      case 'scheduled':
        return this.runner.scheduled(job.tenantId, job.sourceId);
      case 'notify':
        await this.notifier.notify(job.tenantId, job.syncId);
        return { kind: 'done' };
    }
  }
}
