import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy, Inject } from '@nestjs/common';
import { RosterSourcesRepository } from '../roster-sources.repository';
import { RosterSyncsRepository } from '../roster-syncs.repository';
import { SOURCES_SETTINGS } from '../sources-settings.token';
import { SyncQueueClient } from '../sync-queue.client';
import type { RosterSyncWorkerEnv } from './worker.env';

/**
 * What keeps Redis in line with PostgreSQL, which is the record: syncs still queued or running
 * long after their last change whose job Redis no longer has are queued again (a lost Redis, an
 * API that could not reach it), and the queue's schedulers are made equal to the enabled
 * scheduled sources (added, changed or removed while Redis was away).
 */
@Injectable()
export class SyncUpkeep implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('RosterSyncUpkeep');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    @Inject(SOURCES_SETTINGS) private readonly env: RosterSyncWorkerEnv,
    private readonly sources: RosterSourcesRepository,
    private readonly syncs: RosterSyncsRepository,
    private readonly queue: SyncQueueClient,
  ) {}

  onApplicationBootstrap(): void {
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.env.ROSTER_SYNC_SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  tick(): Promise<void> {
    this.running ??= this.once()
      .catch((err) => this.logger.warn({ err }, 'Roster sync upkeep failed; trying again later'))
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async once(): Promise<void> {
    const q = this.queue.raw;
    if (!q) return;
    for (const s of await this.syncs.stale(this.env.ROSTER_SYNC_SWEEP_AGE_MS)) {
      if (['waiting', 'active', 'delayed', 'prioritized', 'waiting-children'].includes(await q.syncJobState(s.id)))
        continue;
      await q.enqueueSync({ syncId: s.id, tenantId: s.tenantId });
      this.logger.warn({ syncId: s.id }, 'Sync queued again: its job was not in Redis');
    }
    const wanted = await this.sources.scheduled();
    const have = new Set(await q.scheduledSources());
    for (const s of wanted) await q.schedule(s.id, s.tenantId, s.schedule);
    const keep = new Set(wanted.map((s) => s.id));
    for (const id of have) if (!keep.has(id)) await q.schedule(id, '', null);
  }
}
