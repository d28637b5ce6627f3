/**
 * SQL of an import, generated from the file layouts (identifiers come only from constants; every
 * value is a parameter or COPY data, never SQL text). Rows are COPYed into a temporary table per
 * file, then merged into the roster table in set-based statements:
 *
 * - existing rows are updated only when some stored field differs (`IS DISTINCT FROM` over every
 *   field, references included), which is also what bumps `date_last_modified`; identical rows
 *   are not written at all. New rows are inserted.
 * - bulk files: active rows missing from the file become `tobedeleted` (with a bumped timestamp).
 * - delta files: `tobedeleted` rows tombstone the records they name.
 * - gradebook tables: rows written by apps through the API (`owner_app_id` set) are never
 *   updated or tombstoned by an import (the loader refuses files naming them).
 * - ordinals (rostering tables): dense per tenant in `sourced_id` byte order. New rows are inserted (in that
 *   order, for index locality) with their final positions; existing rows whose position moved
 *   are renumbered after the merge (partition ordinals: when an updated record moved to another
 *   partition). A first bulk load of a file already in sourcedId order
 *   skips staging: its rows go straight into the table, numbered as they are read. The ordinal unique constraints are DEFERRABLE INITIALLY DEFERRED,
 *   so the renumbering may pass through duplicates and is checked at commit.
 */
import { pgTypeOf, storedColumns, type FileLayout, type PgType } from './csv-layout';

/** Columns every staging table starts with, in this order. */
export const STAGING_PREFIX: readonly { name: string }[] = [
  { name: '_line' },
  { name: '_tombstone' },
  { name: 'sourced_id' },
  { name: 'status' },
  { name: 'date_last_modified' },
  { name: 'metadata' },
];

const q = (identifier: string) => `"${identifier}"`;

export function stagingTable(layout: FileLayout): string {
  return `stg_${layout.table}`;
}

interface StagedColumn {
  name: string;
  pg: PgType;
}

/** Data columns staged after the prefix: stored CSV columns, then the derived ones, then those folds fill. */
export function stagedDataColumns(layout: FileLayout): StagedColumn[] {
  const cols: StagedColumn[] = storedColumns(layout).map((c) => ({ name: c.db!, pg: pgTypeOf(c) }));
  for (const d of layout.derived ?? []) cols.push({ name: d.db, pg: d.pg });
  for (const f of layout.filledByFolds ?? []) cols.push({ name: f.db, pg: f.pg });
  return cols;
}

export function createStagingSql(layout: FileLayout): string {
  const data = stagedDataColumns(layout).map((c) => `${q(c.name)} ${c.pg}`);
  return (
    `CREATE TEMP TABLE ${q(stagingTable(layout))} (` +
    [
      `"_line" integer`,
      `"_tombstone" boolean`,
      `"sourced_id" text`,
      `"status" text`,
      `"date_last_modified" timestamptz`,
      `"metadata" jsonb`,
      ...data,
    ].join(', ') +
    ') ON COMMIT DROP'
  );
}

/** COPY of staged rows: the staging columns in table order. */
export function copyStagingSql(layout: FileLayout): string {
  const names = [...STAGING_PREFIX.map((c) => c.name), ...stagedDataColumns(layout).map((c) => c.name)];
  return `COPY ${q(stagingTable(layout))} (${names.map(q).join(', ')}) FROM STDIN`;
}

/**
 * COPY straight into the roster table: a first bulk load of a file that is in sourcedId order,
 * numbered by the loader. Columns: sourced_id, status, date_last_modified, metadata, the data
 * columns, ordinal (and the partition ordinal), tenant_id.
 */
export function copyDirectSql(layout: FileLayout): string {
  requireOrdinals(layout);
  const part = layout.partitionOrdinal;
  const names = [
    'sourced_id',
    'status',
    'date_last_modified',
    'metadata',
    ...stagedDataColumns(layout).map((c) => c.name),
    'ordinal',
    ...(part ? [part.column] : []),
    'tenant_id',
  ];
  return `COPY ${q(layout.table)} (${names.map(q).join(', ')}) FROM STDIN`;
}

/** $1 tenant. */
export function tableHasRowsSql(layout: FileLayout): string {
  return `SELECT EXISTS (SELECT 1 FROM ${q(layout.table)} WHERE tenant_id = $1) AS has_rows`;
}

