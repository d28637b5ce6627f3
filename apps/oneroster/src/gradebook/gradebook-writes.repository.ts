import { visibleCondition } from '@edu/sharing';
/**
 * The SQL of the gradebook writes, run inside the caller's transaction. Identifiers come only
 * from the constants of `gradebook-classes.ts` and `gradebook-shapes.ts`; every value is a `$n`
 * parameter.
 *
 * `date_last_modified` is set by the server on every change: the transaction's clock in whole
 * milliseconds (the precision the API prints, so `dateLastModified>'<printed value>'` excludes
 * the row), and always after the row's previous value, so two changes within one millisecond
 * are still seen by a delta reader.
 */
import { Injectable } from '@nestjs/common';
import { quoteIdent } from '../query/roster-tables';
import { SqlParams } from '../query/sql-params';
import type { SqlTransaction, ValueRow } from '../db/roster-db';
import { GRADEBOOK, type GradebookClass } from './gradebook-classes';
import type { ColumnValue } from './gradebook-input';
import type { RefTable } from './gradebook-shapes';

const NOW = `date_trunc('milliseconds', clock_timestamp())`;
const NEXT_STAMP = `GREATEST(${NOW}, date_last_modified + interval '1 millisecond')`;

export interface StoredState {
  readonly ownerAppId: string | null;
  readonly status: string;
}

export interface StudentState {
  readonly status: string;
  readonly role: string;
  /** Role `student` (v1.1 column) or a `student` entry in the v1.2 roles. */
  readonly isStudent: boolean;
  /** An active `student` enrollment in the class asked about. */
  readonly enrolled: boolean;
}

export interface LineItemState {
  readonly status: string;
  readonly classId: string;
  readonly academicSessionId: string | null;
  readonly gradingPeriodId: string | null;
}

const table = (kind: GradebookClass) => quoteIdent(GRADEBOOK[kind].table);

@Injectable()
export class GradebookWritesRepository {
  /** Owner and status of a stored object (any status), or undefined. */
  async state(
    tx: SqlTransaction,
    kind: GradebookClass,
    tenantId: string,
    id: string,
  ): Promise<StoredState | undefined> {
    const [row] = await tx.query<{ owner_app_id: string | null; status: string }>(
      `SELECT owner_app_id, status FROM ${table(kind)} WHERE tenant_id = $1::uuid AND sourced_id = $2::text`,
      [tenantId, id],
    );
    return row ? { ownerAppId: row.owner_app_id, status: row.status } : undefined;
  }

  /**
   * Inserts a new object owned by `appId`, returning `returning` (a SELECT list over alias `t`,
   * e.g. the read path's serializer columns); undefined when a row with that id appeared meanwhile.
   */
  async insert(
    tx: SqlTransaction,
    kind: GradebookClass,
    tenantId: string,
    id: string,
    appId: string,
    values: readonly ColumnValue[],
    returning: string,
  ): Promise<ValueRow | undefined> {
    const p = new SqlParams([tenantId, id, appId]);
    const columns = [
      'tenant_id',
      'sourced_id',
      'owner_app_id',
      'status',
      'date_last_modified',
      ...values.map((v) => v.column),
    ];
    const placeholders = ['$1::uuid', '$2::text', '$3::uuid', `'active'`, NOW, ...values.map((v) => typed(p, v))];
    const [row] = await tx.valueRows(
      `INSERT INTO ${table(kind)} AS t (${columns.map(quoteIdent).join(', ')}) VALUES (${placeholders.join(', ')}) ` +
        `ON CONFLICT (tenant_id, sourced_id) DO NOTHING RETURNING ${returning}`,
      p.values,
    );
    return row;
  }

  /**
   * Replaces the given columns of an object of `appId` (and makes it active again): written only
   * when some value differs, so a PUT of identical content leaves `dateLastModified` alone.
   * Columns not given keep their values. Returns `returning`; undefined when nothing was written.
   */
  async replace(
    tx: SqlTransaction,
    kind: GradebookClass,
    tenantId: string,
    id: string,
    appId: string,
    values: readonly ColumnValue[],
    returning: string,
  ): Promise<ValueRow | undefined> {
    const p = new SqlParams([tenantId, id, appId]);
    const sets = values.map((v) => `${quoteIdent(v.column)} = ${typed(p, v)}`);
    const columns = ['status', ...values.map((v) => v.column)].map((c) => `t.${quoteIdent(c)}`);
    // Values are re-bound for the comparison: each placeholder has one type.
    const news = [`'active'`, ...values.map((v) => typed(p, v))];
    const [row] = await tx.valueRows(
      `UPDATE ${table(kind)} AS t SET status = 'active', date_last_modified = ${NEXT_STAMP}, ${sets.join(', ')} ` +
        `WHERE t.tenant_id = $1::uuid AND t.sourced_id = $2::text AND t.owner_app_id = $3::uuid AND (${columns.join(', ')}) IS DISTINCT FROM (${news.join(', ')}) ` +
        `RETURNING ${returning}`,
      p.values,
    );
    return row;
  }

