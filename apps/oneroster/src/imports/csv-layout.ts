/**
 * What a file of a OneRoster CSV binding is, as data: its columns in the standard order, how each
 * cell is read, and the table column it lands in; and the v1.1 binding (reference §11.3), all
 * thirteen files: rostering, resources and gradebook. The v1.2 files are in `csv-layout-v1p2.ts`,
 * the bindings (which files, in which order) in `csv-bindings.ts`.
 */
import { roleGroupOf, type RosterRole } from '@edu/persistence/pg';
import { firstOfTextArrayLiteral } from './copy-in';
import { v1p1RowRolesJson } from './role-mapping';
import {
  CLASS_TYPES,
  GENDER_TYPES,
  IMPORTANCE_TYPES,
  ORG_TYPES,
  ROLE_TYPES,
  SCORE_STATUS_TYPES,
  SESSION_TYPES,
} from '@edu/oneroster-query';

/** Every file of the v1.1 binding, in referential-integrity import order (reference §11.1). */
export const ROSTER_FILE_TYPES = [
  'orgs',
  'academicSessions',
  'courses',
  'classes',
  'users',
  'enrollments',
  'demographics',
  'resources',
  'classResources',
  'courseResources',
  'categories',
  'lineItems',
  'results',
] as const;
export type V1p1FileType = (typeof ROSTER_FILE_TYPES)[number];

/** Every file of the v1.2 binding (a superset of v1.1's), in import order (reference v1.2 §10). */
export const V1P2_FILE_TYPES = [
  'orgs',
  'academicSessions',
  'courses',
  'classes',
  'users',
  'userProfiles',
  'roles',
  'enrollments',
  'demographics',
  'resources',
  'userResources',
  'classResources',
  'courseResources',
  'categories',
  'scoreScales',
  'lineItems',
  'lineItemScoreScales',
  'lineItemLearningObjectiveIds',
  'results',
  'resultScoreScales',
  'resultLearningObjectiveIds',
] as const;
/** A file of either binding. */
export type RosterFileType = (typeof V1P2_FILE_TYPES)[number];

/** CEDS grade levels (reference §2), canonical case. */
export const GRADES = [
  'IT',
  'PR',
  'PK',
  'TK',
  'KG',
  '01',
  '02',
  '03',
  '04',
  '05',
  '06',
  '07',
  '08',
  '09',
  '10',
  '11',
  '12',
  '13',
  'PS',
  'UG',
  'Other',
] as const;

export type CellKind =
  /** Free text; empty = absent. */
  | 'text'
  /** One of `values`, matched case-insensitively, stored in canonical case (or, `extensible`, an `ext:` value as given). */
  | 'enum'
  | 'boolean'
  /** `YYYY-MM-DD`. */
  | 'date'
  /** ISO 8601 datetime (stored as an instant). */
  | 'datetime'
  /** A decimal number (gradebook floats). */
  | 'number'
  /** Four digits. */
  | 'year'
  /** Comma-separated strings. */
  | 'list'
  /** Comma-separated CEDS grades. */
  | 'grades'
  /** Comma-separated values of `values`, each matched case-insensitively (`resources.roles`). */
  | 'enumList'
  /** `{type:identifier}` items, comma-separated. */
  | 'userIds'
  /** `{itemValueLHS:itemValueRHS}` items, comma-separated (v1.2 `scoreScaleValue`). */
  | 'scaleValues'
  /** A learning objective source: `case`, `unknown` or a lower-case name (stored `/name`). */
  | 'objectiveSource'
  /** One sourcedId of a `ref` record. */
  | 'ref'
  /** Comma-separated sourcedIds of `ref` records. */
  | 'refs'
  /** Read and dropped (`password`: never stored). */
  | 'ignored';

/** PostgreSQL type of the staged value. */
export type PgType = 'text' | 'text[]' | 'boolean' | 'date' | 'timestamptz' | 'double precision' | 'jsonb';

