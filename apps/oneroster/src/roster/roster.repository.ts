import { Injectable } from '@nestjs/common';
import { quoteIdent, type RosterTable } from '../query/roster-tables';
import { SqlParams } from '../query/sql-params';
import type { OrdinalColumn } from './roster-operations';
import { GRADEBOOK_VERSION_SQL } from '../caching/data-versions';
import { RosterDb, type ValueRow } from '../db/roster-db';
import { LoadingCache } from '../common/loading-cache';
import type { RowSerializer } from './roster-serializer';
import { MAX_HISTOGRAM_BUCKETS, type StampBucket } from './stamp-histogram';

/** A row read by a serializer's columns (then any the statement adds after them). */
export type Row = ValueRow;

/**
 * A set of rows of one roster table aliased `t`: `where` holds the tenant condition (`$1`), the
 * operation's base set and the filter, with their values bound in `values`.
 */
export interface RowSet {
  readonly table: RosterTable;
  readonly where: string;
  readonly values: readonly unknown[];
}

/** Builds a row set: the tenant (`$1`) plus conditions whose placeholders are bound in `params`. */
export function rowSet(table: RosterTable, conditions: readonly string[], params: SqlParams): RowSet {
  return { table, where: ['t.tenant_id = $1::uuid', ...conditions].join(' AND '), values: params.values };
}

/** The rows of one class a sharing scope lists (`shared_objects`). */
export interface SharedList {
  readonly id: string;
  readonly object: string;
  /** The id's placeholder where the statement's values already hold it. */
  readonly param: string;
}

/** A page read by position: `from` is the first position, `position` the column's SQL (alias `t`). */
interface PositionRange {
  readonly table: string;
  readonly position: string;
  readonly from: number;
  readonly limit: number;
  readonly direction: 'asc' | 'desc';
}

/** The SQL of the rostering reads. Every statement is parameterised; identifiers come from the storage map. */
@Injectable()
export class RosterRepository {
  /** Scope ids known to keep, or not, a copy of their users. */
  private readonly copiedUsers = new LoadingCache<string, boolean>(10_000);

  constructor(private readonly db: RosterDb) {}

  private table(set: RowSet): string {
    return quoteIdent(set.table.table);
  }

  /** The one row of the set (the caller's conditions pin the sourcedId). */
  async findOne(set: RowSet, serializer: RowSerializer): Promise<Row | undefined> {
    const [row] = await this.db.valueRows(
      `SELECT ${serializer.columns} FROM ${this.table(set)} AS t WHERE ${set.where}`,
      [...set.values],
    );
    return row;
  }

  /** Whether the set has a row (a relationship read's parent exists). */
  async exists(set: RowSet): Promise<boolean> {
    const rows = await this.db.query(`SELECT 1 FROM ${this.table(set)} AS t WHERE ${set.where} LIMIT 1`, [
      ...set.values,
    ]);
    return rows.length > 0;
  }

  /**
   * A page in default order over a dense ordinal: an index range from the first position
   * (ascending: `>= from`; descending: `<= from`), never a skip over earlier rows.
   */
  ordinalPage(
    set: RowSet,
    ordinal: OrdinalColumn,
    serializer: RowSerializer,
    from: number,
    limit: number,
    direction: 'asc' | 'desc',
  ): Promise<Row[]> {
    const range = { table: this.table(set), position: `t.${quoteIdent(ordinal)}`, from, limit, direction };
    return this.positionRange(set, range, serializer);
  }

  /** Rows of `set` read from `range.table` (aliased `t`) from one dense position on, in its order. */
  private positionRange(set: RowSet, range: PositionRange, serializer: RowSerializer): Promise<Row[]> {
    const p = new SqlParams(set.values);
    const { position, direction } = range;
    const bound = `${position} ${direction === 'asc' ? '>=' : '<='} ${p.typed(range.from, 'bigint')}`;
    const sql = `SELECT ${serializer.columns} FROM ${range.table} AS t WHERE ${set.where} AND ${bound} ORDER BY ${position} ${direction === 'asc' ? 'ASC' : 'DESC'} LIMIT ${p.typed(range.limit, 'bigint')}`;
    return this.db.valueRows(sql, p.values);
  }

  /** Size of a set whose ordinals are dense: max + 1 (an index lookup). */
  async ordinalTotal(set: RowSet, ordinal: OrdinalColumn): Promise<number> {
    const ord = `t.${quoteIdent(ordinal)}`;
    const [row] = await this.db.query<{ n: string }>(
      `SELECT COALESCE(max(${ord}) + 1, 0)::bigint AS n FROM ${this.table(set)} AS t WHERE ${set.where}`,
      [...set.values],
    );
    return Number(row?.n ?? 0);
  }

