/**
 * Pulls a tenant's roster from a SIS's OneRoster REST API into a OneRoster CSV package (a folder
 * with manifest.csv), for the same importer an uploaded package goes through. A full read writes
 * bulk files (what the source no longer lists is deleted by the import); a delta read asks for
 * `filter=dateLastModified>'<cursor>'` and writes delta files, and falls back to a full read when
 * the source cannot filter.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { CSV_BINDINGS, layoutOf, type CsvBinding } from '../../../imports/csv-bindings';
import { standardHeaders, type FileLayout, type RosterFileType } from '../../../imports/csv-layout';
import { CsvFileWriter } from './csv-file-writer';
import { bare, SourceError } from './guarded-http';
import type { OneRosterClient } from './oneroster-client';
import { readCollection, type PagingOptions } from './pager';
import { metadataOf, recordHead, rowCells } from './record-mapping';
import { profileRows, roleRows } from './user-records-v1p2';

/** The rostering collections read, in the binding's referential order. */
export const PULLED = [
  'orgs',
  'academicSessions',
  'courses',
  'classes',
  'users',
  'enrollments',
  'demographics',
] as const;
/** Collections a source may refuse (a scope the credentials lack): left out with a warning. */
const OPTIONAL = new Set<string>(['demographics']);

export interface PullIssue {
  message: string;
  url?: string;
  field?: string;
}

export interface PullOptions {
  version: '1.1' | '1.2';
  baseUrl: string;
  mode: 'full' | 'delta';
  /** Delta reads: records changed after this instant (ISO 8601). */
  since?: string;
  /** An empty folder the package is written to. */
  dir: string;
  paging: PagingOptions;
  /** v1.2 deltas: the active role/profile record ids stored for these users (ended when the source no longer lists them). */
  storedUserRecords?: (file: 'roles' | 'userProfiles', userIds: string[]) => Promise<string[]>;
}

export interface PullResult {
  mode: 'full' | 'delta';
  rows: number;
  warnings: PullIssue[];
}

class DeltaUnsupported extends Error {}

/** Pulls into `o.dir`; a source that cannot filter is read in full instead (with a warning). */
export async function pullPackage(client: OneRosterClient, o: PullOptions): Promise<PullResult> {
  try {
    return await pullOnce(client, o);
  } catch (err) {
    if (!(err instanceof DeltaUnsupported)) throw err;
    await emptyFolder(o.dir);
    const result = await pullOnce(client, { ...o, mode: 'full', since: undefined });
    result.warnings.unshift({ message: err.message, url: bare(`${o.baseUrl}/orgs`), field: 'filter' });
    return result;
  }
}

async function emptyFolder(dir: string): Promise<void> {
  for (const f of await fs.readdir(dir)) await fs.rm(path.join(dir, f), { recursive: true, force: true });
}

async function pullOnce(client: OneRosterClient, o: PullOptions): Promise<PullResult> {
  const pkg = new PackageBeingWritten(o);
  const result: PullResult = { mode: o.mode, rows: 0, warnings: [] };
  try {
    for (const collection of PULLED) {
      const read = await pullCollection(client, o, pkg, collection);
      if (read === 'absent') {
        result.warnings.push({
          message: `${collection} not read: the source refused it (the credentials may lack its scope)`,
          url: `${o.baseUrl}/${collection}`,
        });
        continue;
      }
      result.rows += read;
    }
    if (o.mode === 'delta' && o.version === '1.2' && o.storedUserRecords) await pkg.endDroppedUserRecords();
    await pkg.finish();
  } catch (err) {
    await pkg.abandon();
    throw err;
  }
  return result;
}