/** Staged (non-tombstone) rows the tenant does not have yet. $1 tenant. Returns {n}. */
export function countNewSql(layout: FileLayout): string {
  return (
    `SELECT count(*)::int AS n FROM ${q(stagingTable(layout))} s WHERE NOT s._tombstone ` +
    `AND NOT EXISTS (SELECT 1 FROM ${q(layout.table)} t WHERE t.tenant_id = $1 AND t.sourced_id = s.sourced_id)`
  );
}

/**
 * Updates the tenant's rows whose staged version differs in any stored field (`IS DISTINCT FROM`
 * over every field, references included), which is also what bumps `date_last_modified`;
 * identical rows are not written. $1 tenant, $2 the import's timestamp (for rows without their
 * own dateLastModified). Row count = records updated.
 */
export function updateChangedSql(layout: FileLayout): string {
  const data = stagedDataColumns(layout).map((c) => c.name);
  const compared = ['status', 'metadata', ...data];
  return (
    `WITH u AS (UPDATE ${q(layout.table)} t SET date_last_modified = coalesce(s.date_last_modified, $2), ` +
    compared.map((c) => `${q(c)} = s.${q(c)}`).join(', ') +
    ` FROM ${q(stagingTable(layout))} s WHERE NOT s._tombstone AND t.tenant_id = $1 AND t.sourced_id = s.sourced_id${importedOnly(layout)} ` +
    `AND (${compared.map((c) => `t.${q(c)}`).join(', ')}) IS DISTINCT FROM (${compared.map((c) => `s.${q(c)}`).join(', ')}) ` +
    `RETURNING ${movedSql(layout)} AS moved) ` +
    'SELECT count(*)::int AS updated, coalesce(bool_or(moved), false) AS moves FROM u'
  );
}

/**
 * Whether an updated row moved to another partition of the partition ordinals (a user's role
 * group, a session's type). RETURNING shows the new row; a subquery of the same statement still
 * sees the row as it was before it (the statement's snapshot), an index lookup per updated row.
 */
function movedSql(layout: FileLayout): string {
  const part = layout.partitionOrdinal;
  if (!part) return 'false';
  const before = `(SELECT p.${q(part.by)} FROM ${q(layout.table)} p WHERE p.tenant_id = t.tenant_id AND p.sourced_id = t.sourced_id)`;
  return `t.${q(part.by)} IS DISTINCT FROM ${before}`;
}

/** On gradebook tables, the condition that keeps an import to the rows it owns. */
function importedOnly(layout: FileLayout, alias = 't'): string {
  return layout.appWritable ? ` AND ${alias}.owner_app_id IS NULL` : '';
}

/**
 * Inserts the staged rows the tenant does not have, in sourcedId order (index locality), with
 * their final positions: computed over the tenant's existing rows plus the staged ones, so only
 * existing rows that shift need renumbering afterwards. $1 tenant, $2 timestamp. Row count =
 * records inserted. (The tenant's import lock rules out concurrent inserts.)
 */
