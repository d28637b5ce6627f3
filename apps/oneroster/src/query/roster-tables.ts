/**
 * How each OneRoster class is stored: the table and, for every field of the class's catalog,
 * where its value comes from. This is the only place SQL identifiers for OneRoster data are
 * written; the filter and sort translators take column names from here and nowhere else.
 */
import type { GuidRefType, OneRosterResource } from '@edu/oneroster-query';

/** Where a field's value lives. */
export type ColumnSource =
  /** A text column (strings, enums in canonical case, `YYYY` years). */
  | { readonly kind: 'text'; readonly column: string }
  | { readonly kind: 'date'; readonly column: string }
  | { readonly kind: 'timestamptz'; readonly column: string }
  | { readonly kind: 'boolean'; readonly column: string }
  /** `double precision`: gradebook floats (every JSON number round-trips exactly). */
  | { readonly kind: 'number'; readonly column: string }
  /** `text[]`: grades, subjects, subjectCodes, periods. */
  | { readonly kind: 'textArray'; readonly column: string }
  /** One GUIDRef stored as the referenced sourcedId. */
  | { readonly kind: 'ref'; readonly column: string; readonly ref: RefTarget }
  /** GUIDRefs stored as a `text[]` of sourcedIds. */
  | { readonly kind: 'refArray'; readonly column: string; readonly ref: RefTarget }
  /** GUIDRefs derived from the rows of the same table whose `parent_sourced_id` is this row. */
  | { readonly kind: 'children'; readonly ref: RefTarget }
  /**
   * GUIDRefs derived from a link table: `target` of its `active` rows whose `owner` is this row
   * (`Class.resources` from `classResources.csv`).
   */
  | { readonly kind: 'linked'; readonly link: LinkTable; readonly ref: RefTarget }
  /** `[{type, identifier}]` jsonb. */
  | { readonly kind: 'userIds'; readonly column: string }
  | { readonly kind: 'metadata'; readonly column: string }
  /** Not stored (never emitted, never matches): `password`. */
  | { readonly kind: 'absent' };

/** What a GUIDRef points at: its `type` and the collection its `href` lives under. */
export interface RefTarget {
  readonly type: GuidRefType;
  /** Path segment after the service root, e.g. `orgs` for `/ims/oneroster/v1p1/orgs/{id}`. */
  readonly collection: string;
}

/** A table of link records (`classResources.csv`): which owner row uses which target. */
export interface LinkTable {
  readonly table: string;
  readonly owner: string;
  readonly target: string;
}

export interface RosterTable {
  readonly resource: OneRosterResource;
  readonly table: string;
  /**
   * How the default order (sourcedId in byte order, also every sort's tie-breaker) is read:
   * the import-maintained dense `ordinal` of the rostering tables, or `sourced_id` itself where
   * the column is collated "C" (tables without ordinals).
   */
  readonly order: 'ordinal' | 'sourcedId';
  /**
   * `import`: rows change only in a CSV import, which bumps the tenant's data version, so totals
   * may be cached per version. `api`: rows also change through PUT/DELETE (gradebook), so
   * nothing derived from them is cached.
   */
  readonly changes: 'import' | 'api';
  readonly columns: Readonly<Record<string, ColumnSource>>;
}

const ORG: RefTarget = { type: 'org', collection: 'orgs' };
const SESSION: RefTarget = { type: 'academicSession', collection: 'academicSessions' };
const COURSE: RefTarget = { type: 'course', collection: 'courses' };
const CLASS: RefTarget = { type: 'class', collection: 'classes' };
const USER: RefTarget = { type: 'user', collection: 'users' };
const RESOURCE: RefTarget = { type: 'resource', collection: 'resources' };
const CATEGORY: RefTarget = { type: 'category', collection: 'categories' };
const LINE_ITEM: RefTarget = { type: 'lineItem', collection: 'lineItems' };

/** Link tables of `classResources.csv` and `courseResources.csv`. */
export const CLASS_RESOURCES: LinkTable = { table: 'roster_class_resources', owner: 'class_sourced_id', target: 'resource_sourced_id' };
export const COURSE_RESOURCES: LinkTable = { table: 'roster_course_resources', owner: 'course_sourced_id', target: 'resource_sourced_id' };

