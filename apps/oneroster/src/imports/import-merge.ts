/**
 * The merge of an import, once every file was read without error: each file into its table in
 * the binding's merge order (upsert changed rows, tombstone, renumber ordinals, bump the owners
 * of changed resource links, end the records a row replaces), the folds of v1.2 record files
 * around it (`import-folds.ts`), and the results of deleted line items tombstoned.
 */
import type { ClientBase } from 'pg';
import type { RosterImportFileCounts } from '@edu/persistence/pg';
import { layoutOf, type CsvBinding } from './csv-bindings';
import type { FileLayout, RosterFileType } from './csv-layout';
import { ImportFolds } from './import-folds';
import type { IssueLog } from './import-issues';
import type { FileMode, Manifest } from './manifest';
import type { FileLoadResult } from './roster-file-loader';
import {
  bulkTombstoneSql,
  bumpLinkOwnersSql,
  CASCADE_LINE_ITEM_TOMBSTONES_SQL,
  countNewSql,
  deltaTombstoneSql,
  hasReplacedRecordsSql,
  insertNewSql,
  reassignOrdinalsSql,
  snapshotLinksSql,
  tombstoneReplacedSql,
  unknownTombstonesSql,
  updateChangedSql,
} from './roster-merge-sql';

export interface LoadedFile {
  type: RosterFileType;
  result: FileLoadResult;
  /** The tenant had rows in the table before this import. */
  hadRows: boolean;
}

export interface MergeContext {
  readonly client: ClientBase;
  readonly tenantId: string;
  readonly stamp: Date;
  readonly binding: CsvBinding;
  readonly issues: IssueLog;
  /** The report's counts, per file name. */
  readonly counts: Record<string, RosterImportFileCounts>;
  readonly lap: (message: string) => void;
}

/** Above this many changed rows, planner statistics of the table are refreshed after commit. */
const ANALYZE_THRESHOLD = 10_000;

/** Merges one read file into its table; its counts, and whether ordinals were renumbered. */
async function mergeFile(
  ctx: MergeContext,
  layout: FileLayout,
  mode: FileMode,
  file: LoadedFile,
): Promise<{ counts: RosterImportFileCounts; shifted: boolean }> {
  const { client, tenantId, stamp } = ctx;
  const { result, hadRows } = file;
  let inserted = result.directRows;
  let updated = 0;
  let tombstoned = 0;
  if (layout.links) await client.query(snapshotLinksSql(layout), [tenantId]);
  let moves = false;
  if (result.staged > result.tombstones) {
    if (hadRows) ({ updated, moves } = await updateChanged(client, layout, tenantId, stamp));
    const { rows: fresh } = await client.query<{ n: number }>(countNewSql(layout), [tenantId]);
    if (fresh[0]!.n > 0) inserted += (await client.query(insertNewSql(layout), [tenantId, stamp])).rowCount ?? 0;
  }
  if (mode === 'bulk' && hadRows) {
    tombstoned = (await client.query(bulkTombstoneSql(layout), [tenantId, stamp])).rowCount ?? 0;
  }
  if (mode === 'delta' && result.tombstones > 0) {
    tombstoned = (await client.query(deltaTombstoneSql(layout), [tenantId, stamp])).rowCount ?? 0;
    const unknown = await client.query<{ line: number; sourced_id: string }>(unknownTombstonesSql(layout), [tenantId]);
    for (const u of unknown.rows)
      ctx.issues.warn(
        layout.fileName,
        u.line,
        'sourcedId',
        `'${u.sourced_id}' is marked tobedeleted but the tenant has no such record; skipped`,
      );
  }
  // New rows got their final positions; rows already there move when rows are added before
  // them, and partition ordinals move when a row changes partition (role, session type).
  const shifted =
    layout.ordinals && ((hadRows && inserted > 0) || moves || (result.directRows > 0 && result.staged > 0));
  if (shifted) await renumber(client, layout, tenantId);
  // A class's or course's `resources` derive from its active links: a changed set is a change of the record.
  if (layout.links) await client.query(bumpLinkOwnersSql(layout), [tenantId, stamp]);
  if (layout.replaces && result.staged > result.tombstones) await tombstoneReplaced(ctx, layout);
  const upserted = result.staged - result.tombstones;
  const unchanged =
    upserted - (inserted - result.directRows) - updated + (result.tombstones - (mode === 'delta' ? tombstoned : 0));
  return { counts: { inserted, updated, unchanged: Math.max(unchanged, 0), tombstoned }, shifted };
}

