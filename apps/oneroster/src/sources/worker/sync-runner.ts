import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { RosterSourceEntity, RosterSyncEntity, RosterSyncStatus } from '@edu/persistence';
import type { RosterSyncSettlement } from '@edu/queue';
import { importRosterPackage } from '../../imports/roster-importer';
import { openRosterPackage } from '../../imports/roster-package';
import { RosterSourcesRepository } from '../roster-sources.repository';
import { RosterSyncsRepository, type SyncOutcome } from '../roster-syncs.repository';
import { SOURCES_SETTINGS } from '../sources-settings.token';
import { SyncQueueClient } from '../sync-queue.client';
import { SyncSettingsRepository } from '../sync-settings.repository';
import type { AcquiredPackage, PackageAcquirer } from './acquired';
import { PackageStore } from './package-store';
import { RestAcquirer } from './rest-acquirer';
import { SourceError } from './rest/guarded-http';
import { SftpAcquirer } from './sftp/sftp-acquirer';
import { stagedDiff } from './staged-diff';
import { SyncMetrics } from './sync-metrics';
import { countsByType, importErrors, importIssue, sourceIssue } from './sync-report';
import { TenantLock } from './tenant-lock';
import type { RosterSyncWorkerEnv } from './worker.env';

/**
 * Runs one sync: takes the tenant's import lock (busy: the job waits and comes back), gets the
 * package (pulled, dropped by SFTP, or the stored files of an approved sync), computes the staged
 * diff, holds the sync when it would delete more than the tenant's threshold of any type, and
 * otherwise imports it with the importer every CSV package goes through, on the same connection.
 * Every outcome is recorded on the sync row; the current data stays untouched unless the import
 * commits.
 */
@Injectable()
export class SyncRunner {
  private readonly logger = new Logger('RosterSync');

  constructor(
    @Inject(SOURCES_SETTINGS) private readonly env: RosterSyncWorkerEnv,
    private readonly sources: RosterSourcesRepository,
    private readonly syncs: RosterSyncsRepository,
    private readonly settings: SyncSettingsRepository,
    private readonly store: PackageStore,
    private readonly queue: SyncQueueClient,
    private readonly metrics: SyncMetrics,
    private readonly rest: RestAcquirer,
    private readonly sftp: SftpAcquirer,
  ) {}

  /** A source's schedule fired: record a sync and run it (skipped while one is open). */
  async scheduled(tenantId: string, sourceId: string): Promise<RosterSyncSettlement> {
    const source = await this.sources.get(tenantId, sourceId);
    if (!source?.enabled || source.type !== 'oneroster-rest') return { kind: 'done' };
    const sync = await this.syncs.createQueued({
      tenantId: source.tenantId,
      sourceId,
      sourceType: source.type,
      trigger: 'schedule',
      requestedMode: null,
      origin: null,
    });
    if (!sync) return { kind: 'done' };
    const outcome = await this.run(sync.tenantId, sync.id);
    // A busy tenant: the sync stays queued and runs as its own job.
    if (outcome.kind === 'postpone') await this.queue.enqueueSync(sync.id, sync.tenantId);
    return { kind: 'done' };
  }

  async run(tenantId: string, syncId: string): Promise<RosterSyncSettlement> {
    const sync = await this.syncs.get(tenantId, syncId);
    if (!sync || !['queued', 'running'].includes(sync.status)) return { kind: 'done' };
    const lock = await TenantLock.tryTake(this.env.DATABASE_URL, sync.tenantId);
    if (!lock) return { kind: 'postpone', ms: this.env.ROSTER_SYNC_BUSY_RETRY_MS };
    try {
      if (!(await this.syncs.claim(sync.tenantId, sync.id))) return { kind: 'done' };
      await this.runLocked(sync, lock);
    } finally {
      await lock.release();
    }
    return { kind: 'done' };
  }

  private async runLocked(sync: RosterSyncEntity, lock: TenantLock): Promise<void> {
    const started = Date.now();
    const source = sync.sourceId ? await this.sources.get(sync.tenantId, sync.sourceId) : null;
    const work = await fs.mkdtemp(path.join(this.env.ROSTER_SYNC_WORK_DIR ?? tmpdir(), 'roster-sync-'));
    let status: RosterSyncStatus = 'failed';
    try {
      if (!source) {
        await this.finish(sync, { status: 'failed', errors: [{ message: 'the source was deleted' }] });
        return;
      }
      status = await this.apply(sync, source, lock, work);
    } catch (err) {
      status = 'failed';
      await this.fail(sync, err);
    } finally {
      await fs.rm(work, { recursive: true, force: true }).catch(() => undefined);
      this.observe(sync, status, started);
      if (source)
        await this.acquirer(source)
          .ended?.(source, (await this.syncs.get(sync.tenantId, sync.id)) ?? sync, status)
          .catch(() => undefined);
    }
  }

