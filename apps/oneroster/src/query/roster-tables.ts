/**
 * How each OneRoster class is stored: the table and, for every field of the class's catalog,
 * where its value comes from. This is the only place SQL identifiers for OneRoster data are
 * written; the filter and sort translators take column names from here and nowhere else.
 */
import type { GuidRefType, ONEROSTER_RESOURCES, OneRosterResource, OneRosterVersion } from '@edu/oneroster-query';

/** The three services of OneRoster v1.2 (v1.1 serves all three under one root). */
export const ONEROSTER_SERVICES = ['rostering', 'gradebook', 'resources'] as const;
export type OneRosterService = (typeof ONEROSTER_SERVICES)[number];

/** The absolute root of each service that hrefs and filters on `href` are built on. */
export type HrefRoots = Readonly<Record<OneRosterService, string>>;

/** One root for every service (v1.1). */
export function sharedRoot(root: string): HrefRoots {
  return { rostering: root, gradebook: root, resources: root };
}

/** Where a field's value lives. */
export type ColumnSource =
  /**
   * A text column (strings, enums in canonical case, `YYYY` years). `orEmpty`: a field the
   * version requires that stored data may lack (v1.2 `Course.courseCode`, `Org.identifier`) is
   * written as `""` rather than left out.
   */
  | { readonly kind: 'text'; readonly column: string; readonly orEmpty?: boolean }
  | { readonly kind: 'date'; readonly column: string }
  | { readonly kind: 'timestamptz'; readonly column: string }
  | { readonly kind: 'boolean'; readonly column: string }
  /** `double precision`: gradebook floats (every JSON number round-trips exactly). */
  | { readonly kind: 'number'; readonly column: string }
  /**
   * A v1.2 extensible enumeration stored in a wider vocabulary (enrollment roles: the v1.1
   * importer accepts all eight user roles): values outside `values` are served as `ext:<value>`.
   */
  | { readonly kind: 'extText'; readonly column: string; readonly values: readonly string[] }
  /** `text[]`: grades, subjects, subjectCodes, periods. */
  | { readonly kind: 'textArray'; readonly column: string }
  /** One GUIDRef stored as the referenced sourcedId. */
  | { readonly kind: 'ref'; readonly column: string; readonly ref: RefTarget }
  /**
   * One GUIDRef computed from other rows (`sql` over the row alias): a v1.1 line item's school is
   * its class's, a result's class its line item's.
   */
  | { readonly kind: 'refExpr'; readonly sql: (alias: string) => string; readonly ref: RefTarget }
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
  /**
   * v1.2 `roles`: jsonb `[{roleType, role, org, userProfile?, beginDate?, endDate?}]`, org by
   * sourcedId (filters and the change feed read it); answers are written from `textColumn`, its
   * JSON text kept beside it (NULL without roles).
   */
  | { readonly kind: 'roles'; readonly column: string; readonly textColumn: string; readonly ref: RefTarget }
  /** A jsonb list stored in its answer shape (v1.2 userProfiles, learning objectives, score scale values): written as stored. */
  | { readonly kind: 'jsonList'; readonly column: string }
  /** Not stored (never emitted, never matches): `password`. */
  | { readonly kind: 'absent' };

/** What a GUIDRef points at: its `type` and the collection its `href` lives under. */
export interface RefTarget {
  readonly type: GuidRefType;
  /** Path segment after the service root, e.g. `orgs` for `/ims/oneroster/v1p1/orgs/{id}`. */
  readonly collection: string;
  /** The service whose root the `href` starts with. */
  readonly service: OneRosterService;
}

/** A table of link records (`classResources.csv`): which owner row uses which target. */
export interface LinkTable {
  readonly table: string;
  readonly owner: string;
  readonly target: string;
}

export interface RosterTable {
  readonly resource: OneRosterResource;
  /** The binding this view of the table answers in (the same rows serve both). */
  readonly version: OneRosterVersion;
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

export const ORG: RefTarget = { type: 'org', collection: 'orgs', service: 'rostering' };
export const SESSION: RefTarget = { type: 'academicSession', collection: 'academicSessions', service: 'rostering' };
const COURSE: RefTarget = { type: 'course', collection: 'courses', service: 'rostering' };
export const CLASS: RefTarget = { type: 'class', collection: 'classes', service: 'rostering' };
export const USER: RefTarget = { type: 'user', collection: 'users', service: 'rostering' };
export const RESOURCE: RefTarget = { type: 'resource', collection: 'resources', service: 'resources' };
const CATEGORY: RefTarget = { type: 'category', collection: 'categories', service: 'gradebook' };
const LINE_ITEM: RefTarget = { type: 'lineItem', collection: 'lineItems', service: 'gradebook' };

/** Link tables of `classResources.csv` and `courseResources.csv`. */
export const CLASS_RESOURCES: LinkTable = {
  table: 'roster_class_resources',
  owner: 'class_sourced_id',
  target: 'resource_sourced_id',
};
export const COURSE_RESOURCES: LinkTable = {
  table: 'roster_course_resources',
  owner: 'course_sourced_id',
  target: 'resource_sourced_id',
};

export const text = (column: string): ColumnSource => ({ kind: 'text', column });
export const date = (column: string): ColumnSource => ({ kind: 'date', column });
export const bool = (column: string): ColumnSource => ({ kind: 'boolean', column });
const list = (column: string): ColumnSource => ({ kind: 'textArray', column });
export const ref = (column: string, target: RefTarget): ColumnSource => ({ kind: 'ref', column, ref: target });
export const refs = (column: string, target: RefTarget): ColumnSource => ({ kind: 'refArray', column, ref: target });
export const num = (column: string): ColumnSource => ({ kind: 'number', column });
export const timestamp = (column: string): ColumnSource => ({ kind: 'timestamptz', column });
export const ABSENT: ColumnSource = { kind: 'absent' };
const IMPORTED = { order: 'ordinal', changes: 'import', version: 'v1p1' } as const;

export const BASE: Readonly<Record<string, ColumnSource>> = {
  sourcedId: text('sourced_id'),
  status: text('status'),
  dateLastModified: timestamp('date_last_modified'),
  metadata: { kind: 'metadata', column: 'metadata' },
};

/** The v1.1 view of every table (the v1.2 view is `roster-tables-v1p2.ts`). */
export const ROSTER_TABLES: Readonly<Record<(typeof ONEROSTER_RESOURCES)[number], RosterTable>> = {
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
    version: 'v1p1',
    order: 'sourcedId',
    changes: 'api',
    columns: { ...BASE, title: text('title') },
  },
  lineItem: {
    resource: 'lineItem',
    table: 'gradebook_line_items',
    version: 'v1p1',
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
    version: 'v1p1',
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
    version: 'v1p1',
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
export function columnOf(table: RosterTable, field: string): ColumnSource {
  const source = table.columns[field];
  if (!source) throw new TypeError(`No storage mapping for ${table.version} ${table.resource}.${field}`);
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