async function pullCollection(
  client: OneRosterClient,
  o: PullOptions,
  pkg: PackageBeingWritten,
  collection: (typeof PULLED)[number],
): Promise<number | 'absent'> {
  const layout = layoutOf(pkg.binding, collection);
  const seen = new Set<string>();
  const filter = o.mode === 'delta' ? `dateLastModified>'${o.since}'` : undefined;
  const target = { ...o.paging, url: `${o.baseUrl}/${collection}`, key: collection, filter };
  const read = await readCollection(client, target, async (records, url) => {
    let fresh = 0;
    for (const record of records) {
      const head = recordHead(record, url);
      if (seen.has(head.sourcedId)) continue;
      seen.add(head.sourcedId);
      fresh++;
      await pkg.record(layout, record as Record<string, unknown>, head, url);
    }
    if (records.length > 0 && fresh === 0)
      throw new SourceError('the source served a page of records already read (its paging repeats)', bare(url));
  });
  if (read.status === 'read') return seen.size;
  if (filter && collection === 'orgs' && read.httpStatus === 400)
    throw new DeltaUnsupported('the source cannot filter on dateLastModified (400): read in full instead');
  if (OPTIONAL.has(collection) && [401, 403, 404].includes(read.httpStatus)) return 'absent';
  throw new SourceError(`the source answered ${read.httpStatus} for ${collection}`, `${o.baseUrl}/${collection}`);
}

type Head = { sourcedId: string; status: string; dateLastModified: string };

/** The package's files as they are written, and (v1.2 deltas) which user records were written. */
class PackageBeingWritten {
  readonly binding: CsvBinding;
  private readonly writers = new Map<RosterFileType, CsvFileWriter>();
  private readonly users = new Set<string>();
  private readonly written = { roles: new Set<string>(), userProfiles: new Set<string>() };

  constructor(private readonly o: PullOptions) {
    this.binding = CSV_BINDINGS[o.version];
  }

  private writer(type: RosterFileType): CsvFileWriter {
    let w = this.writers.get(type);
    if (!w) {
      const layout = layoutOf(this.binding, type);
      w = new CsvFileWriter(path.join(this.o.dir, layout.fileName), standardHeaders(layout));
      this.writers.set(type, w);
    }
    return w;
  }

  async record(layout: FileLayout, record: Record<string, unknown>, head: Head, url: string): Promise<void> {
    const ctx = { url, sourcedId: head.sourcedId };
    const start = [head.sourcedId, head.status, head.dateLastModified];
    if (this.o.mode === 'delta' && head.status === 'tobedeleted') {
      // A delta tombstone needs only its id (its other fields may be gone at the source).
      await this.writer(layout.type).row([...start, ...layout.columns.map(() => '')]);
      return;
    }
    await this.writer(layout.type).row([...start, ...rowCells(layout, record, ctx)], metadataOf(record, ctx));
    if (layout.type === 'users' && this.o.version === '1.2') await this.userRecords(record, head, ctx);
  }

  private async userRecords(user: Record<string, unknown>, head: Head, ctx: { url: string; sourcedId: string }) {
    this.users.add(head.sourcedId);
    for (const p of profileRows(user, ctx)) {
      this.written.userProfiles.add(p.id);
      await this.writer('userProfiles').row([p.id, 'active', head.dateLastModified, ...p.cells]);
    }
    for (const r of roleRows(user, ctx)) {
      this.written.roles.add(r.id);
      await this.writer('roles').row([r.id, 'active', head.dateLastModified, ...r.cells]);
    }
  }

  /** v1.2 delta: a changed user's stored roles and profiles the source no longer lists are ended. */
  async endDroppedUserRecords(): Promise<void> {
    if (this.users.size === 0) return;
    const stamp = new Date().toISOString();
    for (const file of ['roles', 'userProfiles'] as const) {
      const stored = await this.o.storedUserRecords!(file, [...this.users]);
      const layout = layoutOf(this.binding, file);
      for (const id of stored.filter((x) => !this.written[file].has(x)))
        await this.writer(file).row([id, 'tobedeleted', stamp, ...layout.columns.map(() => '')]);
    }
  }

  async finish(): Promise<void> {
    for (const w of this.writers.values()) await w.finish();
    const mode = this.o.mode === 'delta' ? 'delta' : 'bulk';
    const lines = ['propertyName,value', 'manifest.version,1.0', `oneroster.version,${this.binding.version}`];
    for (const type of this.binding.files) lines.push(`file.${type},${this.writers.has(type) ? mode : 'absent'}`);
    lines.push(`source.systemName,OneRoster API ${new URL(this.o.baseUrl).host}`);
    await fs.writeFile(path.join(this.o.dir, 'manifest.csv'), `${lines.join('\n')}\n`);
  }

  async abandon(): Promise<void> {
    for (const w of this.writers.values()) await w.abandon().catch(() => undefined);
  }
}