  /** Package, diff, hold or import. Returns the status recorded. */
  private async apply(
    sync: RosterSyncEntity,
    source: RosterSourceEntity,
    lock: TenantLock,
    work: string,
  ): Promise<RosterSyncStatus> {
    const approved = sync.decidedBy !== null;
    const pkg = approved ? await this.restored(sync, work) : await this.acquirer(source).acquire(source, sync, work);
    await this.syncs.record(sync.tenantId, sync.id, {
      mode: pkg.mode,
      rows: pkg.rows,
      origin: pkg.origin,
      warnings: pkg.warnings,
      nextCursor: pkg.nextCursor ?? sync.nextCursor,
    });
    const { deletionThresholdPercent } = await this.settings.get(sync.tenantId);
    const diff = await stagedDiff(lock.client, sync.tenantId, pkg.dir, deletionThresholdPercent);
    if (!approved && diff.over_threshold.length > 0) {
      await this.store.keep(sync.tenantId, sync.id, pkg.dir);
      await this.finish(sync, { status: 'held', diff });
      await this.supersede(sync);
      this.metrics.held.inc({ tenant: sync.tenantId });
      await this.queue.enqueueNotify(sync.id, sync.tenantId);
      return 'held';
    }
    const report = await importRosterPackage(lock.client, () => openRosterPackage(pkg.dir), {
      tenantId: sync.tenantId,
      source: `roster sync ${sync.id} (${source.type})`,
    });
    const warnings = [...pkg.warnings, ...report.warnings.map(importIssue)];
    if (report.status !== 'succeeded') {
      await this.finish(sync, { status: 'failed', diff, importId: report.id, errors: importErrors(report), warnings });
      return 'failed';
    }
    await this.finish(sync, {
      status: 'succeeded',
      diff,
      importId: report.id,
      dataVersion: report.dataVersion,
      counts: countsByType(report.counts),
      warnings,
    });
    await this.sources.advance(sync.tenantId, source.id, pkg.nextCursor ?? sync.nextCursor, pkg.fullReadAt ?? null);
    await this.store.drop(sync.tenantId, sync.id);
    await this.supersede(sync);
    this.metrics.lastSuccess.set({ tenant: sync.tenantId }, Date.now() / 1000);
    return 'succeeded';
  }

  private async restored(sync: RosterSyncEntity, dir: string): Promise<AcquiredPackage> {
    if (!(await this.store.restore(sync.tenantId, sync.id, dir)))
      throw new SourceError('the held package is no longer stored');
    return {
      dir,
      mode: sync.mode ?? 'full',
      rows: sync.rows,
      warnings: sync.warnings,
      origin: sync.origin ?? '',
      nextCursor: sync.nextCursor ?? undefined,
      ...(sync.mode === 'full' ? { fullReadAt: sync.createdAt } : {}),
    };
  }

  private acquirer(source: RosterSourceEntity): PackageAcquirer {
    return source.type === 'sftp' ? this.sftp : this.rest;
  }

  private async supersede(sync: RosterSyncEntity): Promise<void> {
    if (!sync.sourceId) return;
    for (const id of await this.syncs.supersedeHeld(sync.tenantId, sync.sourceId, sync.id))
      await this.store.drop(sync.tenantId, id);
  }

  private finish(sync: RosterSyncEntity, outcome: SyncOutcome): Promise<void> {
    return this.syncs.record(sync.tenantId, sync.id, { ...outcome, finishedAt: new Date() });
  }

  private async fail(sync: RosterSyncEntity, err: unknown): Promise<void> {
    if (err instanceof SourceError) {
      await this.finish(sync, { status: 'failed', errors: [sourceIssue(err)] });
      return;
    }
    const errorId = randomUUID();
    this.logger.error({ err, errorId, syncId: sync.id, tenantId: sync.tenantId }, 'Roster sync failed unexpectedly');
    await this.finish(sync, {
      status: 'failed',
      errors: [{ message: `the sync failed unexpectedly (error id ${errorId}); nothing was written` }],
    }).catch(() => undefined);
  }

  private observe(sync: RosterSyncEntity, status: RosterSyncStatus, started: number): void {
    const labels = { tenant: sync.tenantId, source_type: sync.sourceType, status };
    this.metrics.syncs.inc(labels);
    this.metrics.duration.observe(labels, (Date.now() - started) / 1000);
    this.logger.log(
      { syncId: sync.id, tenantId: sync.tenantId, status, ms: Date.now() - started },
      'Roster sync ended',
    );
  }
}
