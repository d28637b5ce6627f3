import { Injectable } from '@nestjs/common';
import { ApiError, ApiErrorCode, isUuid } from '@edu/domain';
import { excerpt, RESOURCE_KEYS } from '@edu/oneroster-query';
import { tableOf } from '../query/roster-tables-v1p2';
import { RosterDb, type SqlTransaction } from '../roster/roster-db';
import { rowSerializer } from '../roster/roster-serializer';
import type { RequestInfo, RosterResponse } from '../roster/roster.service';
import type { TenantAccess } from '../tenancy/tenant-access.service';
import {
  checkSourcedId,
  GradebookInputError,
  readGradebookBody,
  type CategoryInput,
  type GradebookClass,
  type GradebookInputs,
  type LineItemInput,
  type ResultInput,
} from './gradebook-input';
import { GradebookWritesRepository, type ColumnValue } from './gradebook-writes.repository';

const NOUN: Readonly<Record<GradebookClass, string>> = { category: 'category', lineItem: 'line item', result: 'result' };
const COLLECTION: Readonly<Record<GradebookClass, string>> = { category: 'categories', lineItem: 'lineItems', result: 'results' };

/** The outcome of a PUT: created (201) or replaced (200), with the stored object. */
export interface PutOutcome extends RosterResponse {
  readonly created: boolean;
}

function invalid(field: string, message: string): ApiError {
  return new ApiError(ApiErrorCode.ValidationFailed, message, { parameter: field });
}

/**
 * PUT and DELETE of categories, line items and results (reference §6.3), for the app of a
 * tenant-context token:
 *
 * - PUT creates (201) or replaces (200) the object at the path's sourcedId, in one transaction:
 *   body checks, then ownership, then references, then the write, which returns the stored object
 *   through the read path's serializer. Nothing is written when any check fails.
 * - The app that created an object owns it: other apps may read it but not replace or delete it
 *   (403 `unauthorisedrequest`). Imported objects (CSV) belong to the import: no app may.
 * - DELETE tombstones (`tobedeleted`, `dateLastModified` bumped): the object then reads as 404
 *   and shows in delta reads. A line item takes its results with it. A PUT on a deleted object
 *   re-creates it (201) for its owner.
 * - References must name active objects of the tenant: the line item's class, category and
 *   grading period (any academic session), the result's line item and student (a user with role
 *   student and an active student enrollment in the line item's class).
 */
@Injectable()
export class GradebookWritesService {
  constructor(
    private readonly db: RosterDb,
    private readonly repo: GradebookWritesRepository,
  ) {}

  async put(kind: GradebookClass, access: TenantAccess, appId: string, id: string, body: unknown, info: RequestInfo): Promise<PutOutcome> {
    const idProblem = checkSourcedId(id);
    if (idProblem) throw invalid('sourcedId', `The sourcedId in the path ${idProblem}`);
    let input: GradebookInputs[typeof kind];
    try {
      input = readGradebookBody(kind, body, id);
    } catch (err) {
      if (err instanceof GradebookInputError) throw invalid(err.field, err.message);
      throw err;
    }
    const owner = ownerOf(appId);
    const serializer = rowSerializer(tableOf(kind, 'v1p1'), undefined, { dateMode: access.output.dateMode, booleans: access.output.booleans, hrefRoots: info.hrefRoots });
    const tenantId = access.tenantId;

    return this.db.transaction(async (tx) => {
      const before = await this.repo.state(tx, kind, tenantId, id);
      if (before) this.assertOwner(kind, id, before.ownerAppId, owner);
      const values = await this.checkReferences(tx, kind, tenantId, input);
      let created = !before || before.status !== 'active';
      let row = before ? undefined : await this.repo.insert(tx, kind, tenantId, id, owner, values, serializer);
      if (!before && !row) {
        // Another request created it between our read and our insert: replace it if ours.
        const now = await this.repo.state(tx, kind, tenantId, id);
        this.assertOwner(kind, id, now?.ownerAppId ?? null, owner);
        created = now?.status !== 'active';
      }
      // The written row comes back from the write itself; a replace that changed nothing is read.
      row ??= (await this.repo.replace(tx, kind, tenantId, id, owner, values, serializer)) ?? (await this.repo.read(tx, kind, tenantId, id, serializer));
      if (!row) throw new Error(`${kind} ${id} vanished inside its own transaction`);
      // A header is ASCII: the id fully percent-encoded (the body's href is the same IRI, escaped as in every href).
      const headers: Record<string, string> = created ? { Location: `${info.hrefRoots.gradebook}/${COLLECTION[kind]}/${encodeURIComponent(id)}` } : {};
      return { created, headers, body: `{${JSON.stringify(RESOURCE_KEYS[kind].single)}:${serializer.write(row)}}` };
    });
  }

  async delete(kind: GradebookClass, access: TenantAccess, appId: string, id: string): Promise<void> {
    const owner = ownerOf(appId);
    const tenantId = access.tenantId;
    const notFound = () => new ApiError(ApiErrorCode.NotFound, `No ${NOUN[kind]} with sourcedId '${excerpt(id)}'`);
    if (checkSourcedId(id)) throw notFound();
    await this.db.transaction(async (tx) => {
      const before = await this.repo.state(tx, kind, tenantId, id);
      if (!before || before.status !== 'active') throw notFound();
      this.assertOwner(kind, id, before.ownerAppId, owner);
      if (!(await this.repo.tombstone(tx, kind, tenantId, id, owner))) throw notFound(); // deleted meanwhile
      if (kind === 'lineItem') await this.repo.tombstoneResultsOf(tx, tenantId, id);
    });
  }

