import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { RosterSourceEntity, SftpSettings } from '@edu/persistence';
import { RosterSourcesRepository } from '../../roster-sources.repository';
import { RosterSyncsRepository } from '../../roster-syncs.repository';
import { DEFAULT_STABLE_SECONDS } from '../../source-input';
import { SOURCES_SETTINGS } from '../../sources-settings.token';
import { SyncQueueClient } from '../../sync-queue.client';
import type { RosterSyncWorkerEnv } from '../worker.env';
import { SftpFolders } from './sftp-folders';

const MANIFEST = 'manifest.csv';

interface Seen {
  size: number;
  mtimeMs: number;
}

/**
 * Looks at every SFTP user's folder: CSV files with a `manifest.csv` among them, none changed for
 * the source's `stable_seconds` (size and time unchanged since the previous look, too), are a
 * complete package. It becomes a sync (one open sync per source: a package arriving while one runs
 * waits for the next look) and moves out of the folder into the sync's work folder, manifest first:
 * that rename is the claim, so two replicas never take one package.
 */
@Injectable()
export class SftpPackageWatcher implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('SftpPackages');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private readonly seen = new Map<string, Seen>();

  constructor(
    @Inject(SOURCES_SETTINGS) private readonly env: RosterSyncWorkerEnv,
    private readonly folders: SftpFolders,
    private readonly sources: RosterSourcesRepository,
    private readonly syncs: RosterSyncsRepository,
    private readonly queue: SyncQueueClient,
  ) {}

  onApplicationBootstrap(): void {
    if (this.env.ROSTER_SFTP_PORT !== 0 || this.env.ROSTER_SFTP_LISTEN_FD !== undefined) this.start();
  }

  /** Looks at the folders every ROSTER_SFTP_SCAN_INTERVAL_MS from now on (at boot when the endpoint is configured). */
  start(): void {
    this.timer ??= setInterval(() => void this.scan(), this.env.ROSTER_SFTP_SCAN_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One look at every folder (also called by tests). */
  scan(): Promise<void> {
    this.running ??= this.scanAll()
      .catch((err) => this.logger.error({ err }, 'SFTP package scan failed'))
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async scanAll(): Promise<void> {
    for (const source of await this.sources.sftpSources()) {
      const username = source.sftpUsername!;
      await fs.mkdir(this.folders.user(username), { recursive: true });
      const files = await this.stableFiles(source);
      if (files) await this.take(source, files);
    }
  }

  /** The folder's CSV files when they form a complete, settled package. */
  private async stableFiles(source: RosterSourceEntity): Promise<string[] | undefined> {
    const dir = this.folders.user(source.sftpUsername!);
    const names = (await fs.readdir(dir, { withFileTypes: true }))
      .filter((d) => d.isFile() && d.name.toLowerCase().endsWith('.csv') && !d.name.startsWith('.'))
      .map((d) => d.name);
    if (!names.includes(MANIFEST)) return undefined;
    const stableMs = ((source.settings as SftpSettings).stable_seconds ?? DEFAULT_STABLE_SECONDS) * 1000;
    let settled = true;
    for (const name of names) {
      const file = path.join(dir, name);
      const st = await fs.stat(file).catch(() => undefined);
      if (!st) return undefined;
      const before = this.seen.get(file);
      this.seen.set(file, { size: st.size, mtimeMs: st.mtimeMs });
      if (!before || before.size !== st.size || before.mtimeMs !== st.mtimeMs || Date.now() - st.mtimeMs < stableMs)
        settled = false;
    }
    return settled ? names : undefined;
  }

  private async take(source: RosterSourceEntity, names: string[]): Promise<void> {
    const username = source.sftpUsername!;
    const sync = await this.syncs.createQueued({
      tenantId: source.tenantId,
      sourceId: source.id,
      sourceType: 'sftp',
      trigger: 'sftp',
      requestedMode: null,
      origin: `sftp:${username} (${names.length} files)`,
    });
    if (!sync) return;
    const dir = this.folders.user(username);
    const work = this.folders.work(username, sync.id);
    await fs.mkdir(work, { recursive: true });
    try {
      await fs.rename(path.join(dir, MANIFEST), path.join(work, MANIFEST));
    } catch {
      await this.syncs.record(sync.tenantId, sync.id, {
        status: 'failed',
        finishedAt: new Date(),
        errors: [{ message: 'the package was taken by another worker' }],
      });
      return;
    }
    for (const name of names.filter((n) => n !== MANIFEST)) {
      await fs.rename(path.join(dir, name), path.join(work, name)).catch(() => undefined);
      this.seen.delete(path.join(dir, name));
    }
    this.seen.delete(path.join(dir, MANIFEST));
    this.logger.log(
      { syncId: sync.id, tenantId: source.tenantId, username, files: names.length },
      'SFTP package taken',
    );
    await this.queue.enqueueSync(sync.id, source.tenantId);
  }
}
