/**
 * One OneRoster CSV import for one tenant, all-or-nothing in one transaction:
 *
 * 1. lock the tenant's imports (advisory lock), read and check the manifest (its
 *    `oneroster.version` chooses the binding: `csv-bindings.ts`) and the file list;
 * 2. per file, in referential order: validate every row and stream valid rows into a staging
 *    table (or, for a first bulk load in sourcedId order, straight into the roster table);
 * 3. any error: roll back, record the failed import with every error (file, line, column);
 * 4. otherwise merge (`import-merge.ts`): each file into its table, v1.2 record files folded
 *    into their owners; an error found there rolls back as in 3; else publish a new data
 *    version and record the import, then commit.
 *
 * Readers see the previous data and version until the commit, then the new ones together.
 */
import type { ClientBase } from 'pg';
import {
  inTransaction,
  TransactionAbandonedError,
  type RosterImportFileCounts,
  type RosterImportMode,
} from '@edu/persistence/pg';
import { layoutOf } from './csv-bindings';
import { IssueLog, DEFAULT_MAX_ERRORS, type ImportIssue } from './import-issues';
import { mergeFiles, type LoadedFile } from './import-merge';
import { MANIFEST_FILE, manifestMode, readManifest, type Manifest } from './manifest';
import { ReferenceIndex } from './reference-index';
import { loadRosterFile, lookedUpTypes } from './roster-file-loader';
import { BUMP_DATA_VERSION_SQL, tableHasRowsSql } from './roster-merge-sql';
import { PackageError, type RosterPackage } from './roster-package';

export interface ImportOptions {
  tenantId: string;
  /** Where the package came from (file name, upload). */
  source: string;
  /** A `running` roster_imports row to complete (operator endpoint); otherwise a row is inserted. */
  importId?: string;
  maxErrors?: number;
  /** Rows buffered before they are written to the file's COPY (default 5000). */
  batchSize?: number;
  /** Phase timings, for the CLI and benchmarks. */
  onProgress?: (message: string) => void;
}

export interface ImportReport {
  id: string | null;
  tenantId: string;
  status: 'succeeded' | 'failed';
  mode: RosterImportMode | null;
  source: string;
  startedAt: Date;
  finishedAt: Date;
  /** Data rows read across files. */
  rows: number;
  counts: Record<string, RosterImportFileCounts>;
  errors: ImportIssue[];
  /** Errors found, including those beyond the listed cap. */
  errorCount: number;
  warnings: ImportIssue[];
  dataVersion: string | null;
}

export class UnknownTenantError extends Error {
  constructor(readonly tenantId: string) {
    super(`tenant ${tenantId} does not exist`);
  }
}

/** Checks the package's file list against the manifest. */
function checkFiles(pkg: RosterPackage, manifest: Manifest, issues: IssueLog): void {
  const { binding } = manifest;
  const names = new Set(pkg.names);
  for (const type of binding.files) {
    const fileName = layoutOf(binding, type).fileName;
    const mode = manifest.files[type];
    if (mode !== 'absent' && !names.has(fileName)) {
      issues.error(
        MANIFEST_FILE,
        manifest.lines[`file.${type}`] ?? 0,
        'value',
        `file.${type} is '${mode}' but ${fileName} is not in the package`,
      );
    }
    if (mode === 'absent' && names.has(fileName)) {
      issues.warn(fileName, 0, '', `${fileName} is in the package but the manifest marks it absent; not imported`);
    }
  }
  const known = new Set([MANIFEST_FILE, ...binding.files.map((t) => layoutOf(binding, t).fileName)]);
  for (const name of pkg.names) {
    if (!known.has(name))
      issues.warn(name, 0, '', `${name} is not a file of the OneRoster v${binding.version} CSV binding; ignored`);
  }
}

