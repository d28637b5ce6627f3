import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { Injectable } from '@nestjs/common';
import type { RosterSourceEntity, RosterSyncEntity, RosterSyncStatus } from '@edu/persistence';
import { RosterSyncsRepository } from '../../roster-syncs.repository';
import { syncView } from '../../source-views';
import type { AcquiredPackage, PackageAcquirer } from '../acquired';
import { SourceError } from '../rest/guarded-http';
import { archiveName, SftpFolders } from './sftp-folders';

/** An `sftp` source's package: the files the watcher moved out of the user's folder for this sync. */
@Injectable()
export class SftpAcquirer implements PackageAcquirer {
  constructor(
    private readonly folders: SftpFolders,
    private readonly syncs: RosterSyncsRepository,
  ) {}

  async acquire(source: RosterSourceEntity, sync: RosterSyncEntity): Promise<AcquiredPackage> {
    const dir = this.folders.work(source.sftpUsername ?? '', sync.id);
    const names = await fs.readdir(dir).catch(() => undefined);
    if (!names) throw new SourceError('the SFTP package of this sync is gone (already archived)');
    return { dir, mode: 'full', rows: 0, warnings: [], origin: sync.origin ?? `sftp:${source.sftpUsername}` };
  }

  /** Moves the package (if still in the work folder) to the user's archive, with the sync's report. */
  async ended(source: RosterSourceEntity, sync: RosterSyncEntity, _status: RosterSyncStatus): Promise<void> {
    const username = source.sftpUsername ?? '';
    const archive = this.folders.archive(username);
    await fs.mkdir(archive, { recursive: true });
    const existing = (await fs.readdir(archive)).find((n) => n.endsWith(`-${sync.id}`));
    const target = path.join(archive, existing ?? archiveName(sync.id));
    const work = this.folders.work(username, sync.id);
    if (!existing && (await fs.stat(work).catch(() => undefined))) await moveFolder(work, target);
    await fs.mkdir(target, { recursive: true });
    const report = (await this.syncs.get(sync.tenantId, sync.id)) ?? sync;
    // Written aside and renamed: a school's SFTP client (or anyone listing the folder) never reads half a report.
    const partial = path.join(target, '.report.json.partial');
    await fs.writeFile(partial, `${JSON.stringify(syncView(report), null, 2)}\n`);
    await fs.rename(partial, path.join(target, 'report.json'));
  }
}

/** rename, or copy and remove across file systems. */
async function moveFolder(from: string, to: string): Promise<void> {
  try {
    await fs.rename(from, to);
  } catch {
    await fs.cp(from, to, { recursive: true });
    await fs.rm(from, { recursive: true, force: true });
  }
}