export interface CsvColumn {
  /** Header name, exactly as the binding spells it. */
  readonly name: string;
  readonly kind: CellKind;
  /** A value is required in every (non-tombstone) row. */
  readonly required: boolean;
  readonly values?: readonly string[];
  /** v1.2 extensible enumerations: `ext:<name>` values are valid too. */
  readonly extensible?: boolean;
  readonly ref?: RosterFileType;
  /**
   * Table column; absent for `ignored` and for a column read and checked but not stored (a v1.2
   * result's `classSourcedId`, always its line item's class).
   */
  readonly db?: string;
}

/** What a derived column may look up in the reference index (an org's type). */
export interface DerivedLookups {
  extra(type: RosterFileType, id: string): string | undefined;
}

/**
 * A stored column computed from other columns of the same row (`role_group` from `role`), after
 * they are read. Staged after the data columns, in the order given.
 */
export interface DerivedColumn {
  /** Table column. */
  readonly db: string;
  readonly pg: PgType;
  /** The CSV columns it is computed from (stored ones), by header name. */
  readonly from: readonly string[];
  /** Types whose kept values `compute` looks up: loaded before the file is read. */
  readonly looksUp?: readonly RosterFileType[];
  /**
   * The value from the staged values of `from`, in that order (null where a cell is empty or
   * invalid). `values` is reused from row to row: read it, do not keep it.
   */
  readonly compute: (values: readonly unknown[], refs: DerivedLookups) => string | number | boolean | null;
}

export interface FileLayout {
  readonly type: RosterFileType;
  readonly fileName: string;
  readonly table: string;
  /** What one row is called in messages ("'x' is not a known class sourcedId"). */
  readonly recordName: string;
  /** Data columns after `sourcedId`, `status`, `dateLastModified`. */
  readonly columns: readonly CsvColumn[];
  /** A second dense ordinal per partition (`type_ordinal` by `type`, `group_ordinal` by `role_group`). */
  readonly partitionOrdinal?: { readonly column: string; readonly by: string };
  readonly derived?: readonly DerivedColumn[];
  /**
   * Columns the folds of other files' records fill in the staging table before the merge (a v1.2
   * user's roles, profiles and resources, and the v1.1 view of the roles; `import-folds.ts`):
   * staged empty after the derived ones, then compared and written like the others. A file
   * with such columns is never loaded straight into its table.
   */
  readonly filledByFolds?: readonly { readonly db: string; readonly pg: PgType }[];
  /**
   * What the reference index keeps with each id of this type besides the id (table columns):
   * `extra`, a value other files' cross-field rules look up (an org's type, a class's school);
   * `parent`, a reference to a record of the same type (parent cycles are refused).
   */
  readonly refIndex?: { readonly extra?: string; readonly parent?: string };
  /**
   * The table keeps dense `ordinal`s (the rostering tables). The resources and gradebook tables
   * have none: their default order is their "C"-collated `sourced_id`.
   */
  readonly ordinals: boolean;
  /**
   * Gradebook tables: rows may also be written through the API by an app (`owner_app_id`). An
   * import never changes or tombstones those rows, and a file naming one of them is refused.
   */
  readonly appWritable?: boolean;
  /**
   * Link records (`classResources`, `courseResources`): the owning record whose `resources`
   * derive from them gets a new `dateLastModified` when its set of active links changes.
   */
  readonly links?: { readonly ownerTable: string; readonly owner: string; readonly target: string };
  /**
   * Each row is the whole truth about these records of the record it describes (`roles.csv`
   * records of a user described by a v1.1 users row): its active ones are tombstoned.
   */
  readonly replaces?: { readonly table: string; readonly owner: string };
}

export interface ColumnOptions {
  required?: boolean;
  values?: readonly string[];
  extensible?: boolean;
  ref?: RosterFileType;
}

export const col = (name: string, kind: CellKind, db: string | undefined, o: ColumnOptions = {}): CsvColumn => ({
  name,
  kind,
  required: o.required ?? false,
  ...(db ? { db } : {}),
  ...(o.values ? { values: o.values } : {}),
  ...(o.extensible ? { extensible: true } : {}),
  ...(o.ref ? { ref: o.ref } : {}),
});
export const req = { required: true };