export function insertNewSql(layout: FileLayout): string {
  const data = stagedDataColumns(layout).map((c) => c.name);
  if (!layout.ordinals) {
    const cols = ['tenant_id', 'sourced_id', 'status', 'date_last_modified', 'metadata', ...data];
    const vals = [
      '$1',
      's.sourced_id',
      's.status',
      'coalesce(s.date_last_modified, $2)',
      's.metadata',
      ...data.map((c) => `s.${q(c)}`),
    ];
    return (
      `INSERT INTO ${q(layout.table)} (${cols.map(q).join(', ')}) SELECT ${vals.join(', ')} FROM ${q(stagingTable(layout))} s ` +
      `WHERE NOT s._tombstone AND NOT EXISTS (SELECT 1 FROM ${q(layout.table)} e WHERE e.tenant_id = $1 AND e.sourced_id = s.sourced_id) ORDER BY s.sourced_id COLLATE "C"`
    );
  }
  const part = layout.partitionOrdinal;
  const by = part ? `, ${q(part.by)} AS _by` : '';
  const windows = [`(row_number() OVER (ORDER BY sourced_id COLLATE "C") - 1)::int AS _ord`];
  if (part) windows.push(`(row_number() OVER (PARTITION BY _by ORDER BY sourced_id COLLATE "C") - 1)::int AS _pord`);
  const targetCols = [
    'tenant_id',
    'sourced_id',
    'status',
    'date_last_modified',
    'metadata',
    'ordinal',
    ...(part ? [part.column] : []),
    ...data,
  ];
  const values = [
    '$1',
    's.sourced_id',
    's.status',
    'coalesce(s.date_last_modified, $2)',
    's.metadata',
    'n._ord',
    ...(part ? ['n._pord'] : []),
    ...data.map((c) => `s.${q(c)}`),
  ];
  const stg = q(stagingTable(layout));
  const missing = (alias: string) =>
    `NOT EXISTS (SELECT 1 FROM ${q(layout.table)} e WHERE e.tenant_id = $1 AND e.sourced_id = ${alias}.sourced_id)`;
  return (
    `WITH src AS (SELECT * FROM ${stg} WHERE NOT _tombstone), ` +
    `ids AS (SELECT sourced_id${by} FROM src UNION ALL ` +
    `SELECT t.sourced_id${part ? `, t.${q(part.by)}` : ''} FROM ${q(layout.table)} t WHERE t.tenant_id = $1 AND NOT EXISTS (SELECT 1 FROM src WHERE src.sourced_id = t.sourced_id)), ` +
    `numbered AS (SELECT sourced_id, ${windows.join(', ')} FROM ids) ` +
    `INSERT INTO ${q(layout.table)} (${targetCols.map(q).join(', ')}) ` +
    `SELECT ${values.join(', ')} FROM src s JOIN numbered n ON n.sourced_id = s.sourced_id WHERE ${missing('s')} ORDER BY n._ord`
  );
}

/** Bulk: active records of the tenant missing from the file are tombstoned. $1 tenant, $2 timestamp. */
export function bulkTombstoneSql(layout: FileLayout): string {
  return (
    `UPDATE ${q(layout.table)} t SET status = 'tobedeleted', date_last_modified = $2 ` +
    `WHERE t.tenant_id = $1 AND t.status <> 'tobedeleted'${importedOnly(layout)} AND NOT EXISTS (SELECT 1 FROM ${q(stagingTable(layout))} s WHERE s.sourced_id = t.sourced_id)`
  );
}

/** Delta: tombstone rows of the file. $1 tenant, $2 timestamp (when a row has none). */
export function deltaTombstoneSql(layout: FileLayout): string {
  return (
    `UPDATE ${q(layout.table)} t SET status = 'tobedeleted', date_last_modified = coalesce(s.date_last_modified, $2) ` +
    `FROM ${q(stagingTable(layout))} s WHERE s._tombstone AND t.tenant_id = $1 AND t.sourced_id = s.sourced_id AND t.status <> 'tobedeleted'${importedOnly(layout)}`
  );
}

/** Delta tombstone rows naming no record of the tenant: (line, sourced_id). $1 tenant. */
export function unknownTombstonesSql(layout: FileLayout): string {
  return (
    `SELECT s._line AS line, s.sourced_id FROM ${q(stagingTable(layout))} s WHERE s._tombstone ` +
    `AND NOT EXISTS (SELECT 1 FROM ${q(layout.table)} t WHERE t.tenant_id = $1 AND t.sourced_id = s.sourced_id) ORDER BY s._line LIMIT 100`
  );
}

/**
 * Renumbers `ordinal` (and the partition ordinal) of the tenant's rows to their position in
 * `sourced_id` byte order; only rows whose numbers change are written. $1 tenant.
 */
export function reassignOrdinalsSql(layout: FileLayout): string {
  requireOrdinals(layout);
  const part = layout.partitionOrdinal;
  const windows = [`(row_number() OVER (ORDER BY sourced_id COLLATE "C") - 1)::int AS _ord`];
  if (part)
    windows.push(`(row_number() OVER (PARTITION BY ${q(part.by)} ORDER BY sourced_id COLLATE "C") - 1)::int AS _pord`);
  const sets = ['ordinal = n._ord', ...(part ? [`${q(part.column)} = n._pord`] : [])];
  const differs = ['t.ordinal <> n._ord', ...(part ? [`t.${q(part.column)} <> n._pord`] : [])];
  return (
    `UPDATE ${q(layout.table)} t SET ${sets.join(', ')} ` +
    `FROM (SELECT sourced_id, ${windows.join(', ')} FROM ${q(layout.table)} WHERE tenant_id = $1) n ` +
    `WHERE t.tenant_id = $1 AND t.sourced_id = n.sourced_id AND (${differs.join(' OR ')})`
  );
}

