/**
 * What a write body of each gradebook class holds, per version, as data: each field's kind,
 * whether it is required, the column it is stored in and, for references, the GUIDRef `type`s
 * accepted and the table it must name an active row of. The reader (`gradebook-input.ts`) and
 * the writes service work from these tables only, so v1.1 and v1.2 differ here and nowhere else.
 *
 * v1.1 (reference §3.11): unknown properties ignored (clients echo what they read), lenient
 * GUIDRef types, line items without category or grading period (grade-sync clients omit them).
 * v1.2 (reference v1.2 §4.4, §11, §13): closed objects, fixed GUIDRef types, the OAS's required
 * fields, extensible score statuses, the new fields and classes.
 */
import type { GradebookClass } from './gradebook-classes';
import { UNSCORED_STATUSES } from '../common/record-rules';
import type { FieldReader } from './gradebook-fields';

export type FieldKind =
  | 'title'
  | 'text'
  | 'number'
  | 'dateTime'
  | 'date'
  | 'ref'
  | 'scoreStatus'
  | 'flag'
  /** v1.2 `LearningObjectiveSetDType[]` (line items). */
  | 'objectives'
  /** v1.2 `LearningObjectiveScoreSetDType[]` (results). */
  | 'objectiveScores'
  /** v1.2 `ScoreScaleValueDType[]`, at least one. */
  | 'scaleValues'
  | 'metadata';

/** Tables a reference may be checked against by status alone (others have rules of their own). */
export type RefTable =
  | 'roster_classes'
  | 'roster_courses'
  | 'roster_academic_sessions'
  | 'gradebook_categories'
  | 'gradebook_score_scales'
  | 'gradebook_assessment_line_items';

export interface FieldSpec {
  readonly name: string;
  readonly kind: FieldKind;
  readonly required?: boolean;
  /** Where the value is stored; absent = checked, never stored (a v1.2 result's `class`). */
  readonly column?: string;
  /** GUIDRef `type`s accepted (refs). */
  readonly types?: readonly string[];
  /** Refs: must name an active row of this table of the tenant. */
  readonly active?: { readonly table: RefTable; readonly noun: string };
  /** `scoreStatus`: `ext:` values accepted too (v1.2). */
  readonly extensible?: boolean;
}

/** The values read from one object, by field name (absent = null). */
export type Values = Readonly<Record<string, unknown>>;

/** A check across fields of one object. */
export type CrossRule = (values: Values, r: FieldReader) => void;

export interface BodyShape {
  readonly fields: readonly FieldSpec[];
  readonly rules: readonly CrossRule[];
}

export interface BodyDialect {
  /** Unknown properties refused (v1.2) or ignored (v1.1). */
  readonly closed: boolean;
  readonly shapes: Readonly<Partial<Record<GradebookClass, BodyShape>>>;
}

const CLASS = { table: 'roster_classes', noun: 'class' } as const;
const COURSE = { table: 'roster_courses', noun: 'course' } as const;
const SESSION = { table: 'roster_academic_sessions', noun: 'academic session' } as const;
const CATEGORY = { table: 'gradebook_categories', noun: 'category' } as const;
const SCORE_SCALE = { table: 'gradebook_score_scales', noun: 'score scale' } as const;

type Options = Omit<FieldSpec, 'name' | 'kind'>;
const f = (name: string, kind: FieldKind, o: Options = {}): FieldSpec => ({ name, kind, column: snake(name), ...o });
const required = (name: string, kind: FieldKind, o: Options = {}): FieldSpec => f(name, kind, { required: true, ...o });
/** A reference stored in `<name>_sourced_id`. */
const ref = (name: string, types: readonly string[], o: Options = {}): FieldSpec =>
  f(name, 'ref', { column: `${snake(name)}_sourced_id`, types, ...o });
const METADATA = f('metadata', 'metadata');

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

const lowNotAboveHigh: CrossRule = (v, r) => {
  const [min, max] = [v.resultValueMin, v.resultValueMax];
  if (typeof min === 'number' && typeof max === 'number' && min > max)
    r.fail('resultValueMin', `(${min}) is greater than resultValueMax (${max})`);
};

/** A graded status needs one of `fields` (a score); `exempt` and `not submitted` need none. */
const scoredUnlessUnscored =
  (fields: readonly string[]): CrossRule =>
  (v, r) => {
    if (UNSCORED_STATUSES.has(v.scoreStatus as string) || fields.some((name) => v[name] !== null)) return;
    r.fail(
      fields[0] as string,
      fields.length === 1
        ? 'is required'
        : `or ${fields.slice(1).join(', ')} is required unless scoreStatus is 'exempt' or 'not submitted'`,
    );
  };

