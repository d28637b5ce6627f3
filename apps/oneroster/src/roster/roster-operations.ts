/**
 * Every rostering read as data: which class it returns and which base set of rows it starts
 * from (reference §6; spec 4.2). Filters, sorting and paging are applied on top by
 * `RosterService`. All conditions are over the table aliased `t`, with `$1` = tenant id, and
 * every path id bound as a parameter.
 *
 * Semantics chosen where the sources leave room (recorded in the app README):
 * - Memberships ("students of a class", "classes of a user", ...) come from `active`
 *   enrollments; the returned records keep their own status.
 * - "Teachers" are all staff (spec 4.2): user role teacher, administrator, aide or proctor, and
 *   for memberships an enrollment with a staff role (teacher, administrator, proctor, aide).
 * - For-school endpoints answer an empty collection unless the id is a school in the tenant's
 *   visible org tree (root org + descendants): the same data as the unscoped endpoint for a
 *   school-level tenant, that school's share for an enterprise tenant.
 * - `/schools/{id}/students|teachers`: users of the role whose `orgs` contain the school, plus
 *   users with an active enrollment of that role in the school.
 * - `/schools/{id}/terms`: `term` sessions referenced by the school's active classes.
 */
import type { OneRosterResource } from '@edu/oneroster-query';
import type { OrgVisibility } from '../tenancy/roster-versions.service';
import type { SqlParams } from '../query/sql-params';

export const STUDENT_ROLES = ['student'] as const;
/** User roles served by `/teachers` (spec 4.2: all staff); matches part of the stored `role_group`. */
export const STAFF_ROLES = ['administrator', 'aide', 'proctor', 'teacher'] as const;

export interface BaseSetInput {
  readonly params: SqlParams;
  /** Path parameters by name (`id`, `school_id`, `class_id`). */
  readonly ids: Readonly<Record<string, string>>;
  readonly visibility: OrgVisibility;
}

export interface BaseSet {
  /** Conditions ANDed to `t.tenant_id = $1`. */
  readonly conditions: readonly string[];
  /** Known to be empty without asking the database (unknown or invisible parent). */
  readonly empty?: boolean;
}

/** A column holding each row's dense position in the default order within the base set. */
export type OrdinalColumn = 'ordinal' | 'group_ordinal' | 'type_ordinal';

export interface CollectionOperation {
  /** Operation name of the standard (reference §6), e.g. `getAllUsers`. */
  readonly name: string;
  readonly resource: OneRosterResource;
  /**
   * Set only when the base set is exactly the rows sharing one dense ordinal sequence (whole
   * table, one role group, one session type): unfiltered default-order pages then read an index
   * range instead of skipping `offset` rows, and the total is max + 1.
   */
  readonly ordinal?: OrdinalColumn;
  readonly base: (input: BaseSetInput) => BaseSet;
  /**
   * The objects a relationship read hangs off, by path parameter: in v1.2 an unknown (or
   * invisible) one answers 404 `unknownobject` (reference v1.2 §7.1); v1.1 answers an empty
   * collection. Only checked when the collection is empty, so a read with rows costs nothing more.
   */
  readonly parents?: Readonly<Record<string, SingleOperation>>;
}

export interface SingleOperation {
  readonly name: string;
  readonly resource: OneRosterResource;
  /** Extra conditions on the one row (e.g. `type = 'term'` for `/terms/{id}`). */
  readonly base: (input: BaseSetInput) => BaseSet;
  /** Used in the 404 description: "No term with sourcedId 'x'". */
  readonly noun: string;
}

export const ALL: BaseSet = { conditions: [] };
export const EMPTY: BaseSet = { conditions: [], empty: true };

/** Binds a text value; returns its placeholder. */
export function text(input: BaseSetInput, value: string): string {
  return input.params.typed(value, 'text');
}

function textList(input: BaseSetInput, values: readonly string[]): string {
  return input.params.typed([...values], 'text[]');
}

export function pathId(input: BaseSetInput, name: string): string {
  const value = input.ids[name];
  if (value === undefined) throw new TypeError(`missing path parameter ${name}`);
  return value;
}