/** Publishes a new data version for the tenant (inside the import's transaction). $1 tenant, $2 timestamp. */
export const BUMP_DATA_VERSION_SQL =
  'INSERT INTO roster_data_versions (tenant_id, version, imported_at) VALUES ($1, 1, $2) ' +
  'ON CONFLICT (tenant_id) DO UPDATE SET version = roster_data_versions.version + 1, imported_at = EXCLUDED.imported_at RETURNING version::text AS version';

/**
 * Link files (`classResources`, `courseResources`): a snapshot of each owner's set of active
 * link targets before the merge, to find the owners whose `resources` changed. $1 tenant.
 */
export function snapshotLinksSql(layout: FileLayout): string {
  const links = requireLinks(layout);
  return `CREATE TEMP TABLE ${q(`lnk_${layout.table}`)} ON COMMIT DROP AS ${linkSetsSql(layout, links)}`;
}

/**
 * Bumps `dateLastModified` of the owners (classes, courses) whose set of active link targets
 * differs from the snapshot: their `resources` changed. $1 tenant, $2 the import's timestamp.
 */
export function bumpLinkOwnersSql(layout: FileLayout): string {
  const links = requireLinks(layout);
  return (
    `UPDATE ${q(links.ownerTable)} o SET date_last_modified = $2 FROM (` +
    `SELECT coalesce(a.owner, b.owner) AS owner FROM (${linkSetsSql(layout, links)}) a FULL JOIN ${q(`lnk_${layout.table}`)} b ON b.owner = a.owner ` +
    `WHERE a.targets IS DISTINCT FROM b.targets) d WHERE o.tenant_id = $1 AND o.sourced_id = d.owner AND o.date_last_modified IS DISTINCT FROM $2`
  );
}

function linkSetsSql(layout: FileLayout, links: NonNullable<FileLayout['links']>): string {
  return (
    `SELECT ${q(links.owner)} AS owner, array_agg(DISTINCT ${q(links.target)} COLLATE "C" ORDER BY ${q(links.target)} COLLATE "C") AS targets ` +
    `FROM ${q(layout.table)} WHERE tenant_id = $1 AND status = 'active' GROUP BY 1`
  );
}

/** The tenant has active records the file's rows replace (`replaces`). $1 tenant. Returns {has}. */
export function hasReplacedRecordsSql(layout: FileLayout): string {
  const { table } = requireReplaces(layout);
  return `SELECT EXISTS (SELECT 1 FROM ${q(table)} WHERE tenant_id = $1 AND status <> 'tobedeleted') AS has`;
}

/**
 * Tombstones the active records of every record the file describes (not its tombstone rows):
 * the file's row replaces them. $1 tenant, $2 timestamp. Row count = records tombstoned.
 */
export function tombstoneReplacedSql(layout: FileLayout): string {
  const { table, owner } = requireReplaces(layout);
  return (
    `UPDATE ${q(table)} r SET status = 'tobedeleted', date_last_modified = $2 FROM ${q(stagingTable(layout))} s ` +
    `WHERE NOT s._tombstone AND r.tenant_id = $1 AND r.${q(owner)} = s.sourced_id AND r.status <> 'tobedeleted'`
  );
}

function requireReplaces(layout: FileLayout): NonNullable<FileLayout['replaces']> {
  if (!layout.replaces) throw new TypeError(`${layout.fileName} replaces no records`);
  return layout.replaces;
}

function requireOrdinals(layout: FileLayout): void {
  if (!layout.ordinals) throw new TypeError(`${layout.table} keeps no ordinals`);
}

function requireLinks(layout: FileLayout): NonNullable<FileLayout['links']> {
  if (!layout.links) throw new TypeError(`${layout.fileName} holds no link records`);
  return layout.links;
}

/**
 * A deleted line item takes its results with it (as a DELETE through the API does): active
 * results of tombstoned line items are tombstoned, whoever wrote them. $1 tenant, $2 timestamp.
 */
export const CASCADE_LINE_ITEM_TOMBSTONES_SQL =
  `UPDATE "gradebook_results" r SET status = 'tobedeleted', date_last_modified = $2 WHERE r.tenant_id = $1 AND r.status = 'active' ` +
  `AND EXISTS (SELECT 1 FROM "gradebook_line_items" li WHERE li.tenant_id = $1 AND li.sourced_id = r.line_item_sourced_id AND li.status = 'tobedeleted')`;