async function recordFailure(client: ClientBase, report: ImportReport): Promise<string | null> {
  const values = [
    report.status,
    report.mode,
    report.source,
    report.startedAt,
    report.finishedAt,
    JSON.stringify(report.counts),
    JSON.stringify(report.errors),
    JSON.stringify(report.warnings),
  ];
  if (report.id) {
    await client.query(
      'UPDATE roster_imports SET status = $2, mode = $3, source = $4, started_at = $5, finished_at = $6, counts = $7, errors = $8, warnings = $9 WHERE id = $1',
      [report.id, ...values],
    );
    return report.id;
  }
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO roster_imports (tenant_id, status, mode, source, started_at, finished_at, counts, errors, warnings)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9 WHERE EXISTS (SELECT 1 FROM tenants WHERE id = $1) RETURNING id`,
    [report.tenantId, ...values],
  );
  return rows[0]?.id ?? null;
}

/** One import's issues, report and progress laps. */
class ImportRun {
  readonly issues: IssueLog;
  readonly report: ImportReport;
  private readonly progress: (message: string) => void;
  private last: number;

  constructor(o: ImportOptions) {
    this.issues = new IssueLog(o.maxErrors ?? DEFAULT_MAX_ERRORS);
    this.progress = o.onProgress ?? (() => undefined);
    const started = Date.now();
    this.last = started;
    this.report = {
      id: o.importId ?? null,
      tenantId: o.tenantId,
      status: 'failed',
      mode: null,
      source: o.source,
      startedAt: new Date(started),
      finishedAt: new Date(started),
      rows: 0,
      counts: {},
      errors: this.issues.errors,
      errorCount: 0,
      warnings: this.issues.warnings,
      dataVersion: null,
    };
  }

  /** Reports a phase with the time since the previous one. */
  lap(what: string): void {
    const now = Date.now();
    this.progress(`${what} (${((now - this.last) / 1000).toFixed(2)} s)`);
    this.last = now;
  }

  finish(): void {
    this.report.finishedAt = new Date();
    this.report.errorCount = this.issues.errorCount;
  }
}

/** Starts the import's transaction on the tenant: settings, lock, tenant check. Returns the import's timestamp. */
async function beginImport(client: ClientBase, tenantId: string): Promise<Date> {
  // Bulk statements run longer than a request's statement timeout.
  await client.query('SET LOCAL statement_timeout = 0');
  // Every statement here is set-based over up to millions of rows, while the planner's
  // statistics still describe the tables before this transaction's inserts: a nested loop
  // chosen on a one-row estimate would be quadratic. Hash/merge joins and in-memory sorts.
  await client.query('SET LOCAL enable_nestloop = off');
  await client.query("SET LOCAL work_mem = '128MB'");
  await client.query("SELECT pg_advisory_xact_lock(hashtextextended('roster-import:' || $1::text, 0))", [tenantId]);
  const tenant = await client.query('SELECT 1 FROM tenants WHERE id = $1 FOR KEY SHARE', [tenantId]);
  if (tenant.rowCount === 0) throw new UnknownTenantError(tenantId);
  // Every change of this import carries this one timestamp (see the module notes).
  const { rows: clock } = await client.query<{ now: Date }>('SELECT clock_timestamp() AS now');
  return clock[0]!.now;
}

/** Reads the manifest and checks the file list against it; undefined without a readable manifest. */
async function readPackageManifest(pkg: RosterPackage, run: ImportRun, source: string): Promise<Manifest | undefined> {
  const manifest = pkg.names.includes(MANIFEST_FILE)
    ? await readManifest(await pkg.open(MANIFEST_FILE), run.issues)
    : undefined;
  if (!pkg.names.includes(MANIFEST_FILE))
    run.issues.error(MANIFEST_FILE, 0, '', 'the package has no manifest.csv at its root');
  if (manifest) {
    run.report.mode = manifestMode(manifest);
    if (manifest.systemName) run.report.source = `${source} (${manifest.systemName})`;
    checkFiles(pkg, manifest, run.issues);
  }
  return manifest;
}

/** Reads the package's files in referential order (stops at the error cap). */
async function loadFiles(
  client: ClientBase,
  pkg: RosterPackage,
  manifest: Manifest,
  o: ImportOptions,
  stamp: Date,
  run: ImportRun,
): Promise<LoadedFile[]> {
  const loaded: LoadedFile[] = [];
  const { binding } = manifest;
  const refs = new ReferenceIndex(client, o.tenantId, manifest.files, binding);
  const ctx = {
    client,
    issues: run.issues,
    refs,
    batchSize: o.batchSize ?? 5000,
    binding,
    versionLine: manifest.lines['oneroster.version'] ?? 0,
  };
  for (const type of binding.files) {
    const mode = manifest.files[type];
    if (mode === 'absent') continue;
    const layout = layoutOf(binding, type);
    await refs.ensure(type);
    for (const t of lookedUpTypes(layout, binding.rules)) await refs.ensure(t);
    const { rows: has } = await client.query<{ has_rows: boolean }>(tableHasRowsSql(layout), [o.tenantId]);
    const hadRows = has[0]!.has_rows;
    // Straight into the table only where the loader can number ordinals as it reads (and no fold fills the rows first).
    const direct =
      mode === 'bulk' && !hadRows && layout.ordinals && !layout.filledByFolds
        ? { tenantId: o.tenantId, stamp }
        : undefined;
    const result = await loadRosterFile(ctx, layout, mode, await pkg.open(layout.fileName), direct);
    run.report.rows += result.rows;
    loaded.push({ type, result, hadRows });
    run.lap(
      `read ${layout.fileName}: ${result.rows} rows, ${(result.waitedMs / 1000).toFixed(2)} s of it waiting for the database`,
    );
    if (run.issues.full) break;
  }
  return loaded;
}

/** Publishes the new data version and records the succeeded import (inside the transaction). */
async function recordSuccess(client: ClientBase, report: ImportReport, stamp: Date): Promise<void> {
  const { rows: version } = await client.query<{ version: string }>(BUMP_DATA_VERSION_SQL, [report.tenantId, stamp]);
  report.dataVersion = version[0]!.version;
  report.status = 'succeeded';
  const values = [
    report.mode,
    report.source,
    report.startedAt,
    JSON.stringify(report.counts),
    JSON.stringify(report.warnings),
    report.dataVersion,
  ];
  if (report.id) {
    await client.query(
      "UPDATE roster_imports SET status = 'succeeded', mode = $2, source = $3, started_at = $4, finished_at = clock_timestamp(), counts = $5, errors = '[]', warnings = $6, data_version = $7 WHERE id = $1",
      [report.id, ...values],
    );
  } else {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO roster_imports (tenant_id, status, mode, source, started_at, finished_at, counts, errors, warnings, data_version)
       VALUES ($1, 'succeeded', $2, $3, $4, clock_timestamp(), $5, '[]', $6, $7) RETURNING id`,
      [report.tenantId, ...values],
    );
    report.id = rows[0]!.id;
  }
}

