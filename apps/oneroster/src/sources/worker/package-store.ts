import { createReadStream, createWriteStream, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable, Writable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import { SyncPackagesRepository, type StoredFile } from '../sync-packages.repository';

/** Parts of a stored file (gzipped), small enough for one statement each. */
const PART_BYTES = 8 * 1024 * 1024;

/** Gzips a file into parts. */
async function gzipParts(file: string): Promise<Buffer[]> {
  const parts: Buffer[] = [];
  let current: Buffer[] = [];
  let size = 0;
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      current.push(chunk);
      size += chunk.length;
      if (size >= PART_BYTES) {
        parts.push(Buffer.concat(current));
        current = [];
        size = 0;
      }
      done();
    },
  });
  await pipeline(createReadStream(file), createGzip(), sink);
  if (current.length > 0 || parts.length === 0) parts.push(Buffer.concat(current));
  return parts;
}

/** Keeps a held sync's package in PostgreSQL until it is decided, and writes it out again for the import. */
export class PackageStore {
  constructor(private readonly repo: SyncPackagesRepository) {}

  async keep(tenantId: string, syncId: string, dir: string): Promise<void> {
    const files: StoredFile[] = [];
    for (const name of (await fs.readdir(dir)).filter((n) => n.endsWith('.csv')).sort())
      files.push({ name, parts: await gzipParts(path.join(dir, name)) });
    await this.repo.save(tenantId, syncId, files);
  }

  /** Writes the stored files into `dir`; false when nothing is stored. */
  async restore(tenantId: string, syncId: string, dir: string): Promise<boolean> {
    const files = await this.repo.load(tenantId, syncId);
    for (const f of files)
      await pipeline(Readable.from(f.parts), createGunzip(), createWriteStream(path.join(dir, path.basename(f.name))));
    return files.length > 0;
  }

  drop(tenantId: string, syncId: string): Promise<void> {
    return this.repo.delete(tenantId, syncId);
  }
}
