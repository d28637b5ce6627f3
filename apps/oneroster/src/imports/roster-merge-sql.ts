/**
 * SQL of an import, generated from the file layouts (identifiers come only from constants; every
 * value is a parameter). Rows are staged in a temporary table per file, then merged into the
 * roster table in set-based statements:
 *
 * - upsert: new rows are inserted; existing rows are updated only when some stored field differs
 *   (`IS DISTINCT FROM` over every field, references included), which is also what bumps
 *   `date_last_modified`; identical rows are not written at all.
 * - bulk files: active rows missing from the file become `tobedeleted` (with a bumped timestamp).
 * - delta files: `tobedeleted` rows tombstone the records they name.
 * - ordinals: dense per tenant in `sourced_id` byte order. A first load computes them while
 *   inserting; later loads insert new rows with temporary negative ordinals and renumber every
 *   row whose position moved. The ordinal unique constraints are DEFERRABLE INITIALLY DEFERRED,
 *   so the renumbering may pass through duplicates and is checked at commit.
 */
import { pgTypeOf, storedColumns, type FileLayout, type PgType } from './csv-layout';

/** Columns every staging table starts with, in this order. */
export const STAGING_PREFIX: readonly { name: string; param: string }[] = [
  { name: '_line', param: 'int[]' },
  { name: '_tombstone', param: 'boolean[]' },
  { name: 'sourced_id', param: 'text[]' },
  { name: 'status', param: 'text[]' },
  { name: 'date_last_modified', param: 'timestamptz[]' },
  { name: 'metadata', param: 'text[]' },
];

const q = (identifier: string) => `"${identifier}"`;

export function stagingTable(layout: FileLayout): string {
  return `stg_${layout.table}`;
}

interface StagedColumn {
  name: string;
  pg: PgType;
}

/** Data columns staged after the prefix: stored CSV columns, then the derived one. */
export function stagedDataColumns(layout: FileLayout): StagedColumn[] {
  const cols: StagedColumn[] = storedColumns(layout).map((c) => ({ name: c.db!, pg: pgTypeOf(c) }));
  if (layout.derived) cols.push({ name: layout.derived.db, pg: 'text' });
  return cols;
}

export function createStagingSql(layout: FileLayout): string {
  const data = stagedDataColumns(layout).map((c) => `${q(c.name)} ${c.pg}`);
  return (
    `CREATE TEMP TABLE ${q(stagingTable(layout))} (` +
    [`"_line" integer`, `"_tombstone" boolean`, `"sourced_id" text`, `"status" text`, `"date_last_modified" timestamptz`, `"metadata" jsonb`, ...data].join(', ') +
    ') ON COMMIT DROP'
  );
}

/**
 * One multi-row insert into the staging table: one array parameter per column. Lists travel as
 * comma-joined text (list items never contain commas in the CSV binding), JSON as text.
 */
export function stagingInsertSql(layout: FileLayout): string {
  const data = stagedDataColumns(layout);
  const params = [...STAGING_PREFIX.map((c) => c.param), ...data.map((c) => (c.pg === 'text[]' || c.pg === 'jsonb' ? 'text[]' : `${c.pg}[]`))];
  const names = [...STAGING_PREFIX.map((c) => c.name), ...data.map((c) => c.name)];
  const select = names.map((name, i) => {
    const pg = i < STAGING_PREFIX.length ? (name === 'metadata' ? 'jsonb' : '') : data[i - STAGING_PREFIX.length]!.pg;
    if (pg === 'text[]') return `string_to_array(u.${q(name)}, ',')`;
    if (pg === 'jsonb') return `u.${q(name)}::jsonb`;
    return `u.${q(name)}`;
  });
  return (
    `INSERT INTO ${q(stagingTable(layout))} (${names.map(q).join(', ')}) ` +
    `SELECT ${select.join(', ')} FROM unnest(${params.map((p, i) => `$${i + 1}::${p}`).join(', ')}) AS u(${names.map(q).join(', ')})`
  );
}

/** Sourced ids staged twice in one file: (sourced_id, lines). Only a safety net: the loader checks first. */
export function stagingDuplicatesSql(layout: FileLayout): string {
  return `SELECT sourced_id, array_agg(_line ORDER BY _line) AS lines FROM ${q(stagingTable(layout))} GROUP BY sourced_id HAVING count(*) > 1 LIMIT 100`;
}