/** After a rollback: a package that cannot be read is a failed import; anything else unexpected is recorded and rethrown. */
async function failImport(client: ClientBase, run: ImportRun, err: unknown): Promise<ImportReport> {
  const report = run.report;
  if (err instanceof UnknownTenantError) throw err;
  if (err instanceof PackageError) {
    run.issues.error('(package)', 0, '', err.message);
    run.finish();
    report.status = 'failed';
    report.id = await recordFailure(client, report);
    return report;
  }
  run.issues.error('(import)', 0, '', 'the import failed unexpectedly; nothing was written');
  run.finish();
  report.status = 'failed';
  report.id = await recordFailure(client, report).catch(() => report.id);
  throw err;
}

/**
 * ANALYZE of the tables the committed import changed much. Not part of the import: a failure here
 * (the connection cut, PostgreSQL restarting) leaves the import succeeded, and autovacuum catches up.
 */
async function refreshStatistics(client: ClientBase, tables: readonly string[], run: ImportRun): Promise<void> {
  if (tables.length === 0) return;
  try {
    for (const table of tables) {
      await client.query(`ANALYZE "${table}"`);
      run.lap(`refreshed planner statistics of ${table}`);
    }
  } catch (err) {
    run.lap(`planner statistics not refreshed (${err instanceof Error ? err.message : String(err)}); autovacuum will`);
  }
}

/**
 * Imports a package into the tenant's rostering data. Validation failures come back as a
 * `failed` report (and are recorded); an unknown tenant throws `UnknownTenantError`; anything
 * unexpected rolls back, is recorded as failed, and is rethrown.
 */
export async function importRosterPackage(
  client: ClientBase,
  openPackage: () => Promise<RosterPackage>,
  o: ImportOptions,
): Promise<ImportReport> {
  const run = new ImportRun(o);
  const { issues, report } = run;
  let pkg: RosterPackage | undefined;
  try {
    const changedTables = await inTransaction(
      client,
      async () => {
        const stamp = await beginImport(client, o.tenantId);
        pkg = await openPackage();
        const changed = await loadAndMerge(client, pkg, o, stamp, run);
        if (!issues.failed) await recordSuccess(client, report, stamp);
        return changed;
      },
      // Bad rows, or (found while merging) records that do not fit together: nothing is kept.
      () => !issues.failed,
    );
    run.finish();
    if (issues.failed) {
      report.counts = {};
      report.id = await recordFailure(client, report);
      return report;
    }
    run.lap(`committed data version ${report.dataVersion}`);
    await refreshStatistics(client, changedTables, run);
    return report;
  } catch (err) {
    return await failImport(client, run, err instanceof TransactionAbandonedError ? err.cause : err);
  } finally {
    await pkg?.close().catch(() => undefined);
  }
}

/** Reads the manifest, loads every file and merges them; returns the tables that changed. */
async function loadAndMerge(
  client: ClientBase,
  pkg: RosterPackage,
  o: ImportOptions,
  stamp: Date,
  run: ImportRun,
): Promise<string[]> {
  const { issues, report } = run;
  const manifest = await readPackageManifest(pkg, run, o.source);
  const loaded = manifest && !issues.failed ? await loadFiles(client, pkg, manifest, o, stamp, run) : [];
  if (issues.failed) return [];
  const merge = () => ({
    client,
    tenantId: o.tenantId,
    stamp,
    binding: manifest!.binding,
    issues,
    counts: report.counts,
    lap: (m: string) => run.lap(m),
  });
  return await mergeFiles(merge(), manifest!, loaded);
}
