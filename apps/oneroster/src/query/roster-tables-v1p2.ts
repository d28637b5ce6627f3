/**
 * The v1.2 view of the same tables (design §9: one store, two views). Each class starts from its
 * v1.1 mapping; v1.1 fields that v1.2 dropped (`User.role`, `User.orgs`) are removed, v1.2 fields
 * come from their own columns, and what v1.1 data lacks is derived here: a line item's `school`
 * is its class's school unless one was written; a result's `class` is its line item's class (kept
 * on the result by the database).
 */
import {
  ENROLLMENT_ROLE_TYPES,
  type OneRosterResource,
  type OneRosterVersion,
  type V1p2Resource,
} from '@edu/oneroster-query';
import {
  BASE,
  bool,
  CLASS,
  date,
  num,
  ORG,
  ref,
  refs,
  RESOURCE,
  ROSTER_TABLES,
  SESSION,
  text,
  USER,
  type ColumnSource,
  type RefTarget,
  type RosterTable,
} from './roster-tables';

const SCORE_SCALE: RefTarget = { type: 'scoreScale', collection: 'scoreScales', service: 'gradebook' };
const COURSE: RefTarget = { type: 'course', collection: 'courses', service: 'rostering' };
const ASSESSMENT_LINE_ITEM: RefTarget = {
  type: 'assessmentLineItem',
  collection: 'assessmentLineItems',
  service: 'gradebook',
};

const json = (column: string): ColumnSource => ({ kind: 'jsonList', column });
const WORK_FLAGS = {
  inProgress: bool('in_progress'),
  incomplete: bool('incomplete'),
  late: bool('late'),
  missing: bool('missing'),
};
const GRADEBOOK = { version: 'v1p2', order: 'sourcedId', changes: 'api' } as const;

/** The v1.2 view of a v1.1 mapping: `add` replaces or adds fields, `drop` removes v1.1-only ones. */
function v1p2(
  table: RosterTable,
  add: Readonly<Record<string, ColumnSource>> = {},
  drop: readonly string[] = [],
): RosterTable {
  const columns = Object.fromEntries(
    Object.entries({ ...table.columns, ...add }).filter(([name]) => !drop.includes(name)),
  );
  return { ...table, version: 'v1p2', columns };
}

/** A line item written through v1.1 has no school of its own: its class's. */
const lineItemSchool = (a: string): string =>
  `COALESCE(${a}.school_sourced_id, (SELECT k.school_sourced_id FROM roster_classes AS k WHERE k.tenant_id = ${a}.tenant_id AND k.sourced_id = ${a}.class_sourced_id))`;
/**
 * A result's class is its line item's (validated equal when a v1.2 write names one): the copy the
 * database keeps on the result (migration 1765500000000), never written by the service.
 */
const resultClass = (a: string): string => `${a}.class_sourced_id`;

export const ROSTER_TABLES_V1P2: Readonly<Record<V1p2Resource, RosterTable>> = {
  academicSession: v1p2(ROSTER_TABLES.academicSession),
  class: v1p2(ROSTER_TABLES.class),
  // Required in v1.2 (optional in the v1.1 CSV): "" when the import had none.
  course: v1p2(ROSTER_TABLES.course, { courseCode: { kind: 'text', column: 'course_code', orEmpty: true } }),
  demographics: v1p2(ROSTER_TABLES.demographics),
  enrollment: v1p2(ROSTER_TABLES.enrollment, {
    role: { kind: 'extText', column: 'role', values: ENROLLMENT_ROLE_TYPES },
  }),
  org: v1p2(ROSTER_TABLES.org, { identifier: { kind: 'text', column: 'identifier', orEmpty: true } }),
  user: v1p2(
    ROSTER_TABLES.user,
    {
      userMasterIdentifier: text('user_master_identifier'),
      preferredFirstName: text('preferred_first_name'),
      preferredMiddleName: text('preferred_middle_name'),
      preferredLastName: text('preferred_last_name'),
      pronouns: text('pronouns'),
      roles: { kind: 'roles', column: 'roles', textColumn: 'roles_text', ref: ORG },
      userProfiles: json('user_profiles'),
      primaryOrg: ref('primary_org_sourced_id', ORG),
      resources: refs('resource_sourced_ids', RESOURCE),
    },
    ['role', 'orgs'],
  ),
  category: v1p2(ROSTER_TABLES.category, { weight: num('weight') }),
  lineItem: v1p2(ROSTER_TABLES.lineItem, {
    school: { kind: 'refExpr', sql: lineItemSchool, ref: ORG },
    academicSession: ref('academic_session_sourced_id', SESSION),
    scoreScale: ref('score_scale_sourced_id', SCORE_SCALE),
    learningObjectiveSet: json('learning_objective_set'),
  }),
  result: v1p2(ROSTER_TABLES.result, {
    class: { kind: 'refExpr', sql: resultClass, ref: CLASS },
    scoreScale: ref('score_scale_sourced_id', SCORE_SCALE),
    textScore: text('text_score'),
    learningObjectiveSet: json('learning_objective_set'),
    ...WORK_FLAGS,
  }),
  scoreScale: {
    resource: 'scoreScale',
    table: 'gradebook_score_scales',
    ...GRADEBOOK,
    columns: {
      ...BASE,
      title: text('title'),
      type: text('type'),
      course: ref('course_sourced_id', COURSE),
      class: ref('class_sourced_id', CLASS),
      scoreScaleValue: json('score_scale_value'),
    },
  },
  assessmentLineItem: {
    resource: 'assessmentLineItem',
    table: 'gradebook_assessment_line_items',
    ...GRADEBOOK,
    columns: {
      ...BASE,
      title: text('title'),
      description: text('description'),
      class: ref('class_sourced_id', CLASS),
      parentAssessmentLineItem: ref('parent_sourced_id', ASSESSMENT_LINE_ITEM),
      scoreScale: ref('score_scale_sourced_id', SCORE_SCALE),
      resultValueMin: num('result_value_min'),
      resultValueMax: num('result_value_max'),
      learningObjectiveSet: json('learning_objective_set'),
    },
  },
  assessmentResult: {
    resource: 'assessmentResult',
    table: 'gradebook_assessment_results',
    ...GRADEBOOK,
    columns: {
      ...BASE,
      assessmentLineItem: ref('assessment_line_item_sourced_id', ASSESSMENT_LINE_ITEM),
      student: ref('student_sourced_id', USER),
      score: num('score'),
      textScore: text('text_score'),
      scoreDate: date('score_date'),
      scoreScale: ref('score_scale_sourced_id', SCORE_SCALE),
      scorePercentile: num('score_percentile'),
      scoreStatus: text('score_status'),
      comment: text('comment'),
      learningObjectiveSet: json('learning_objective_set'),
      ...WORK_FLAGS,
    },
  },
  resource: v1p2(ROSTER_TABLES.resource),
};

/** How a class is stored, as seen by a version. Throws for a class the version lacks (a programming error). */
export function tableOf(resource: OneRosterResource, version: OneRosterVersion): RosterTable {
  const table =
    version === 'v1p1'
      ? (ROSTER_TABLES as Partial<Record<OneRosterResource, RosterTable>>)[resource]
      : ROSTER_TABLES_V1P2[resource];
  if (!table) throw new TypeError(`No ${version} storage mapping for ${resource}`);
  return table;
}
