import type { Stats } from 'node:fs';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/**
 * A user's folder as the root of everything they see. Client paths are read as paths under that
 * root: a `..` that would climb above it, a NUL, or a target that resolves (through a link)
 * outside it is refused, never clamped, so an escape attempt is seen as one.
 */
export class Jail {
  constructor(readonly root: string) {}

  /** The client's path normalised (`/` is the root), or undefined when it would leave the root. */
  static virtual(raw: string): string | undefined {
    if (raw.includes('\0')) return undefined;
    const out: string[] = [];
    for (const part of raw.replace(/\\/g, '/').split('/')) {
      if (part === '' || part === '.') continue;
      if (part === '..') {
        if (out.length === 0) return undefined;
        out.pop();
        continue;
      }
      out.push(part);
    }
    return `/${out.join('/')}`;
  }

  /** The real path of a client path, checked to stay inside the root (links included). */
  async real(raw: string): Promise<string | undefined> {
    const v = Jail.virtual(raw);
    if (v === undefined) return undefined;
    const target = path.join(this.root, v);
    // The deepest existing ancestor must resolve inside the root: no link leads out.
    let probe = target;
    for (;;) {
      const resolved = await fs.realpath(probe).catch(() => undefined);
      if (resolved !== undefined) return this.inside(resolved) ? target : undefined;
      const parent = path.dirname(probe);
      if (parent === probe) return undefined;
      probe = parent;
    }
  }

  private inside(p: string): boolean {
    const root = this.root.endsWith(path.sep) ? this.root : this.root + path.sep;
    return p === this.root || p.startsWith(root);
  }
}

/** SFTP attributes of a file. */
export function attrsOf(st: Stats): {
  mode: number;
  uid: number;
  gid: number;
  size: number;
  atime: number;
  mtime: number;
} {
  return {
    mode: st.mode,
    uid: 0,
    gid: 0,
    size: st.size,
    atime: Math.floor(st.atimeMs / 1000),
    mtime: Math.floor(st.mtimeMs / 1000),
  };
}

/** An `ls -l` line for a directory listing. */
export function longname(name: string, st: Stats): string {
  const type = st.isDirectory() ? 'd' : '-';
  const perms = st.isDirectory() ? 'rwxr-xr-x' : 'rw-r--r--';
  const date = st.mtime.toISOString().slice(0, 10);
  return `${type}${perms} 1 sftp sftp ${String(st.size).padStart(10)} ${date} ${name}`;
}