/** Orgs outside the tenant's tree are invisible. */
function visibleOrgs(input: BaseSetInput): string[] {
  return input.visibility.all ? [] : [`t.sourced_id = ANY(${textList(input, input.visibility.idList)})`];
}

/** The id is a school in the tenant's visible org tree (for-school reads, v1.2 score scales of a school). */
export function isVisibleSchool(input: BaseSetInput, id: string): boolean {
  return input.visibility.ids.has(id) && input.visibility.orgs.get(id)?.type === 'school';
}

/** Users with an active enrollment in `scopeColumn = value` and one of `roles`. */
function enrolledUsers(
  input: BaseSetInput,
  scopeColumn: 'class_sourced_id' | 'school_sourced_id',
  value: string,
  roles: readonly string[],
): string {
  return `t.sourced_id IN (SELECT e.user_sourced_id FROM roster_enrollments AS e WHERE e.tenant_id = $1::uuid AND e.${scopeColumn} = ${value} AND e.status = 'active' AND e.role = ANY(${textList(input, roles)}))`;
}

/** Classes in which the user has an active enrollment (with one of `roles`, when given). */
function classesOfUser(input: BaseSetInput, roles?: readonly string[]): BaseSet {
  const user = text(input, pathId(input, 'id'));
  const role = roles ? ` AND e.role = ANY(${textList(input, roles)})` : '';
  return {
    conditions: [
      `t.sourced_id IN (SELECT e.class_sourced_id FROM roster_enrollments AS e WHERE e.tenant_id = $1::uuid AND e.user_sourced_id = ${user} AND e.status = 'active'${role})`,
    ],
  };
}

/** The class `class_id` belongs to the school `school_id`. */
function classInSchool(input: BaseSetInput, classParam: string): string {
  const school = text(input, pathId(input, 'school_id'));
  return `EXISTS (SELECT 1 FROM roster_classes AS k WHERE k.tenant_id = $1::uuid AND k.sourced_id = ${classParam} AND k.school_sourced_id = ${school})`;
}

function usersOfClassInSchool(input: BaseSetInput, roles: readonly string[]): BaseSet {
  if (!isVisibleSchool(input, pathId(input, 'school_id'))) return EMPTY;
  const cls = text(input, pathId(input, 'class_id'));
  return { conditions: [classInSchool(input, cls), enrolledUsers(input, 'class_sourced_id', cls, roles)] };
}

function usersOfSchool(input: BaseSetInput, group: 'student' | 'staff', roles: readonly string[]): BaseSet {
  const id = pathId(input, 'school_id');
  if (!isVisibleSchool(input, id)) return EMPTY;
  const school = text(input, id);
  return {
    conditions: [
      `t.role_group = ${text(input, group)}`,
      `(t.org_sourced_ids @> ARRAY[${school}] OR ${enrolledUsers(input, 'school_sourced_id', school, roles)})`,
    ],
  };
}

function columnEquals(column: string, param: string): (input: BaseSetInput) => BaseSet {
  return (input) => ({ conditions: [`t.${column} = ${text(input, pathId(input, param))}`] });
}

function forSchool(column: string): (input: BaseSetInput) => BaseSet {
  return (input) => {
    const id = pathId(input, 'school_id');
    if (!isVisibleSchool(input, id)) return EMPTY;
    return { conditions: [`t.${column} = ${text(input, id)}`] };
  };
}

const ofType =
  (type: string) =>
  (input: BaseSetInput): BaseSet => ({ conditions: [`t.type = ${text(input, type)}`] });
const ofGroup =
  (group: string) =>
  (input: BaseSetInput): BaseSet => ({ conditions: [`t.role_group = ${text(input, group)}`] });

