import { tmpdir } from 'node:os';
import * as path from 'node:path';

/**
 * Where SFTP packages live under ROSTER_SFTP_ROOT:
 * - `<root>/<user>/`: the user's jail; CSV files dropped here make a package;
 * - `<root>/<user>/archive/<time>-<sync id>/`: each package taken, with its `report.json`;
 * - `<root>/.work/<user>/<sync id>/`: a package being synced (outside every jail).
 */
export class SftpFolders {
  readonly root: string;

  constructor(root: string | undefined) {
    this.root = path.resolve(root ?? path.join(tmpdir(), 'edu-roster-sftp'));
  }

  user(username: string): string {
    return path.join(this.root, username);
  }

  archive(username: string): string {
    return path.join(this.user(username), 'archive');
  }

  work(username: string, syncId: string): string {
    return path.join(this.root, '.work', username, syncId);
  }
}

/** The archive folder name of a package: when it was taken, then its sync. */
export function archiveName(syncId: string, at = new Date()): string {
  return `${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}-${syncId}`;
}
