/**
 * Folding (v1.2): some files hold records that describe part of another record, their owner
 * (`roles.csv` rows of a user, `lineItemScoreScales.csv` rows of a line item). They are merged
 * as records of their own, so later delta files can change or tombstone them; then each owner
 * whose active records may have changed gets its columns rebuilt from them (what the read side
 * serves). A fold is data: which records, which owner, the owner columns it writes and the
 * SELECT computing them; this module makes the SQL that runs it. Identifiers come from constants.
 */
import type { RosterFileType } from './csv-layout';

/** An error a fold's check finds: one row per problem, `line` in the file the check names. */
export interface FoldCheck {
  readonly file: string;
  readonly column: string;
  /** Rows `(line int, id text, detail text)`. $1 tenant (checks of staged rows alone take none). */
  readonly sql: string;
  readonly message: (id: string, detail: string | null) => string;
}

export interface FoldSpec {
  /** For progress messages ("user roles"). */
  readonly name: string;
  /** The records file, its table and the column naming the owner. */
  readonly records: RosterFileType;
  readonly recordTable: string;
  readonly ownerColumn: string;
  readonly owner: RosterFileType;
  readonly ownerTable: string;
  /** Owner columns the fold writes. */
  readonly columns: readonly string[];
  /**
   * `SELECT o.sourced_id AS owner, <one value per column>` over `owners` (a relation aliased `o`
   * with the owner table's columns: the stored rows or the staged ones). $1 tenant.
   */
  readonly select: (owners: string) => string;
  /** Folded rows (alias `f`) that leave their owner as it is: what a check reports instead. */
  readonly keepWhen?: string;
  /** Owner rows apps wrote through the API are never folded (their records are refused anyway). */
  readonly appWritable?: boolean;
  /** Checks over the owners of changed records, once every fold ran. */
  readonly checks: readonly FoldCheck[];
  /** Checks over the staged owner rows after `fillStagedSql` (before the owner file's merge). */
  readonly stagedChecks?: readonly FoldCheck[];
}

const q = (identifier: string) => `"${identifier}"`;

/** A constant as an SQL string literal. */
export const literal = (value: string): string => `'${value.replace(/'/g, "''")}'`;

/** Owners of changed records of the fold (temp table, one column `owner`). */
export function affectedTable(spec: FoldSpec): string {
  return `aff_${spec.recordTable}`;
}

/** The staging table of the fold's records file (`_line` gives error lines). */
export function recordStaging(spec: FoldSpec): string {
  return `stg_${spec.recordTable}`;
}

export function createAffectedSql(spec: FoldSpec): string {
  return `CREATE TEMP TABLE IF NOT EXISTS ${q(affectedTable(spec))} (owner text) ON COMMIT DROP`;
}

/**
 * Owners of the tenant's records the file names: before the merge their old owners, after it
 * their new ones. $1 tenant.
 */
export function captureNamedOwnersSql(spec: FoldSpec): string {
  return (
    `INSERT INTO ${q(affectedTable(spec))} SELECT r.${q(spec.ownerColumn)} FROM ${q(spec.recordTable)} r ` +
    `JOIN ${q(recordStaging(spec))} s ON s.sourced_id = r.sourced_id WHERE r.tenant_id = $1`
  );
}

/** After a bulk file: every owner of the tenant's records (those the file dropped included). $1 tenant. */
export function captureAllOwnersSql(spec: FoldSpec): string {
  return `INSERT INTO ${q(affectedTable(spec))} SELECT DISTINCT r.${q(spec.ownerColumn)} FROM ${q(spec.recordTable)} r WHERE r.tenant_id = $1`;
}

const differs = (spec: FoldSpec, a: string, b: string) =>
  `(${spec.columns.map((c) => `${a}.${q(c)}`).join(', ')}) IS DISTINCT FROM (${spec.columns.map((c) => `${b}.${q(c)}`).join(', ')})`;

/**
 * Rebuilds the affected owners' columns from their active records; an owner whose values change
 * gets the import's timestamp. $1 tenant, $2 timestamp. Row count = owners changed.
 */
export function foldOwnersSql(spec: FoldSpec): string {
  const owners = `(SELECT t.* FROM ${q(spec.ownerTable)} t WHERE t.tenant_id = $1 AND t.sourced_id IN (SELECT owner FROM ${q(affectedTable(spec))}))`;
  return (
    `UPDATE ${q(spec.ownerTable)} t SET ${spec.columns.map((c) => `${q(c)} = f.${q(c)}`).join(', ')}, date_last_modified = $2 ` +
    `FROM (${spec.select(owners)}) f WHERE t.tenant_id = $1 AND t.sourced_id = f.owner` +
    `${spec.appWritable ? ' AND t.owner_app_id IS NULL' : ''}${spec.keepWhen ? ` AND NOT (${spec.keepWhen})` : ''} AND ${differs(spec, 't', 'f')}`
  );
}

/** Fills the fold's columns of the owner file's staged rows (not its tombstones) from the active records. $1 tenant. */
export function fillStagedSql(spec: FoldSpec): string {
  const stg = q(`stg_${spec.ownerTable}`);
  return (
    `UPDATE ${stg} s SET ${spec.columns.map((c) => `${q(c)} = f.${q(c)}`).join(', ')} ` +
    `FROM (${spec.select(`(SELECT * FROM ${stg} WHERE NOT _tombstone)`)}) f WHERE s.sourced_id = f.owner AND NOT s._tombstone`
  );
}

/**
 * Staged owner rows of a delta file whose folded values differ from the stored ones take the
 * import's timestamp (their records changed now), not the row's own. $1 tenant.
 */
export function restampFoldedSql(ownerTable: string, columns: readonly string[]): string {
  const cols = (a: string) => `(${columns.map((c) => `${a}.${q(c)}`).join(', ')})`;
  return (
    `UPDATE ${q(`stg_${ownerTable}`)} s SET date_last_modified = NULL FROM ${q(ownerTable)} t ` +
    `WHERE t.tenant_id = $1 AND t.sourced_id = s.sourced_id AND NOT s._tombstone AND s.date_last_modified IS NOT NULL AND ${cols('t')} IS DISTINCT FROM ${cols('s')}`
  );
}

/** The last line of the records file naming a record of owner `owner` (0 when none does). $1 tenant. */
export function lastLineSql(spec: FoldSpec, owner: string): string {
  return (
    `coalesce((SELECT max(s._line) FROM ${q(recordStaging(spec))} s JOIN ${q(spec.recordTable)} x ON x.tenant_id = $1 AND x.sourced_id = s.sourced_id ` +
    `WHERE x.${q(spec.ownerColumn)} = ${owner}), 0)`
  );
}