export const SINGLES = {
  getAcademicSession: {
    name: 'getAcademicSession',
    resource: 'academicSession',
    noun: 'academic session',
    base: () => ALL,
  },
  getTerm: { name: 'getTerm', resource: 'academicSession', noun: 'term', base: ofType('term') },
  getGradingPeriod: {
    name: 'getGradingPeriod',
    resource: 'academicSession',
    noun: 'grading period',
    base: ofType('gradingPeriod'),
  },
  getClass: { name: 'getClass', resource: 'class', noun: 'class', base: () => ALL },
  getCourse: { name: 'getCourse', resource: 'course', noun: 'course', base: () => ALL },
  getDemographics: { name: 'getDemographics', resource: 'demographics', noun: 'demographics record', base: () => ALL },
  getEnrollment: { name: 'getEnrollment', resource: 'enrollment', noun: 'enrollment', base: () => ALL },
  getOrg: { name: 'getOrg', resource: 'org', noun: 'org', base: (i) => ({ conditions: visibleOrgs(i) }) },
  getSchool: {
    name: 'getSchool',
    resource: 'org',
    noun: 'school',
    base: (i) => ({ conditions: [`t.type = ${text(i, 'school')}`, ...visibleOrgs(i)] }),
  },
  getUser: { name: 'getUser', resource: 'user', noun: 'user', base: () => ALL },
  getStudent: { name: 'getStudent', resource: 'user', noun: 'student', base: ofGroup('student') },
  getTeacher: { name: 'getTeacher', resource: 'user', noun: 'teacher', base: ofGroup('staff') },
} as const satisfies Record<string, SingleOperation>;

