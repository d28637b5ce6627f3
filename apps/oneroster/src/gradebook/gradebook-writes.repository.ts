/**
 * The SQL of the gradebook writes, run inside the caller's transaction. Identifiers come only
 * from the constants here; every value is a `$n` parameter.
 *
 * `date_last_modified` is set by the server on every change: the transaction's clock in whole
 * milliseconds (the precision the API prints, so `dateLastModified>'<printed value>'` excludes
 * the row), and always after the row's previous value, so two changes within one millisecond
 * are still seen by a delta reader.
 */
import { Injectable } from '@nestjs/common';
import { quoteIdent } from '../query/roster-tables';
import { SqlParams } from '../query/sql-params';
import type { SqlTransaction } from '../roster/roster-db';
import type { RowSerializer } from '../roster/roster-serializer';
import type { GradebookClass } from './gradebook-input';

/** A value for one column, with its PostgreSQL type. */
export interface ColumnValue {
  readonly column: string;
  readonly value: unknown;
  readonly type: 'text' | 'timestamptz' | 'date' | 'double precision' | 'jsonb';
}

export const GRADEBOOK_TABLE: Readonly<Record<GradebookClass, string>> = {
  category: 'gradebook_categories',
  lineItem: 'gradebook_line_items',
  result: 'gradebook_results',
};

const NOW = `date_trunc('milliseconds', clock_timestamp())`;
const NEXT_STAMP = `GREATEST(${NOW}, date_last_modified + interval '1 millisecond')`;

export interface StoredState {
  readonly ownerAppId: string | null;
  readonly status: string;
}

export interface RefState {
  readonly status: string;
}

export interface StudentState {
  readonly status: string;
  readonly role: string;
  /** An active `student` enrollment in the class asked about. */
  readonly enrolled: boolean;
}

@Injectable()
export class GradebookWritesRepository {
  /** Owner and status of a stored object (any status), or undefined. */
  async state(tx: SqlTransaction, kind: GradebookClass, tenantId: string, id: string): Promise<StoredState | undefined> {
    const [row] = await tx.query<{ owner_app_id: string | null; status: string }>(
      `SELECT owner_app_id, status FROM ${quoteIdent(GRADEBOOK_TABLE[kind])} WHERE tenant_id = $1::uuid AND sourced_id = $2::text`,
      [tenantId, id],
    );
    return row ? { ownerAppId: row.owner_app_id, status: row.status } : undefined;
  }

  /**
   * Inserts a new object owned by `appId` and returns it through the read path's serializer;
   * undefined when a row with that id appeared meanwhile.
   */
  async insert(
    tx: SqlTransaction,
    kind: GradebookClass,
    tenantId: string,
    id: string,
    appId: string,
    values: readonly ColumnValue[],
    serializer: RowSerializer,
  ): Promise<Record<string, unknown> | undefined> {
    const p = new SqlParams([tenantId, id, appId]);
    const columns = ['tenant_id', 'sourced_id', 'owner_app_id', 'status', 'date_last_modified', ...values.map((v) => v.column)];
    const placeholders = ['$1::uuid', '$2::text', '$3::uuid', `'active'`, NOW, ...values.map((v) => typed(p, v))];
    const { rows } = await tx.execute<Record<string, unknown>>(
      `INSERT INTO ${quoteIdent(GRADEBOOK_TABLE[kind])} AS t (${columns.map(quoteIdent).join(', ')}) VALUES (${placeholders.join(', ')}) ` +
        `ON CONFLICT (tenant_id, sourced_id) DO NOTHING RETURNING ${serializer.columns}`,
      p.values,
    );
    return rows[0];
  }

  /**
   * Replaces an object of `appId` (and makes it active again): written only when some value
   * differs, so a PUT of identical content leaves `dateLastModified` alone. Returns the written
   * object through the read path's serializer; undefined when nothing was written.
   */
  async replace(
    tx: SqlTransaction,
    kind: GradebookClass,
    tenantId: string,
    id: string,
    appId: string,
    values: readonly ColumnValue[],
    serializer: RowSerializer,
  ): Promise<Record<string, unknown> | undefined> {
    const p = new SqlParams([tenantId, id, appId]);
    const sets = values.map((v) => `${quoteIdent(v.column)} = ${typed(p, v)}`);
    const columns = ['status', ...values.map((v) => v.column)].map((c) => `t.${quoteIdent(c)}`);
    // Values are re-bound for the comparison: each placeholder has one type.
    const news = [`'active'`, ...values.map((v) => typed(p, v))];
    const { rows } = await tx.execute<Record<string, unknown>>(
      `UPDATE ${quoteIdent(GRADEBOOK_TABLE[kind])} AS t SET status = 'active', date_last_modified = ${NEXT_STAMP}, ${sets.join(', ')} ` +
        `WHERE t.tenant_id = $1::uuid AND t.sourced_id = $2::text AND t.owner_app_id = $3::uuid AND (${columns.join(', ')}) IS DISTINCT FROM (${news.join(', ')}) ` +
        `RETURNING ${serializer.columns}`,
      p.values,
    );
    return rows[0];
  }