  /** The stored object, as `returning`. */
  async read(
    tx: SqlTransaction,
    kind: GradebookClass,
    tenantId: string,
    id: string,
    returning: string,
  ): Promise<ValueRow | undefined> {
    const [row] = await tx.valueRows(
      `SELECT ${returning} FROM ${table(kind)} AS t WHERE t.tenant_id = $1::uuid AND t.sourced_id = $2::text`,
      [tenantId, id],
    );
    return row;
  }

  /** Tombstones an active object of `appId`; true when it was active. */
  async tombstone(
    tx: SqlTransaction,
    kind: GradebookClass,
    tenantId: string,
    id: string,
    appId: string,
  ): Promise<boolean> {
    const { count } = await tx.execute(
      `UPDATE ${table(kind)} SET status = 'tobedeleted', date_last_modified = ${NEXT_STAMP} ` +
        `WHERE tenant_id = $1::uuid AND sourced_id = $2::text AND owner_app_id = $3::uuid AND status = 'active'`,
      [tenantId, id, appId],
    );
    return count === 1;
  }

  /** Tombstones the active dependents of an object (a line item's results), whoever wrote them; returns how many. */
  async tombstoneDependents(tx: SqlTransaction, kind: GradebookClass, tenantId: string, id: string): Promise<number> {
    const dependents = GRADEBOOK[kind].dependents;
    if (!dependents) return 0;
    const { count } = await tx.execute(
      `UPDATE ${quoteIdent(dependents.table)} SET status = 'tobedeleted', date_last_modified = ${NEXT_STAMP} ` +
        `WHERE tenant_id = $1::uuid AND ${quoteIdent(dependents.column)} = $2::text AND status = 'active'`,
      [tenantId, id],
    );
    return count;
  }

  /** Status of a referenced row of the tenant. */
  async refStatus(tx: SqlTransaction, refTable: RefTable, tenantId: string, id: string): Promise<string | undefined> {
    const [row] = await tx.query<{ status: string }>(
      `SELECT status FROM ${quoteIdent(refTable)} WHERE tenant_id = $1::uuid AND sourced_id = $2::text`,
      [tenantId, id],
    );
    return row?.status;
  }

  /**
   * Whether the deployment's sharing scope lets it see a row (a reference it writes, an object it
   * deletes): the read path's visibility condition over that one row.
   */
  async visibleToScope(
    tx: SqlTransaction,
    resource: string,
    table: string,
    tenantId: string,
    id: string,
    scopeId: string,
  ): Promise<boolean> {
    const condition = visibleCondition(resource, '$3::bigint', 'p');
    if (!condition) return true;
    const rows = await tx.query(
      `SELECT 1 FROM ${quoteIdent(table)} AS p WHERE p.tenant_id = $1::uuid AND p.sourced_id = $2::text AND ${condition}`,
      [tenantId, id, scopeId],
    );
    return rows.length > 0;
  }

  /** The school of a class of the tenant. */
  async schoolOfClass(tx: SqlTransaction, tenantId: string, classId: string): Promise<string | undefined> {
    const [row] = await tx.query<{ school_sourced_id: string }>(
      `SELECT school_sourced_id FROM roster_classes WHERE tenant_id = $1::uuid AND sourced_id = $2::text`,
      [tenantId, classId],
    );
    return row?.school_sourced_id;
  }

  /**
   * A line item a result names, share-locked until the transaction ends: a concurrent DELETE
   * of the line item (which tombstones its results) waits for this result, or this result for
   * it, so no active result outlives its line item.
   */
  async lockLineItem(tx: SqlTransaction, tenantId: string, id: string): Promise<LineItemState | undefined> {
    const [row] = await tx.query<{
      status: string;
      class_sourced_id: string;
      academic_session_sourced_id: string | null;
      grading_period_sourced_id: string | null;
    }>(
      `SELECT status, class_sourced_id, academic_session_sourced_id, grading_period_sourced_id FROM gradebook_line_items WHERE tenant_id = $1::uuid AND sourced_id = $2::text FOR SHARE`,
      [tenantId, id],
    );
    return row
      ? {
          status: row.status,
          classId: row.class_sourced_id,
          academicSessionId: row.academic_session_sourced_id,
          gradingPeriodId: row.grading_period_sourced_id,
        }
      : undefined;
  }