const text = (column: string): ColumnSource => ({ kind: 'text', column });
const date = (column: string): ColumnSource => ({ kind: 'date', column });
const bool = (column: string): ColumnSource => ({ kind: 'boolean', column });
const list = (column: string): ColumnSource => ({ kind: 'textArray', column });
const ref = (column: string, target: RefTarget): ColumnSource => ({ kind: 'ref', column, ref: target });
const refs = (column: string, target: RefTarget): ColumnSource => ({ kind: 'refArray', column, ref: target });
const num = (column: string): ColumnSource => ({ kind: 'number', column });
const timestamp = (column: string): ColumnSource => ({ kind: 'timestamptz', column });
const ABSENT: ColumnSource = { kind: 'absent' };
const IMPORTED = { order: 'ordinal', changes: 'import' } as const;

const BASE: Readonly<Record<string, ColumnSource>> = {
  sourcedId: text('sourced_id'),
  status: text('status'),
  dateLastModified: timestamp('date_last_modified'),
  metadata: { kind: 'metadata', column: 'metadata' },
};

export const ROSTER_TABLES: Readonly<Record<OneRosterResource, RosterTable>> = {
  academicSession: {
    resource: 'academicSession',
    ...IMPORTED,
    table: 'roster_academic_sessions',
    columns: {
      ...BASE,
      title: text('title'),
      startDate: date('start_date'),
      endDate: date('end_date'),
      type: text('type'),
      parent: ref('parent_sourced_id', SESSION),
      children: { kind: 'children', ref: SESSION },
      schoolYear: text('school_year'),
    },
  },
  class: {
    resource: 'class',
    ...IMPORTED,
    table: 'roster_classes',
    columns: {
      ...BASE,
      title: text('title'),
      classCode: text('class_code'),
      classType: text('class_type'),
      location: text('location'),
      grades: list('grades'),
      subjects: list('subjects'),
      course: ref('course_sourced_id', COURSE),
      school: ref('school_sourced_id', ORG),
      terms: refs('term_sourced_ids', SESSION),
      subjectCodes: list('subject_codes'),
      periods: list('periods'),
      resources: { kind: 'linked', link: CLASS_RESOURCES, ref: RESOURCE },
    },
  },
  course: {
    resource: 'course',
    ...IMPORTED,
    table: 'roster_courses',
    columns: {
      ...BASE,
      title: text('title'),
      schoolYear: ref('school_year_sourced_id', SESSION),
      courseCode: text('course_code'),
      grades: list('grades'),
      subjects: list('subjects'),
      org: ref('org_sourced_id', ORG),
      subjectCodes: list('subject_codes'),
      resources: { kind: 'linked', link: COURSE_RESOURCES, ref: RESOURCE },
    },
  },
  demographics: {
    resource: 'demographics',
    ...IMPORTED,
    table: 'roster_demographics',
    columns: {
      ...BASE,
      birthDate: date('birth_date'),
      sex: text('sex'),
      americanIndianOrAlaskaNative: bool('american_indian_or_alaska_native'),
      asian: bool('asian'),
      blackOrAfricanAmerican: bool('black_or_african_american'),
      nativeHawaiianOrOtherPacificIslander: bool('native_hawaiian_or_other_pacific_islander'),
      white: bool('white'),
      demographicRaceTwoOrMoreRaces: bool('demographic_race_two_or_more_races'),
      hispanicOrLatinoEthnicity: bool('hispanic_or_latino_ethnicity'),
      countryOfBirthCode: text('country_of_birth_code'),
      stateOfBirthAbbreviation: text('state_of_birth_abbreviation'),
      cityOfBirth: text('city_of_birth'),
      publicSchoolResidenceStatus: text('public_school_residence_status'),
    },
  },
  enrollment: {
    resource: 'enrollment',
    ...IMPORTED,
    table: 'roster_enrollments',
    columns: {
      ...BASE,
      user: ref('user_sourced_id', USER),
      class: ref('class_sourced_id', CLASS),
      school: ref('school_sourced_id', ORG),
      role: text('role'),
      primary: bool('primary'),
      beginDate: date('begin_date'),
      endDate: date('end_date'),
    },
  },
  org: {
    resource: 'org',
    ...IMPORTED,
    table: 'roster_orgs',
    columns: {
      ...BASE,
      name: text('name'),
      type: text('type'),
      identifier: text('identifier'),
      parent: ref('parent_sourced_id', ORG),
      children: { kind: 'children', ref: ORG },
    },
  },
  user: {
    resource: 'user',
    ...IMPORTED,
    table: 'roster_users',
    columns: {
      ...BASE,
      username: text('username'),
      userIds: { kind: 'userIds', column: 'user_ids' },
      enabledUser: bool('enabled_user'),
      givenName: text('given_name'),
      familyName: text('family_name'),
      middleName: text('middle_name'),
      role: text('role'),
      identifier: text('identifier'),
      email: text('email'),
      sms: text('sms'),
      phone: text('phone'),
      agents: refs('agent_sourced_ids', USER),
      orgs: refs('org_sourced_ids', ORG),
      grades: list('grades'),
      password: ABSENT,
    },
  },
  category: {
    resource: 'category',
    table: 'gradebook_categories',
    order: 'sourcedId',
    changes: 'api',
    columns: { ...BASE, title: text('title') },
  },
  lineItem: {
    resource: 'lineItem',
    table: 'gradebook_line_items',
    order: 'sourcedId',
    changes: 'api',
    columns: {
      ...BASE,
      title: text('title'),
      description: text('description'),
      assignDate: timestamp('assign_date'),
      dueDate: timestamp('due_date'),
      class: ref('class_sourced_id', CLASS),
      category: ref('category_sourced_id', CATEGORY),
      gradingPeriod: ref('grading_period_sourced_id', SESSION),
      resultValueMin: num('result_value_min'),
      resultValueMax: num('result_value_max'),
    },
  },
  result: {
    resource: 'result',
    table: 'gradebook_results',
    order: 'sourcedId',
    changes: 'api',
    columns: {
      ...BASE,
      lineItem: ref('line_item_sourced_id', LINE_ITEM),
      student: ref('student_sourced_id', USER),
      scoreStatus: text('score_status'),
      score: num('score'),
      scoreDate: date('score_date'),
      comment: text('comment'),
    },
  },
  resource: {
    resource: 'resource',
    table: 'roster_resources',
    order: 'sourcedId',
    changes: 'import',
    columns: {
      ...BASE,
      title: text('title'),
      roles: list('roles'),
      importance: text('importance'),
      vendorResourceId: text('vendor_resource_id'),
      vendorId: text('vendor_id'),
      applicationId: text('application_id'),
    },
  },
};

/** The source of one field; throws for a field the table map does not know (a programming error). */
export function columnOf(resource: OneRosterResource, field: string): ColumnSource {
  const source = ROSTER_TABLES[resource].columns[field];
  if (!source) throw new TypeError(`No storage mapping for ${resource}.${field}`);
  return source;
}

/** Every SQL identifier used for roster data must look like this (defence in depth). */
export const SQL_IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** Quotes a column name from the map above (`primary` is a reserved word). */
export function quoteIdent(name: string): string {
  if (!SQL_IDENTIFIER.test(name)) throw new TypeError(`Refusing SQL identifier '${name}'`);
  return `"${name}"`;
}

/**
 * A sourcedId made safe as one URL path segment of a GUIDRef `href`: `%`, `/`, `?`, `#` and
 * space are percent-encoded (ids are opaque but meant to be URL-safe; this keeps odd ones from
 * breaking the href). The JSON output and filters on `href` use this same expression.
 */
export function urlSegmentSql(expr: string): string {
  return `replace(replace(replace(replace(replace(${expr}, '%', '%25'), '/', '%2F'), '?', '%3F'), '#', '%23'), ' ', '%20')`;
}