export const COLLECTIONS = {
  getAllAcademicSessions: {
    name: 'getAllAcademicSessions',
    resource: 'academicSession',
    ordinal: 'ordinal',
    base: () => ALL,
  },
  getAllTerms: { name: 'getAllTerms', resource: 'academicSession', ordinal: 'type_ordinal', base: ofType('term') },
  getAllGradingPeriods: {
    name: 'getAllGradingPeriods',
    resource: 'academicSession',
    ordinal: 'type_ordinal',
    base: ofType('gradingPeriod'),
  },
  getAllClasses: { name: 'getAllClasses', resource: 'class', ordinal: 'ordinal', base: () => ALL },
  getAllCourses: { name: 'getAllCourses', resource: 'course', ordinal: 'ordinal', base: () => ALL },
  getAllDemographics: { name: 'getAllDemographics', resource: 'demographics', ordinal: 'ordinal', base: () => ALL },
  getAllEnrollments: { name: 'getAllEnrollments', resource: 'enrollment', ordinal: 'ordinal', base: () => ALL },
  getAllOrgs: { name: 'getAllOrgs', resource: 'org', base: (i) => ({ conditions: visibleOrgs(i) }) },
  getAllSchools: {
    name: 'getAllSchools',
    resource: 'org',
    base: (i) => ({ conditions: [`t.type = ${text(i, 'school')}`, ...visibleOrgs(i)] }),
  },
  getAllUsers: { name: 'getAllUsers', resource: 'user', ordinal: 'ordinal', base: () => ALL },
  getAllStudents: { name: 'getAllStudents', resource: 'user', ordinal: 'group_ordinal', base: ofGroup('student') },
  getAllTeachers: { name: 'getAllTeachers', resource: 'user', ordinal: 'group_ordinal', base: ofGroup('staff') },

  getCoursesForSchool: {
    name: 'getCoursesForSchool',
    parents: { school_id: SINGLES.getSchool },
    resource: 'course',
    base: forSchool('org_sourced_id'),
  },
  getClassesForSchool: {
    name: 'getClassesForSchool',
    parents: { school_id: SINGLES.getSchool },
    resource: 'class',
    base: forSchool('school_sourced_id'),
  },
  getEnrollmentsForSchool: {
    name: 'getEnrollmentsForSchool',
    parents: { school_id: SINGLES.getSchool },
    resource: 'enrollment',
    base: forSchool('school_sourced_id'),
  },
  getEnrollmentsForClassInSchool: {
    name: 'getEnrollmentsForClassInSchool',
    parents: { school_id: SINGLES.getSchool, class_id: SINGLES.getClass },
    resource: 'enrollment',
    base: (i) => {
      if (!isVisibleSchool(i, pathId(i, 'school_id'))) return EMPTY;
      const cls = text(i, pathId(i, 'class_id'));
      return { conditions: [`t.class_sourced_id = ${cls}`, classInSchool(i, cls)] };
    },
  },
  getStudentsForClassInSchool: {
    name: 'getStudentsForClassInSchool',
    parents: { school_id: SINGLES.getSchool, class_id: SINGLES.getClass },
    resource: 'user',
    base: (i) => usersOfClassInSchool(i, STUDENT_ROLES),
  },
  getTeachersForClassInSchool: {
    name: 'getTeachersForClassInSchool',
    parents: { school_id: SINGLES.getSchool, class_id: SINGLES.getClass },
    resource: 'user',
    base: (i) => usersOfClassInSchool(i, STAFF_ROLES),
  },
  getStudentsForSchool: {
    name: 'getStudentsForSchool',
    parents: { school_id: SINGLES.getSchool },
    resource: 'user',
    base: (i) => usersOfSchool(i, 'student', STUDENT_ROLES),
  },
  getTeachersForSchool: {
    name: 'getTeachersForSchool',
    parents: { school_id: SINGLES.getSchool },
    resource: 'user',
    base: (i) => usersOfSchool(i, 'staff', STAFF_ROLES),
  },
  getTermsForSchool: {
    name: 'getTermsForSchool',
    parents: { school_id: SINGLES.getSchool },
    resource: 'academicSession',
    base: (i) => {
      const id = pathId(i, 'school_id');
      if (!isVisibleSchool(i, id)) return EMPTY;
      return {
        conditions: [
          `t.type = ${text(i, 'term')}`,
          `EXISTS (SELECT 1 FROM roster_classes AS k WHERE k.tenant_id = t.tenant_id AND k.school_sourced_id = ${text(i, id)} AND k.status = 'active' AND k.term_sourced_ids @> ARRAY[t.sourced_id])`,
        ],
      };
    },
  },
  getClassesForTerm: {
    name: 'getClassesForTerm',
    parents: { id: SINGLES.getTerm },
    resource: 'class',
    base: (i) => ({ conditions: [`t.term_sourced_ids @> ARRAY[${text(i, pathId(i, 'id'))}]`] }),
  },
  getGradingPeriodsForTerm: {
    name: 'getGradingPeriodsForTerm',
    parents: { id: SINGLES.getTerm },
    resource: 'academicSession',
    base: (i) => ({
      conditions: [`t.type = ${text(i, 'gradingPeriod')}`, `t.parent_sourced_id = ${text(i, pathId(i, 'id'))}`],
    }),
  },
  getClassesForCourse: {
    name: 'getClassesForCourse',
    parents: { id: SINGLES.getCourse },
    resource: 'class',
    base: columnEquals('course_sourced_id', 'id'),
  },
  getClassesForStudent: {
    name: 'getClassesForStudent',
    parents: { id: SINGLES.getStudent },
    resource: 'class',
    base: (i) => classesOfUser(i, STUDENT_ROLES),
  },
  getClassesForTeacher: {
    name: 'getClassesForTeacher',
    parents: { id: SINGLES.getTeacher },
    resource: 'class',
    base: (i) => classesOfUser(i, STAFF_ROLES),
  },
  getClassesForUser: {
    name: 'getClassesForUser',
    parents: { id: SINGLES.getUser },
    resource: 'class',
    base: (i) => classesOfUser(i),
  },
  getStudentsForClass: {
    name: 'getStudentsForClass',
    parents: { id: SINGLES.getClass },
    resource: 'user',
    base: (i) => ({ conditions: [enrolledUsers(i, 'class_sourced_id', text(i, pathId(i, 'id')), STUDENT_ROLES)] }),
  },
  getTeachersForClass: {
    name: 'getTeachersForClass',
    parents: { id: SINGLES.getClass },
    resource: 'user',
    base: (i) => ({ conditions: [enrolledUsers(i, 'class_sourced_id', text(i, pathId(i, 'id')), STAFF_ROLES)] }),
  },
} as const satisfies Record<string, CollectionOperation>;