/**
 * Updates the records whose staged row differs; how many, and whether one moved to another
 * partition (only then are partition ordinals renumbered without a record added: renumbering
 * reads and sorts all the tenant's records, 1.1-1.3 s for 300,000 users).
 */
async function updateChanged(
  client: ClientBase,
  layout: FileLayout,
  tenantId: string,
  stamp: Date,
): Promise<{ updated: number; moves: boolean }> {
  const { rows } = await client.query<{ updated: number; moves: boolean }>(updateChangedSql(layout), [tenantId, stamp]);
  return rows[0]!;
}

/**
 * Renumbers the table's ordinals. Positions are not part of any record, so the statement is kept
 * out of the change feed (`edu.roster_events`, read by the feed's capture triggers).
 */
async function renumber(client: ClientBase, layout: FileLayout, tenantId: string): Promise<void> {
  await client.query("SET LOCAL edu.roster_events = 'off'");
  await client.query(reassignOrdinalsSql(layout), [tenantId]);
  await client.query("SET LOCAL edu.roster_events = 'on'");
}

/** Tombstones the records the file's rows replace (checked first: most tenants have none). */
async function tombstoneReplaced(ctx: MergeContext, layout: FileLayout): Promise<void> {
  const { rows } = await ctx.client.query<{ has: boolean }>(hasReplacedRecordsSql(layout), [ctx.tenantId]);
  if (rows[0]!.has) await ctx.client.query(tombstoneReplacedSql(layout), [ctx.tenantId, ctx.stamp]);
}

/** A deleted line item takes its results with it (as a DELETE through the API does). */
async function cascadeLineItemTombstones(ctx: MergeContext): Promise<void> {
  const cascaded = (await ctx.client.query(CASCADE_LINE_ITEM_TOMBSTONES_SQL, [ctx.tenantId, ctx.stamp])).rowCount ?? 0;
  if (cascaded === 0) return;
  const counts = (ctx.counts['results.csv'] ??= { inserted: 0, updated: 0, unchanged: 0, tombstoned: 0 });
  counts.tombstoned += cascaded;
  ctx.lap(`tombstoned ${cascaded} results of deleted line items`);
}

/**
 * Merges every read file and folds the record files into their owners; returns the tables
 * changed enough to refresh their statistics. Stops at the first fold error (reported).
 */
export async function mergeFiles(
  ctx: MergeContext,
  manifest: Manifest,
  loaded: readonly LoadedFile[],
): Promise<string[]> {
  const changedTables: string[] = [];
  const folds = new ImportFolds(ctx.client, ctx.tenantId, ctx.stamp, ctx.binding, ctx.issues, ctx.lap);
  const byType = new Map(loaded.map((l) => [l.type, l]));
  for (const type of ctx.binding.mergeOrder) {
    const file = byType.get(type);
    if (!file) continue;
    const layout = layoutOf(ctx.binding, type);
    const mode = manifest.files[type];
    await folds.beforeMerge(type);
    if (ctx.issues.failed) return changedTables;
    const { counts, shifted } = await mergeFile(ctx, layout, mode, file);
    await folds.afterMerge(type, mode);
    const { inserted, updated, tombstoned } = counts;
    ctx.counts[layout.fileName] = counts;
    if (inserted + updated + tombstoned > ANALYZE_THRESHOLD) changedTables.push(layout.table);
    ctx.lap(
      `merged ${layout.fileName}: ${inserted} inserted (${file.result.directRows} while reading), ${updated} updated, ${tombstoned} tombstoned${shifted ? ', ordinals renumbered' : ''}`,
    );
  }
  if (byType.has('lineItems') || byType.has('results')) await cascadeLineItemTombstones(ctx);
  await folds.foldOwners();
  return changedTables;
}