  /** Tombstones an active object of `appId`; true when it was active. */
  async tombstone(tx: SqlTransaction, kind: GradebookClass, tenantId: string, id: string, appId: string): Promise<boolean> {
    const { count } = await tx.execute(
      `UPDATE ${quoteIdent(GRADEBOOK_TABLE[kind])} SET status = 'tobedeleted', date_last_modified = ${NEXT_STAMP} ` +
        `WHERE tenant_id = $1::uuid AND sourced_id = $2::text AND owner_app_id = $3::uuid AND status = 'active'`,
      [tenantId, id, appId],
    );
    return count === 1;
  }

  /** Tombstones the active results of a line item, whoever wrote them; returns how many. */
  async tombstoneResultsOf(tx: SqlTransaction, tenantId: string, lineItemId: string): Promise<number> {
    const { count } = await tx.execute(
      `UPDATE gradebook_results SET status = 'tobedeleted', date_last_modified = ${NEXT_STAMP} WHERE tenant_id = $1::uuid AND line_item_sourced_id = $2::text AND status = 'active'`,
      [tenantId, lineItemId],
    );
    return count;
  }

  /** The stored object as JSON, through the read path's serializer. */
  async read(tx: SqlTransaction, kind: GradebookClass, tenantId: string, id: string, serializer: RowSerializer): Promise<Record<string, unknown> | undefined> {
    const [row] = await tx.query<Record<string, unknown>>(
      `SELECT ${serializer.columns} FROM ${quoteIdent(GRADEBOOK_TABLE[kind])} AS t WHERE t.tenant_id = $1::uuid AND t.sourced_id = $2::text`,
      [tenantId, id],
    );
    return row;
  }

  /** Status of a referenced class, category or academic session of the tenant. */
  async refState(tx: SqlTransaction, table: 'roster_classes' | 'gradebook_categories' | 'roster_academic_sessions', tenantId: string, id: string): Promise<RefState | undefined> {
    const [row] = await tx.query<{ status: string }>(`SELECT status FROM ${quoteIdent(table)} WHERE tenant_id = $1::uuid AND sourced_id = $2::text`, [tenantId, id]);
    return row;
  }

  /**
   * A line item a result names, share-locked until the transaction ends: a concurrent DELETE
   * of the line item (which tombstones its results) waits for this result, or this result for
   * it, so no active result outlives its line item.
   */
  async lockLineItem(tx: SqlTransaction, tenantId: string, id: string): Promise<{ status: string; classId: string } | undefined> {
    const [row] = await tx.query<{ status: string; class_sourced_id: string }>(
      `SELECT status, class_sourced_id FROM gradebook_line_items WHERE tenant_id = $1::uuid AND sourced_id = $2::text FOR SHARE`,
      [tenantId, id],
    );
    return row ? { status: row.status, classId: row.class_sourced_id } : undefined;
  }

  /** A user with their role and whether they hold an active student enrollment in the class. */
  async student(tx: SqlTransaction, tenantId: string, userId: string, classId: string): Promise<StudentState | undefined> {
    const [row] = await tx.query<{ status: string; role: string; enrolled: boolean }>(
      `SELECT u.status, u.role, EXISTS (SELECT 1 FROM roster_enrollments AS e WHERE e.tenant_id = $1::uuid AND e.class_sourced_id = $3::text ` +
        `AND e.user_sourced_id = u.sourced_id AND e.role = 'student' AND e.status = 'active') AS enrolled ` +
        `FROM roster_users AS u WHERE u.tenant_id = $1::uuid AND u.sourced_id = $2::text`,
      [tenantId, userId, classId],
    );
    return row;
  }
}

function typed(p: SqlParams, v: ColumnValue): string {
  if (v.type === 'jsonb') return `${p.add(v.value === null ? null : JSON.stringify(v.value))}::jsonb`;
  return p.typed(v.value, v.type);
}