/** $1 tenant. */
export function tableHasRowsSql(layout: FileLayout): string {
  return `SELECT EXISTS (SELECT 1 FROM ${q(layout.table)} WHERE tenant_id = $1) AS has_rows`;
}

/**
 * Upsert of the staged (non-tombstone) rows. $1 tenant, $2 the import's timestamp (used when a
 * row carries no dateLastModified of its own). Returns one row {inserted, updated}.
 * `firstLoad`: the tenant has no row in the table yet, so a plain insert with final ordinals.
 */
export function mergeSql(layout: FileLayout, firstLoad: boolean): string {
  const data = stagedDataColumns(layout).map((c) => c.name);
  const part = layout.partitionOrdinal;
  const windows = [`(row_number() OVER (ORDER BY s.sourced_id COLLATE "C") - 1)::int AS _ord`];
  if (part) windows.push(`(row_number() OVER (PARTITION BY s.${q(part.by)} ORDER BY s.sourced_id COLLATE "C") - 1)::int AS _pord`);
  const ordinal = (col: string) => (firstLoad ? col : `-1 - ${col}`);
  const targetCols = ['tenant_id', 'sourced_id', 'status', 'date_last_modified', 'metadata', 'ordinal', ...(part ? [part.column] : []), ...data];
  const values = ['$1', 'sourced_id', 'status', 'coalesce(date_last_modified, $2)', 'metadata', ordinal('_ord'), ...(part ? [ordinal('_pord')] : []), ...data.map(q)];
  const compared = ['status', 'metadata', ...data];
  const conflict = firstLoad
    ? ''
    : ` ON CONFLICT (tenant_id, sourced_id) DO UPDATE SET ` +
      ['date_last_modified', ...compared].map((c) => `${q(c)} = EXCLUDED.${q(c)}`).join(', ') +
      ` WHERE (${compared.map((c) => `t.${q(c)}`).join(', ')}) IS DISTINCT FROM (${compared.map((c) => `EXCLUDED.${q(c)}`).join(', ')})`;
  return (
    `WITH src AS (SELECT s.*, ${windows.join(', ')} FROM ${q(stagingTable(layout))} s WHERE NOT s._tombstone), ` +
    `up AS (INSERT INTO ${q(layout.table)} AS t (${targetCols.map(q).join(', ')}) SELECT ${values.join(', ')} FROM src${conflict} RETURNING (xmax = 0) AS inserted) ` +
    `SELECT (count(*) FILTER (WHERE inserted))::int AS inserted, (count(*) FILTER (WHERE NOT inserted))::int AS updated FROM up`
  );
}

/** Bulk: active records of the tenant missing from the file are tombstoned. $1 tenant, $2 timestamp. */
export function bulkTombstoneSql(layout: FileLayout): string {
  return (
    `UPDATE ${q(layout.table)} t SET status = 'tobedeleted', date_last_modified = $2 ` +
    `WHERE t.tenant_id = $1 AND t.status <> 'tobedeleted' AND NOT EXISTS (SELECT 1 FROM ${q(stagingTable(layout))} s WHERE s.sourced_id = t.sourced_id)`
  );
}

/** Delta: tombstone rows of the file. $1 tenant, $2 timestamp (when a row has none). */
export function deltaTombstoneSql(layout: FileLayout): string {
  return (
    `UPDATE ${q(layout.table)} t SET status = 'tobedeleted', date_last_modified = coalesce(s.date_last_modified, $2) ` +
    `FROM ${q(stagingTable(layout))} s WHERE s._tombstone AND t.tenant_id = $1 AND t.sourced_id = s.sourced_id AND t.status <> 'tobedeleted'`
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
  const part = layout.partitionOrdinal;
  const windows = [`(row_number() OVER (ORDER BY sourced_id COLLATE "C") - 1)::int AS _ord`];
  if (part) windows.push(`(row_number() OVER (PARTITION BY ${q(part.by)} ORDER BY sourced_id COLLATE "C") - 1)::int AS _pord`);
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
