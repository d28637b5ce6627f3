/**
 * The references of a write, checked inside its transaction. Every failure names the field
 * (`lineItem.class`, `results[2].student`) and is refused as invalid data; nothing is written.
 *
 * - Fields marked `active` in the shape name an active row of that table of the tenant.
 * - Then each class's own rules: a line item's school is its class's; a result's line item is
 *   an active line item (share-locked) and its student an active student enrolled in that line
 *   item's class, its class (v1.2, never stored) that line item's; a score scale is stored with
 *   its class's school (`getScoreScalesForSchool`); an assessment line item's parent is an active
 *   assessment line item that is not itself and not below it; an assessment result's assessment
 *   line item is active (share-locked) and its student an active user with a student role.
 */
import { Injectable } from '@nestjs/common';
import { excerpt } from '@edu/oneroster-query';
import type { SqlTransaction } from '../db/roster-db';
import type { GradebookClass } from './gradebook-classes';
import type { FieldReader } from './gradebook-fields';
import { shapeOf, type ColumnValue } from './gradebook-input';
import type { BodyDialect, Values } from './gradebook-shapes';
import { GradebookWritesRepository, type StudentState } from './gradebook-writes.repository';

/** One object being written: where, by whom, what it holds, and the reader whose paths errors name. */
export interface RefContext {
  readonly tx: SqlTransaction;
  readonly tenantId: string;
  readonly id: string;
  readonly values: Values;
  readonly r: FieldReader;
  /** The writer's sharing scope: references it may not see are refused like unknown ones (null: sees everything). */
  readonly scope: string | null;
}

/** The OneRoster class of each table a reference is checked against. */
const RESOURCE_OF: Readonly<Record<string, string>> = {
  roster_classes: 'class',
  roster_courses: 'course',
  roster_academic_sessions: 'academicSession',
  roster_users: 'user',
  gradebook_categories: 'category',
  gradebook_line_items: 'lineItem',
  gradebook_score_scales: 'scoreScale',
  gradebook_assessment_line_items: 'assessmentLineItem',
};

const q = (id: unknown) => `'${excerpt(String(id))}'`;

@Injectable()
export class GradebookReferences {
  private readonly rules: Readonly<Record<GradebookClass, (c: RefContext) => Promise<ColumnValue[]>>> = {
    category: async () => [],
    lineItem: (c) => this.lineItem(c),
    result: (c) => this.result(c),
    scoreScale: (c) => this.scoreScale(c),
    assessmentLineItem: (c) => this.assessmentLineItem(c),
    assessmentResult: (c) => this.assessmentResult(c),
  };

  constructor(private readonly repo: GradebookWritesRepository) {}

  /** Checks every reference of the object; returns the columns derived from them (a score scale's school). */
  async check(dialect: BodyDialect, kind: GradebookClass, c: RefContext): Promise<ColumnValue[]> {
    for (const spec of shapeOf(dialect, kind).fields) {
      const id = c.values[spec.name];
      if (!spec.active || typeof id !== 'string') continue;
      const status = await this.repo.refStatus(c.tx, spec.active.table, c.tenantId, id);
      if (status !== 'active' || (await this.hidden(c, spec.active.table, id)))
        c.r.fail(spec.name, `${q(id)} is not an active ${spec.active.noun} of this tenant`);
    }
    return this.rules[kind](c);
  }

  private async lineItem({ tx, tenantId, values, r }: RefContext): Promise<ColumnValue[]> {
    if (values.school === null || values.school === undefined) return [];
    const school = await this.repo.schoolOfClass(tx, tenantId, values.class as string);
    if (school !== values.school)
      r.fail('school', `${q(values.school)} is not the school of class ${q(values.class)} (${q(school)})`);
    return [];
  }

  private async result(c: RefContext): Promise<ColumnValue[]> {
    const { tx, tenantId, values } = c;
    // One round trip for both: a grade sync PUTs thousands of results.
    const { lineItem, student } = await this.repo.lockLineItemWithStudent(
      tx,
      tenantId,
      values.lineItem as string,
      values.student as string,
    );
    if (lineItem?.status !== 'active' || (await this.hidden(c, 'gradebook_line_items', values.lineItem as string)))
      return c.r.fail('lineItem', `${q(values.lineItem)} is not an active line item of this tenant`);
    checkStudent(
      c,
      (await this.hidden(c, 'roster_users', values.student as string)) ? undefined : student,
      lineItem.classId,
    );
    if (values.class !== null && values.class !== undefined && values.class !== lineItem.classId) {
      c.r.fail(
        'class',
        `${q(values.class)} is not the class of line item ${q(values.lineItem)} (${q(lineItem.classId)})`,
      );
    }
    return [];
  }

  private async scoreScale({ tx, tenantId, values }: RefContext): Promise<ColumnValue[]> {
    const school = await this.repo.schoolOfClass(tx, tenantId, values.class as string);
    return [{ column: 'org_sourced_id', value: school ?? null, type: 'text' }];
  }

  private async assessmentLineItem(c: RefContext): Promise<ColumnValue[]> {
    const { tx, tenantId, id, values, r } = c;
    const parent = values.parentAssessmentLineItem;
    if (typeof parent !== 'string') return [];
    const field = 'parentAssessmentLineItem';
    if (parent === id) r.fail(field, 'cannot be the assessment line item itself');
    const status = await this.repo.refStatus(tx, 'gradebook_assessment_line_items', tenantId, parent);
    if (status !== 'active' || (await this.hidden(c, 'gradebook_assessment_line_items', parent)))
      r.fail(field, `${q(parent)} is not an active assessment line item of this tenant`);
    if (await this.repo.closesCycle(tx, tenantId, id, parent))
      r.fail(field, `${q(parent)} is below this assessment line item: the parents would form a cycle`);
    return [];
  }

  private async assessmentResult(c: RefContext): Promise<ColumnValue[]> {
    const { tx, tenantId, values } = c;
    const item = values.assessmentLineItem as string;
    const status = await this.repo.lockAssessmentLineItem(tx, tenantId, item);
    if (status !== 'active' || (await this.hidden(c, 'gradebook_assessment_line_items', item)))
      c.r.fail(
        'assessmentLineItem',
        `${q(values.assessmentLineItem)} is not an active assessment line item of this tenant`,
      );
    await this.student(c, null);
    return [];
  }

  private async student(c: RefContext, classId: string | null): Promise<void> {
    const id = c.values.student as string;
    const hidden = await this.hidden(c, 'roster_users', id);
    checkStudent(c, hidden ? undefined : await this.repo.student(c.tx, c.tenantId, id, classId), classId);
  }

  /** True when the writer's sharing hides the referenced row. */
  private async hidden(c: RefContext, table: string, id: string): Promise<boolean> {
    if (c.scope === null) return false;
    const resource = RESOURCE_OF[table];
    if (!resource) throw new TypeError(`no OneRoster class for reference table ${table}`);
    return !(await this.repo.visibleToScope(c.tx, resource, table, c.tenantId, id, c.scope));
  }
}

/** An active user with a student role, enrolled as a student in `classId` when one is given. */
function checkStudent({ values, r }: RefContext, student: StudentState | undefined, classId: string | null): void {
  const id = values.student as string;
  if (student?.status !== 'active') return r.fail('student', `${q(id)} is not an active user of this tenant`);
  if (!student.isStudent) r.fail('student', `${q(id)} is a ${student.role}, not a student`);
  if (classId !== null && !student.enrolled)
    r.fail(
      'student',
      `${q(id)} is not enrolled as a student in class ${q(classId)} of line item ${q(values.lineItem)}`,
    );
}