  /**
   * A page in any order (`orderBy` from `sortToSql`), by LIMIT/OFFSET. Past the first page the
   * rows are picked whole first and formatted after the LIMIT: PostgreSQL computes a SELECT list
   * for every row it skips, so formatting (dates, JSON, derived reference lists) of the `offset`
   * rows before the page would otherwise cost more than finding them.
   */
  sortedPage(set: RowSet, orderBy: string, serializer: RowSerializer, offset: number, limit: number): Promise<Row[]> {
    const p = new SqlParams(set.values);
    const page = `FROM ${this.table(set)} AS t WHERE ${set.where} ORDER BY ${orderBy} LIMIT ${p.typed(limit, 'bigint')}`;
    if (offset === 0) return this.db.valueRows(`SELECT ${serializer.columns} ${page}`, p.values);
    // The page's rows keep the alias `t` and every column, so the SELECT list and the order apply to them unchanged.
    const sql = `SELECT ${serializer.columns} FROM (SELECT t.* ${page} OFFSET ${p.typed(offset, 'bigint')}) AS t ORDER BY ${orderBy}`;
    return this.db.valueRows(sql, p.values);
  }

  /** How many objects of one class a sharing scope lists (an index-only count). */
  async sharedTotal(scope: SharedList): Promise<number> {
    const [row] = await this.db.query<{ n: string }>(
      'SELECT count(*)::bigint AS n FROM shared_objects AS s WHERE s.scope_id = $1::bigint AND s.object = $2::text',
      [scope.id, scope.object],
    );
    return Number(row?.n ?? 0);
  }

  /**
   * A page of the rows a sharing scope lists (`total` of them), in default order. Users of a scope
   * that keeps a copy of them (`shared_user_rows`, at most MAX_COPIED_USERS) are an index range of
   * the copy, side by side in the scope's order. Otherwise the page's ids are an index range of
   * the scope's list (kept in ordinal order; the offset skips index entries only), then each row
   * is found by its primary key. `set` holds the operation's own conditions.
   */
  async sharedPage(
    set: RowSet,
    scope: SharedList,
    serializer: RowSerializer,
    offset: number,
    limit: number,
    direction: 'asc' | 'desc',
    total: number,
  ): Promise<Row[]> {
    // The copy has roster_users' columns: any other table of users (none today) reads by key.
    if (scope.object === 'user' && set.table.table === 'roster_users' && (await this.hasCopiedUsers(scope.id))) {
      // `pos` is dense (0..total-1 in the list's order): a page at any offset is an index range of
      // the copy, as an unshared page is of the ordinal; the serializer and conditions apply unchanged.
      const from = direction === 'asc' ? offset : total - 1 - offset;
      const where = `t.scope_id = ${scope.param} AND ${set.where}`;
      const range = { table: 'shared_user_rows', position: 't.pos', from, limit, direction };
      return this.positionRange({ ...set, where }, range, serializer);
    }
    const p = new SqlParams(set.values);
    const dir = direction === 'asc' ? 'ASC' : 'DESC';
    const ids = `SELECT s.sourced_id, s.ord FROM shared_objects AS s WHERE s.scope_id = ${scope.param} AND s.object = ${p.typed(scope.object, 'text')} ORDER BY s.ord ${dir} LIMIT ${p.typed(limit, 'bigint')} OFFSET ${p.typed(offset, 'bigint')}`;
    const sql = `SELECT ${serializer.columns} FROM (${ids}) AS page JOIN ${this.table(set)} AS t ON t.tenant_id = $1::uuid AND t.sourced_id = page.sourced_id WHERE ${set.where} ORDER BY page.ord ${dir}`;
    return this.db.valueRows(sql, p.values);
  }

  /** Whether the scope keeps a copy of its users (written with the scope, so known once per id). */
  private hasCopiedUsers(scopeId: string): Promise<boolean> {
    return this.copiedUsers.get(scopeId, async () => {
      const rows = await this.db.query('SELECT 1 FROM shared_user_rows WHERE scope_id = $1::bigint LIMIT 1', [scopeId]);
      return rows.length > 0;
    });
  }

  /** The size of a set of gradebook rows, with the tenant's gradebook version in the same snapshot. */
  async countAtGradebookVersion(set: RowSet): Promise<{ total: number; gradebookVersion: string }> {
    const [row] = await this.db.query<{ n: string; v: string }>(
      `SELECT count(*)::bigint AS n, ${GRADEBOOK_VERSION_SQL} AS v FROM ${this.table(set)} AS t WHERE ${set.where}`,
      [...set.values],
    );
    return { total: Number(row?.n ?? 0), gradebookVersion: String(row?.v ?? '0') };
  }

  async count(set: RowSet): Promise<number> {
    const [row] = await this.db.query<{ n: string }>(
      `SELECT count(*)::bigint AS n FROM ${this.table(set)} AS t WHERE ${set.where}`,
      [...set.values],
    );
    return Number(row?.n ?? 0);
  }

  /** (status, dateLastModified) pairs of the set with their counts; null beyond MAX_HISTOGRAM_BUCKETS pairs. */
  async stampHistogram(set: RowSet): Promise<StampBucket[] | null> {
    const p = new SqlParams(set.values);
    const rows = await this.db.query<{ status: string; micros: string; n: string }>(
      `SELECT t.status, (extract(epoch FROM t.date_last_modified) * 1000000)::bigint AS micros, count(*)::bigint AS n FROM ${this.table(set)} AS t WHERE ${set.where} GROUP BY 1, 2 LIMIT ${p.typed(MAX_HISTOGRAM_BUCKETS + 1, 'integer')}`,
      p.values,
    );
    if (rows.length > MAX_HISTOGRAM_BUCKETS) return null;
    return rows.map((r) => ({ status: r.status, micros: Number(r.micros), count: Number(r.n) }));
  }
}