export const V1P1_BODIES: BodyDialect = {
  closed: false,
  shapes: {
    category: { fields: [required('title', 'title'), METADATA], rules: [] },
    lineItem: {
      fields: [
        required('title', 'title'),
        f('description', 'text'),
        required('assignDate', 'dateTime'),
        required('dueDate', 'dateTime'),
        ref('class', ['class'], { required: true, active: CLASS }),
        ref('category', ['category'], { active: CATEGORY }),
        // Schools grade by term or semester too: any academic session.
        ref('gradingPeriod', ['academicSession', 'gradingPeriod', 'term'], { active: SESSION }),
        f('resultValueMin', 'number'),
        f('resultValueMax', 'number'),
        METADATA,
      ],
      rules: [lowNotAboveHigh],
    },
    result: {
      fields: [
        ref('lineItem', ['lineItem'], { required: true }),
        ref('student', ['user', 'student'], { required: true }),
        required('scoreStatus', 'scoreStatus'),
        f('score', 'number'),
        required('scoreDate', 'date'),
        f('comment', 'text'),
        METADATA,
      ],
      rules: [scoredUnlessUnscored(['score'])],
    },
  },
};

const FLAGS = ['inProgress', 'incomplete', 'late', 'missing'].map((name) => f(name, 'flag'));
const SCALE_REF = ref('scoreScale', ['scoreScale'], { active: SCORE_SCALE });

export const V1P2_BODIES: BodyDialect = {
  closed: true,
  shapes: {
    category: { fields: [required('title', 'title'), f('weight', 'number'), METADATA], rules: [] },
    lineItem: {
      fields: [
        required('title', 'title'),
        f('description', 'text'),
        required('assignDate', 'dateTime'),
        required('dueDate', 'dateTime'),
        ref('class', ['class'], { required: true, active: CLASS }),
        // Must be the class's school (checked with the class).
        ref('school', ['org'], { required: true }),
        ref('category', ['category'], { required: true, active: CATEGORY }),
        ref('gradingPeriod', ['academicSession'], { active: SESSION }),
        ref('academicSession', ['academicSession'], { active: SESSION }),
        SCALE_REF,
        f('resultValueMin', 'number'),
        f('resultValueMax', 'number'),
        f('learningObjectiveSet', 'objectives'),
        METADATA,
      ],
      rules: [lowNotAboveHigh],
    },
    result: {
      fields: [
        ref('lineItem', ['lineItem'], { required: true }),
        ref('student', ['user'], { required: true }),
        // Never stored: the read side derives it from the line item, so it must be that class.
        ref('class', ['class'], { column: undefined }),
        SCALE_REF,
        required('scoreStatus', 'scoreStatus', { extensible: true }),
        f('score', 'number'),
        f('textScore', 'text'),
        required('scoreDate', 'date'),
        f('comment', 'text'),
        f('learningObjectiveSet', 'objectiveScores'),
        ...FLAGS,
        METADATA,
      ],
      rules: [scoredUnlessUnscored(['score', 'textScore'])],
    },
    scoreScale: {
      fields: [
        required('title', 'title'),
        required('type', 'title'),
        ref('course', ['course'], { active: COURSE }),
        ref('class', ['class'], { required: true, active: CLASS }),
        required('scoreScaleValue', 'scaleValues'),
        METADATA,
      ],
      rules: [],
    },
    assessmentLineItem: {
      fields: [
        required('title', 'title'),
        f('description', 'text'),
        ref('class', ['class'], { active: CLASS }),
        // Active, not itself, no cycle (checked with the tree).
        ref('parentAssessmentLineItem', ['assessmentLineItem'], { column: 'parent_sourced_id' }),
        SCALE_REF,
        f('resultValueMin', 'number'),
        f('resultValueMax', 'number'),
        f('learningObjectiveSet', 'objectives'),
        METADATA,
      ],
      rules: [lowNotAboveHigh],
    },
    assessmentResult: {
      fields: [
        ref('assessmentLineItem', ['assessmentLineItem'], { required: true }),
        ref('student', ['user'], { required: true }),
        f('score', 'number'),
        f('textScore', 'text'),
        required('scoreDate', 'date'),
        SCALE_REF,
        f('scorePercentile', 'number'),
        required('scoreStatus', 'scoreStatus', { extensible: true }),
        f('comment', 'text'),
        f('learningObjectiveSet', 'objectiveScores'),
        ...FLAGS,
        METADATA,
      ],
      rules: [],
    },
  },
};