  /**
   * `lockLineItem` and `student` in one round trip, for a result: the line item share-locked, and
   * the student with whether they hold an active student enrollment in the line item's class.
   */
  async lockLineItemWithStudent(
    tx: SqlTransaction,
    tenantId: string,
    lineItemId: string,
    studentId: string,
  ): Promise<{ lineItem?: LineItemState; student?: StudentState }> {
    const [row] = await tx.query<{
      li_status: string | null;
      class_sourced_id: string;
      academic_session_sourced_id: string | null;
      grading_period_sourced_id: string | null;
      user_status: string | null;
      role: string;
      is_student: boolean;
      enrolled: boolean;
    }>(
      `SELECT li.status AS li_status, li.class_sourced_id, li.academic_session_sourced_id, li.grading_period_sourced_id, ` +
        `u.status AS user_status, u.role, (u.role = 'student' OR u.roles @> '[{"role": "student"}]'::jsonb) AS is_student, ` +
        `EXISTS (SELECT 1 FROM roster_enrollments AS e WHERE e.tenant_id = $1::uuid AND e.class_sourced_id = li.class_sourced_id ` +
        `AND e.user_sourced_id = u.sourced_id AND e.role = 'student' AND e.status = 'active') AS enrolled ` +
        `FROM (SELECT 1) AS one ` +
        `LEFT JOIN (SELECT status, class_sourced_id, academic_session_sourced_id, grading_period_sourced_id FROM gradebook_line_items WHERE tenant_id = $1::uuid AND sourced_id = $2::text FOR SHARE) AS li ON true ` +
        `LEFT JOIN roster_users AS u ON u.tenant_id = $1::uuid AND u.sourced_id = $3::text`,
      [tenantId, lineItemId, studentId],
    );
    if (!row) return {};
    return {
      lineItem:
        row.li_status === null
          ? undefined
          : {
              status: row.li_status,
              classId: row.class_sourced_id,
              academicSessionId: row.academic_session_sourced_id,
              gradingPeriodId: row.grading_period_sourced_id,
            },
      student:
        row.user_status === null
          ? undefined
          : { status: row.user_status, role: row.role, isStudent: row.is_student, enrolled: row.enrolled },
    };
  }

  /** An assessment line item an assessment result names, share-locked (as `lockLineItem`); its status. */
  async lockAssessmentLineItem(tx: SqlTransaction, tenantId: string, id: string): Promise<string | undefined> {
    const [row] = await tx.query<{ status: string }>(
      `SELECT status FROM gradebook_assessment_line_items WHERE tenant_id = $1::uuid AND sourced_id = $2::text FOR SHARE`,
      [tenantId, id],
    );
    return row?.status;
  }

  /** A user with their role and whether they hold an active student enrollment in the class (none asked: false). */
  async student(
    tx: SqlTransaction,
    tenantId: string,
    userId: string,
    classId: string | null,
  ): Promise<StudentState | undefined> {
    const [row] = await tx.query<{ status: string; role: string; is_student: boolean; enrolled: boolean }>(
      `SELECT u.status, u.role, (u.role = 'student' OR u.roles @> '[{"role": "student"}]'::jsonb) AS is_student, ` +
        `EXISTS (SELECT 1 FROM roster_enrollments AS e WHERE e.tenant_id = $1::uuid AND e.class_sourced_id = $3::text ` +
        `AND e.user_sourced_id = u.sourced_id AND e.role = 'student' AND e.status = 'active') AS enrolled ` +
        `FROM roster_users AS u WHERE u.tenant_id = $1::uuid AND u.sourced_id = $2::text`,
      [tenantId, userId, classId],
    );
    return row ? { status: row.status, role: row.role, isStudent: row.is_student, enrolled: row.enrolled } : undefined;
  }

  /**
   * Whether making `parentId` the parent of assessment line item `id` closes a cycle: `id` is
   * `parentId` or one of its ancestors. Writes that set a parent are serialised per tenant
   * (a transaction-scoped advisory lock), so two concurrent writes cannot close one together.
   */
  async closesCycle(tx: SqlTransaction, tenantId: string, id: string, parentId: string): Promise<boolean> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('gradebook_assessment_tree:' || $1::text))`, [tenantId]);
    const [row] = await tx.query<{ cycle: boolean }>(
      `WITH RECURSIVE up(id) AS (SELECT $3::text UNION SELECT a.parent_sourced_id FROM up JOIN gradebook_assessment_line_items AS a ` +
        `ON a.tenant_id = $1::uuid AND a.sourced_id = up.id COLLATE "C" WHERE a.parent_sourced_id IS NOT NULL) SELECT EXISTS (SELECT 1 FROM up WHERE up.id = $2::text) AS cycle`,
      [tenantId, id, parentId],
    );
    return row?.cycle === true;
  }
}

function typed(p: SqlParams, v: ColumnValue): string {
  if (v.type === 'jsonb') return `${p.add(v.value === null ? null : JSON.stringify(v.value))}::jsonb`;
  return p.typed(v.value, v.type);
}