export const FILE_LAYOUTS: Readonly<Record<V1p1FileType, FileLayout>> = {
  orgs: {
    type: 'orgs',
    recordName: 'org',
    ordinals: true,
    fileName: 'orgs.csv',
    table: 'roster_orgs',
    columns: [
      col('name', 'text', 'name', req),
      col('type', 'enum', 'type', { required: true, values: ORG_TYPES }),
      col('identifier', 'text', 'identifier'),
      col('parentSourcedId', 'ref', 'parent_sourced_id', { ref: 'orgs' }),
    ],
    refIndex: { extra: 'type', parent: 'parent_sourced_id' },
  },
  academicSessions: {
    type: 'academicSessions',
    recordName: 'academic session',
    ordinals: true,
    fileName: 'academicSessions.csv',
    table: 'roster_academic_sessions',
    columns: [
      col('title', 'text', 'title', req),
      col('type', 'enum', 'type', { required: true, values: SESSION_TYPES }),
      col('startDate', 'date', 'start_date', req),
      col('endDate', 'date', 'end_date', req),
      col('parentSourcedId', 'ref', 'parent_sourced_id', { ref: 'academicSessions' }),
      col('schoolYear', 'year', 'school_year', req),
    ],
    partitionOrdinal: { column: 'type_ordinal', by: 'type' },
    refIndex: { parent: 'parent_sourced_id' },
  },
  courses: {
    type: 'courses',
    recordName: 'course',
    ordinals: true,
    fileName: 'courses.csv',
    table: 'roster_courses',
    columns: [
      col('schoolYearSourcedId', 'ref', 'school_year_sourced_id', { ref: 'academicSessions' }),
      col('title', 'text', 'title', req),
      col('courseCode', 'text', 'course_code'),
      col('grades', 'grades', 'grades'),
      col('orgSourcedId', 'ref', 'org_sourced_id', { required: true, ref: 'orgs' }),
      col('subjects', 'list', 'subjects'),
      col('subjectCodes', 'list', 'subject_codes'),
    ],
  },
  classes: {
    type: 'classes',
    recordName: 'class',
    ordinals: true,
    fileName: 'classes.csv',
    table: 'roster_classes',
    columns: [
      col('title', 'text', 'title', req),
      col('grades', 'grades', 'grades'),
      col('courseSourcedId', 'ref', 'course_sourced_id', { required: true, ref: 'courses' }),
      col('classCode', 'text', 'class_code'),
      col('classType', 'enum', 'class_type', { required: true, values: CLASS_TYPES }),
      col('location', 'text', 'location'),
      col('schoolSourcedId', 'ref', 'school_sourced_id', { required: true, ref: 'orgs' }),
      col('termSourcedIds', 'refs', 'term_sourced_ids', { required: true, ref: 'academicSessions' }),
      col('subjects', 'list', 'subjects'),
      col('subjectCodes', 'list', 'subject_codes'),
      col('periods', 'list', 'periods'),
    ],
    refIndex: { extra: 'school_sourced_id' },
  },
  users: {
    type: 'users',
    recordName: 'user',
    ordinals: true,
    fileName: 'users.csv',
    table: 'roster_users',
    columns: [
      col('enabledUser', 'boolean', 'enabled_user', req),
      col('orgSourcedIds', 'refs', 'org_sourced_ids', { required: true, ref: 'orgs' }),
      col('role', 'enum', 'role', { required: true, values: ROLE_TYPES }),
      col('username', 'text', 'username', req),
      col('userIds', 'userIds', 'user_ids'),
      col('givenName', 'text', 'given_name', req),
      col('familyName', 'text', 'family_name', req),
      col('middleName', 'text', 'middle_name'),
      col('identifier', 'text', 'identifier'),
      col('email', 'text', 'email'),
      col('sms', 'text', 'sms'),
      col('phone', 'text', 'phone'),
      col('agentSourcedIds', 'refs', 'agent_sourced_ids', { ref: 'users' }),
      col('grades', 'grades', 'grades'),
      col('password', 'ignored', undefined),
    ],
    partitionOrdinal: { column: 'group_ordinal', by: 'role_group' },
    derived: [
      {
        db: 'role_group',
        pg: 'text',
        from: ['role'],
        compute: (v) => (typeof v[0] === 'string' ? roleGroupOf(v[0] as RosterRole) : null),
      },
      // The v1.2 view of the row (one store, two views): a primary role per org, the first org primary.
      {
        db: 'roles',
        pg: 'jsonb',
        from: ['role', 'orgSourcedIds'],
        looksUp: ['orgs'],
        compute: (v, refs) =>
          typeof v[0] === 'string' && typeof v[1] === 'string' ? v1p1RowRolesJson(v[0], v[1], refs) : null,
      },
      {
        db: 'primary_org_sourced_id',
        pg: 'text',
        from: ['orgSourcedIds'],
        compute: (v) => (typeof v[0] === 'string' ? firstOfTextArrayLiteral(v[0]) : null),
      },
    ],
    // A v1.1 row says all there is about the user's roles: v1.2 role records of the user end.
    replaces: { table: 'roster_user_roles', owner: 'user_sourced_id' },
  },
  enrollments: {
    type: 'enrollments',
    recordName: 'enrollment',
    ordinals: true,
    fileName: 'enrollments.csv',
    table: 'roster_enrollments',
    columns: [
      col('classSourcedId', 'ref', 'class_sourced_id', { required: true, ref: 'classes' }),
      col('schoolSourcedId', 'ref', 'school_sourced_id', { required: true, ref: 'orgs' }),
      col('userSourcedId', 'ref', 'user_sourced_id', { required: true, ref: 'users' }),
      col('role', 'enum', 'role', { required: true, values: ROLE_TYPES }),
      col('primary', 'boolean', 'primary'),
      col('beginDate', 'date', 'begin_date'),
      col('endDate', 'date', 'end_date'),
    ],
  },
  demographics: {
    type: 'demographics',
    recordName: 'demographics',
    ordinals: true,
    fileName: 'demographics.csv',
    table: 'roster_demographics',
    columns: [
      col('birthDate', 'date', 'birth_date'),
      col('sex', 'enum', 'sex', { values: GENDER_TYPES }),
      col('americanIndianOrAlaskaNative', 'boolean', 'american_indian_or_alaska_native'),
      col('asian', 'boolean', 'asian'),
      col('blackOrAfricanAmerican', 'boolean', 'black_or_african_american'),
      col('nativeHawaiianOrOtherPacificIslander', 'boolean', 'native_hawaiian_or_other_pacific_islander'),
      col('white', 'boolean', 'white'),
      col('demographicRaceTwoOrMoreRaces', 'boolean', 'demographic_race_two_or_more_races'),
      col('hispanicOrLatinoEthnicity', 'boolean', 'hispanic_or_latino_ethnicity'),
      col('countryOfBirthCode', 'text', 'country_of_birth_code'),
      col('stateOfBirthAbbreviation', 'text', 'state_of_birth_abbreviation'),
      col('cityOfBirth', 'text', 'city_of_birth'),
      col('publicSchoolResidenceStatus', 'text', 'public_school_residence_status'),
    ],
  },
  resources: {
    type: 'resources',
    recordName: 'resource',
    ordinals: false,
    fileName: 'resources.csv',
    table: 'roster_resources',
    columns: [
      col('vendorResourceId', 'text', 'vendor_resource_id', req),
      col('title', 'text', 'title'),
      col('roles', 'enumList', 'roles', { values: ROLE_TYPES }),
      col('importance', 'enum', 'importance', { values: IMPORTANCE_TYPES }),
      col('vendorId', 'text', 'vendor_id'),
      col('applicationId', 'text', 'application_id'),
    ],
  },
  classResources: {
    type: 'classResources',
    recordName: 'class resource',
    ordinals: false,
    fileName: 'classResources.csv',
    table: 'roster_class_resources',
    columns: [
      col('title', 'text', 'title'),
      col('classSourcedId', 'ref', 'class_sourced_id', { required: true, ref: 'classes' }),
      col('resourceSourcedId', 'ref', 'resource_sourced_id', { required: true, ref: 'resources' }),
    ],
    links: { ownerTable: 'roster_classes', owner: 'class_sourced_id', target: 'resource_sourced_id' },
  },
  courseResources: {
    type: 'courseResources',
    recordName: 'course resource',
    ordinals: false,
    fileName: 'courseResources.csv',
    table: 'roster_course_resources',
    columns: [
      col('title', 'text', 'title'),
      col('courseSourcedId', 'ref', 'course_sourced_id', { required: true, ref: 'courses' }),
      col('resourceSourcedId', 'ref', 'resource_sourced_id', { required: true, ref: 'resources' }),
    ],
    links: { ownerTable: 'roster_courses', owner: 'course_sourced_id', target: 'resource_sourced_id' },
  },
  categories: {
    type: 'categories',
    recordName: 'category',
    ordinals: false,
    appWritable: true,
    fileName: 'categories.csv',
    table: 'gradebook_categories',
    columns: [col('title', 'text', 'title', req)],
  },
  lineItems: {
    type: 'lineItems',
    recordName: 'line item',
    ordinals: false,
    appWritable: true,
    fileName: 'lineItems.csv',
    table: 'gradebook_line_items',
    columns: [
      col('title', 'text', 'title', req),
      col('description', 'text', 'description'),
      col('assignDate', 'datetime', 'assign_date', req),
      col('dueDate', 'datetime', 'due_date', req),
      col('classSourcedId', 'ref', 'class_sourced_id', { required: true, ref: 'classes' }),
      col('categorySourcedId', 'ref', 'category_sourced_id', { required: true, ref: 'categories' }),
      col('gradingPeriodSourcedId', 'ref', 'grading_period_sourced_id', { required: true, ref: 'academicSessions' }),
      col('resultValueMin', 'number', 'result_value_min'),
      col('resultValueMax', 'number', 'result_value_max'),
    ],
  },
  results: {
    type: 'results',
    recordName: 'result',
    ordinals: false,
    appWritable: true,
    fileName: 'results.csv',
    table: 'gradebook_results',
    columns: [
      col('lineItemSourcedId', 'ref', 'line_item_sourced_id', { required: true, ref: 'lineItems' }),
      col('studentSourcedId', 'ref', 'student_sourced_id', { required: true, ref: 'users' }),
      col('scoreStatus', 'enum', 'score_status', { required: true, values: SCORE_STATUS_TYPES }),
      // Required unless the score status is `exempt` or `not submitted` (checked per row).
      col('score', 'number', 'score'),
      col('scoreDate', 'date', 'score_date', req),
      col('comment', 'text', 'comment'),
    ],
  },
};

/** The staged PostgreSQL type of a column. */
export function pgTypeOf(c: CsvColumn): PgType {
  switch (c.kind) {
    case 'text':
    case 'enum':
    case 'objectiveSource':
    case 'year':
    case 'ref':
    case 'ignored':
      return 'text';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'datetime':
      return 'timestamptz';
    case 'number':
      return 'double precision';
    case 'list':
    case 'grades':
    case 'enumList':
    case 'refs':
      return 'text[]';
    case 'userIds':
    case 'scaleValues':
      return 'jsonb';
  }
}

/** Columns that land in the table (everything but `password` and the checked-only ones). */
export function storedColumns(layout: FileLayout): readonly CsvColumn[] {
  return layout.columns.filter((c) => c.db !== undefined);
}

/** Every standard header of a file, in the binding's order. */
export function standardHeaders(layout: FileLayout): string[] {
  return ['sourcedId', 'status', 'dateLastModified', ...layout.columns.map((c) => c.name)];
}
