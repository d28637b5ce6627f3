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
 * - ordinals: dense per tenant in `sourced_id` byte order. New rows are inserted (in that
 *   order, for index locality) with their final positions; existing rows whose position moved
 *   are renumbered after the merge. A first bulk load of a file already in sourcedId order
 *   skips staging: its rows go straight into the table, numbered as they are read. The ordinal unique constraints are DEFERRABLE INITIALLY DEFERRED,
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

/**
 * First bulk load of a table for the tenant, while the file is in sourcedId order: rows go
 * straight into the roster table as the file is read (no staging, no merge), numbered by the
 * loader. Parameters: the staging arrays, then `ordinal` (and the partition ordinal) arrays,
 * then tenant and timestamp.
 */
export function directInsertSql(layout: FileLayout): string {
  const data = stagedDataColumns(layout);
  const part = layout.partitionOrdinal;
  const names = [...STAGING_PREFIX.map((c) => c.name), ...data.map((c) => c.name), '_ord', ...(part ? ['_pord'] : [])];
  const params = [
    ...STAGING_PREFIX.map((c) => c.param),
    ...data.map((c) => (c.pg === 'text[]' || c.pg === 'jsonb' ? 'text[]' : `${c.pg}[]`)),
    'int[]',
    ...(part ? ['int[]'] : []),
  ];
  const tenant = `$${params.length + 1}`;
  const stamp = `$${params.length + 2}`;
  const convert = (c: StagedColumn) => (c.pg === 'text[]' ? `string_to_array(u.${q(c.name)}, ',')` : c.pg === 'jsonb' ? `u.${q(c.name)}::jsonb` : `u.${q(c.name)}`);
  const targetCols = ['tenant_id', 'sourced_id', 'status', 'date_last_modified', 'metadata', 'ordinal', ...(part ? [part.column] : []), ...data.map((c) => c.name)];
  const values = [tenant, 'u.sourced_id', 'u.status', `coalesce(u.date_last_modified, ${stamp})`, 'u.metadata::jsonb', 'u._ord', ...(part ? ['u._pord'] : []), ...data.map(convert)];
  return (
    `INSERT INTO ${q(layout.table)} (${targetCols.map(q).join(', ')}) ` +
    `SELECT ${values.join(', ')} FROM unnest(${params.map((p, i) => `$${i + 1}::${p}`).join(', ')}) AS u(${names.map(q).join(', ')})`
  );
}

/** $1 tenant. */
export function tableHasRowsSql(layout: FileLayout): string {
  return `SELECT EXISTS (SELECT 1 FROM ${q(layout.table)} WHERE tenant_id = $1) AS has_rows`;
}

/**
 * Insert/update of the staged (non-tombstone) rows. $1 tenant, $2 the import's timestamp (used
 * when a row carries no dateLastModified of its own). Returns one row {inserted, updated}.
 *
 * New rows get their final ordinals: positions are computed over the tenant's existing rows plus
 * the staged ones, so only existing rows that shift need renumbering afterwards.
 * `upsert`: the tenant had rows in the table before this file (else no conflict is possible
 * and a plain insert is enough).
 */
export function mergeSql(layout: FileLayout, upsert: boolean): string {
  const data = stagedDataColumns(layout).map((c) => c.name);
  const part = layout.partitionOrdinal;
  const by = part ? `, ${q(part.by)} AS _by` : '';
  const windows = [`(row_number() OVER (ORDER BY sourced_id COLLATE "C") - 1)::int AS _ord`];
  if (part) windows.push(`(row_number() OVER (PARTITION BY _by ORDER BY sourced_id COLLATE "C") - 1)::int AS _pord`);
  const targetCols = ['tenant_id', 'sourced_id', 'status', 'date_last_modified', 'metadata', 'ordinal', ...(part ? [part.column] : []), ...data];
  const values = ['$1', 's.sourced_id', 's.status', 'coalesce(s.date_last_modified, $2)', 's.metadata', 'n._ord', ...(part ? ['n._pord'] : []), ...data.map((c) => `s.${q(c)}`)];
  const compared = ['status', 'metadata', ...data];
  const conflict = upsert
    ? ` ON CONFLICT (tenant_id, sourced_id) DO UPDATE SET ` +
      ['date_last_modified', ...compared].map((c) => `${q(c)} = EXCLUDED.${q(c)}`).join(', ') +
      ` WHERE (${compared.map((c) => `t.${q(c)}`).join(', ')}) IS DISTINCT FROM (${compared.map((c) => `EXCLUDED.${q(c)}`).join(', ')})`
    : '';
  const stg = q(stagingTable(layout));
  return (
    `WITH src AS (SELECT * FROM ${stg} WHERE NOT _tombstone), ` +
    `ids AS (SELECT sourced_id${by} FROM src UNION ALL ` +
    `SELECT t.sourced_id${part ? `, t.${q(part.by)}` : ''} FROM ${q(layout.table)} t WHERE t.tenant_id = $1 AND NOT EXISTS (SELECT 1 FROM src WHERE src.sourced_id = t.sourced_id)), ` +
    `numbered AS (SELECT sourced_id, ${windows.join(', ')} FROM ids), ` +
    `up AS (INSERT INTO ${q(layout.table)} AS t (${targetCols.map(q).join(', ')}) ` +
    `SELECT ${values.join(', ')} FROM src s JOIN numbered n ON n.sourced_id = s.sourced_id ORDER BY n._ord${conflict} RETURNING (xmax = 0) AS inserted) ` +
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