  private assertOwner(kind: GradebookClass, id: string, stored: string | null, caller: string): void {
    if (stored === caller) return;
    const who = stored === null ? "the school's data import" : 'another app';
    throw new ApiError(ApiErrorCode.InsufficientScope, `The ${NOUN[kind]} '${excerpt(id)}' was created by ${who}; only its creator may replace or delete it`, {
      imsxCodeMinor: 'unauthorisedrequest',
    });
  }

  /** Checks every reference of the input (400 naming the field) and returns the columns to store. */
  private async checkReferences(tx: SqlTransaction, kind: GradebookClass, tenantId: string, input: GradebookInputs[GradebookClass]): Promise<ColumnValue[]> {
    switch (kind) {
      case 'category':
        return categoryColumns(input as CategoryInput);
      case 'lineItem':
        return this.lineItemColumns(tx, tenantId, input as LineItemInput);
      case 'result':
        return this.resultColumns(tx, tenantId, input as ResultInput);
    }
  }

  private async lineItemColumns(tx: SqlTransaction, tenantId: string, li: LineItemInput): Promise<ColumnValue[]> {
    await this.activeRef(tx, 'roster_classes', tenantId, li.classId, 'lineItem.class', 'class');
    if (li.categoryId !== null) await this.activeRef(tx, 'gradebook_categories', tenantId, li.categoryId, 'lineItem.category', 'category');
    if (li.gradingPeriodId !== null) await this.activeRef(tx, 'roster_academic_sessions', tenantId, li.gradingPeriodId, 'lineItem.gradingPeriod', 'academic session');
    return [
      { column: 'title', value: li.title, type: 'text' },
      { column: 'description', value: li.description, type: 'text' },
      { column: 'assign_date', value: li.assignDate, type: 'timestamptz' },
      { column: 'due_date', value: li.dueDate, type: 'timestamptz' },
      { column: 'class_sourced_id', value: li.classId, type: 'text' },
      { column: 'category_sourced_id', value: li.categoryId, type: 'text' },
      { column: 'grading_period_sourced_id', value: li.gradingPeriodId, type: 'text' },
      { column: 'result_value_min', value: li.resultValueMin, type: 'double precision' },
      { column: 'result_value_max', value: li.resultValueMax, type: 'double precision' },
      { column: 'metadata', value: li.metadata, type: 'jsonb' },
    ];
  }

  private async resultColumns(tx: SqlTransaction, tenantId: string, r: ResultInput): Promise<ColumnValue[]> {
    const lineItem = await this.repo.lockLineItem(tx, tenantId, r.lineItemId);
    if (!lineItem || lineItem.status !== 'active') throw invalid('result.lineItem', `result.lineItem '${excerpt(r.lineItemId)}' is not an active line item of this tenant`);
    const student = await this.repo.student(tx, tenantId, r.studentId, lineItem.classId);
    if (!student || student.status !== 'active') throw invalid('result.student', `result.student '${excerpt(r.studentId)}' is not an active user of this tenant`);
    if (student.role !== 'student') throw invalid('result.student', `result.student '${excerpt(r.studentId)}' is a ${student.role}, not a student`);
    if (!student.enrolled) {
      throw invalid('result.student', `result.student '${excerpt(r.studentId)}' is not enrolled as a student in class '${excerpt(lineItem.classId)}' of line item '${excerpt(r.lineItemId)}'`);
    }
    return [
      { column: 'line_item_sourced_id', value: r.lineItemId, type: 'text' },
      { column: 'student_sourced_id', value: r.studentId, type: 'text' },
      { column: 'score_status', value: r.scoreStatus, type: 'text' },
      { column: 'score', value: r.score, type: 'double precision' },
      { column: 'score_date', value: r.scoreDate, type: 'date' },
      { column: 'comment', value: r.comment, type: 'text' },
      { column: 'metadata', value: r.metadata, type: 'jsonb' },
    ];
  }

  private async activeRef(
    tx: SqlTransaction,
    table: 'roster_classes' | 'gradebook_categories' | 'roster_academic_sessions',
    tenantId: string,
    id: string,
    field: string,
    noun: string,
  ): Promise<void> {
    const ref = await this.repo.refState(tx, table, tenantId, id);
    if (!ref || ref.status !== 'active') throw invalid(field, `${field} '${excerpt(id)}' is not an active ${noun} of this tenant`);
  }
}

function categoryColumns(c: CategoryInput): ColumnValue[] {
  return [
    { column: 'title', value: c.title, type: 'text' },
    { column: 'metadata', value: c.metadata, type: 'jsonb' },
  ];
}

/** The app id a write is recorded under: the token's `sub`, which must be an app id. */
function ownerOf(appId: string): string {
  if (!isUuid(appId)) throw new ApiError(ApiErrorCode.InsufficientScope, 'The token names no app that could own gradebook objects');
  return appId.toLowerCase();
}
