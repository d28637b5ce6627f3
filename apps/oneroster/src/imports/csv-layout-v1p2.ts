/**
 * The OneRoster v1.2 CSV binding (reference v1.2 §10): the v1.1 files with their v1.2 columns,
 * the extensible enumerations (`ext:` values), and the eight new files. The new files other
 * than `scoreScales.csv` hold records that describe parts of another record (a user's roles,
 * profiles, resources; a line item's or result's score scale and learning objectives): they
 * are stored as records of their own and folded into their owner after the merge
 * (`import-folds.ts`).
 */
import {
  CLASS_TYPES,
  ENROLLMENT_ROLE_TYPES,
  ORG_TYPES,
  ROLE_TYPES,
  SCORE_STATUS_TYPES,
  SESSION_TYPES,
  V1P2_GENDER_TYPES,
  V1P2_ROLE_KINDS,
  V1P2_ROLE_TYPES,
} from '@edu/oneroster-query';
import { col, FILE_LAYOUTS, req, type CsvColumn, type FileLayout, type RosterFileType } from './csv-layout';

/** An enumeration that also takes `ext:<name>` values. */
const ext = (values: readonly string[], required = false) => ({ values, extensible: true, required });
/** A reference to a record of `ref`. */
const ref = (ref: RosterFileType, required = false) => ({ ref, required });

/** A v1.1 layout with other columns (and other settings). */
const v1p1 = (
  type: keyof typeof FILE_LAYOUTS,
  columns: readonly CsvColumn[],
  more: Partial<FileLayout> = {},
): FileLayout => ({ ...FILE_LAYOUTS[type], columns, ...more });

/** A new file of records (no ordinals, never written by apps). */
const records = (
  type: RosterFileType,
  recordName: string,
  table: string,
  columns: readonly CsvColumn[],
  more: Partial<FileLayout> = {},
): FileLayout => ({
  type,
  recordName,
  fileName: `${type}.csv`,
  table,
  ordinals: false,
  columns,
  ...more,
});

const rostering: Readonly<
  Record<'orgs' | 'academicSessions' | 'courses' | 'classes' | 'users' | 'enrollments' | 'demographics', FileLayout>
> = {
  orgs: v1p1('orgs', [
    col('name', 'text', 'name', req),
    col('type', 'enum', 'type', ext(ORG_TYPES, true)),
    col('identifier', 'text', 'identifier'),
    col('parentSourcedId', 'ref', 'parent_sourced_id', ref('orgs')),
  ]),
  academicSessions: v1p1('academicSessions', [
    col('title', 'text', 'title', req),
    col('type', 'enum', 'type', ext(SESSION_TYPES, true)),
    col('startDate', 'date', 'start_date', req),
    col('endDate', 'date', 'end_date', req),
    col('parentSourcedId', 'ref', 'parent_sourced_id', ref('academicSessions')),
    col('schoolYear', 'year', 'school_year', req),
  ]),
  courses: FILE_LAYOUTS.courses,
  classes: v1p1('classes', [
    col('title', 'text', 'title', req),
    col('grades', 'grades', 'grades'),
    col('courseSourcedId', 'ref', 'course_sourced_id', ref('courses', true)),
    col('classCode', 'text', 'class_code'),
    col('classType', 'enum', 'class_type', ext(CLASS_TYPES, true)),
    col('location', 'text', 'location'),
    col('schoolSourcedId', 'ref', 'school_sourced_id', ref('orgs', true)),
    col('termSourcedIds', 'refs', 'term_sourced_ids', ref('academicSessions', true)),
    col('subjects', 'list', 'subjects'),
    col('subjectCodes', 'list', 'subject_codes'),
    col('periods', 'list', 'periods'),
  ]),
  users: v1p1(
    'users',
    [
      col('enabledUser', 'boolean', 'enabled_user', req),
      col('username', 'text', 'username', req),
      col('userIds', 'userIds', 'user_ids'),
      col('givenName', 'text', 'given_name', req),
      col('familyName', 'text', 'family_name', req),
      col('middleName', 'text', 'middle_name'),
      col('identifier', 'text', 'identifier'),
      col('email', 'text', 'email'),
      col('sms', 'text', 'sms'),
      col('phone', 'text', 'phone'),
      col('agentSourcedIds', 'refs', 'agent_sourced_ids', ref('users')),
      col('grades', 'grades', 'grades'),
      col('password', 'ignored', undefined),
      col('userMasterIdentifier', 'text', 'user_master_identifier'),
      col('preferredGivenName', 'text', 'preferred_first_name'),
      col('preferredMiddleName', 'text', 'preferred_middle_name'),
      col('preferredFamilyName', 'text', 'preferred_last_name'),
      col('primaryOrgSourcedId', 'ref', 'primary_org_sourced_id', ref('orgs')),
      col('pronouns', 'text', 'pronouns'),
    ],
    {
      // No role or orgs on a v1.2 users row: its roles.csv, userProfiles.csv and userResources.csv records give them.
      derived: undefined,
      replaces: undefined,
      filledByFolds: [
        { db: 'roles', pg: 'jsonb' },
        { db: 'role', pg: 'text' },
        { db: 'org_sourced_ids', pg: 'text[]' },
        { db: 'role_group', pg: 'text' },
        { db: 'user_profiles', pg: 'jsonb' },
        { db: 'resource_sourced_ids', pg: 'text[]' },
      ],
    },
  ),
  enrollments: v1p1('enrollments', [
    col('classSourcedId', 'ref', 'class_sourced_id', ref('classes', true)),
    col('schoolSourcedId', 'ref', 'school_sourced_id', ref('orgs', true)),
    col('userSourcedId', 'ref', 'user_sourced_id', ref('users', true)),
    col('role', 'enum', 'role', ext(ENROLLMENT_ROLE_TYPES, true)),
    col('primary', 'boolean', 'primary'),
    col('beginDate', 'date', 'begin_date'),
    col('endDate', 'date', 'end_date'),
  ]),
  demographics: v1p1(
    'demographics',
    FILE_LAYOUTS.demographics.columns.map((c) =>
      c.name === 'sex' ? col('sex', 'enum', 'sex', ext(V1P2_GENDER_TYPES)) : c,
    ),
  ),
};

const userRecords: Readonly<Record<'userProfiles' | 'roles' | 'userResources', FileLayout>> = {
  userProfiles: records(
    'userProfiles',
    'user profile',
    'roster_user_profiles',
    [
      col('userSourcedId', 'ref', 'user_sourced_id', ref('users', true)),
      col('profileType', 'text', 'profile_type', req),
      col('vendorId', 'text', 'vendor_id', req),
      col('applicationId', 'text', 'application_id'),
      col('description', 'text', 'description'),
      col('credentialType', 'text', 'credential_type', req),
      col('username', 'text', 'username', req),
      col('password', 'ignored', undefined),
    ],
    // A role's profile must be one of its user's.
    { refIndex: { extra: 'user_sourced_id' } },
  ),
  roles: records('roles', 'role', 'roster_user_roles', [
    col('userSourcedId', 'ref', 'user_sourced_id', ref('users', true)),
    col('roleType', 'enum', 'role_type', { values: V1P2_ROLE_KINDS, required: true }),
    col('role', 'enum', 'role', ext(V1P2_ROLE_TYPES, true)),
    col('beginDate', 'date', 'begin_date'),
    col('endDate', 'date', 'end_date'),
    col('orgSourcedId', 'ref', 'org_sourced_id', ref('orgs', true)),
    col('userProfileSourcedId', 'ref', 'user_profile_sourced_id', ref('userProfiles')),
  ]),
  userResources: records('userResources', 'user resource', 'roster_user_resources', [
    col('userSourcedId', 'ref', 'user_sourced_id', ref('users', true)),
    col('orgSourcedId', 'ref', 'org_sourced_id', ref('orgs')),
    col('classSourcedId', 'ref', 'class_sourced_id', ref('classes')),
    col('resourceSourcedId', 'ref', 'resource_sourced_id', ref('resources', true)),
  ]),
};

const resources: Readonly<Record<'resources' | 'classResources' | 'courseResources', FileLayout>> = {
  resources: v1p1(
    'resources',
    FILE_LAYOUTS.resources.columns.map((c) =>
      c.name === 'roles' ? col('roles', 'enumList', 'roles', ext(ROLE_TYPES)) : c,
    ),
  ),
  classResources: FILE_LAYOUTS.classResources,
  courseResources: FILE_LAYOUTS.courseResources,
};

const gradebook: Readonly<Record<'categories' | 'scoreScales' | 'lineItems' | 'results', FileLayout>> = {
  categories: v1p1('categories', [col('title', 'text', 'title', req), col('weight', 'number', 'weight')]),
  scoreScales: records(
    'scoreScales',
    'score scale',
    'gradebook_score_scales',
    [
      col('title', 'text', 'title', req),
      col('type', 'text', 'type', req),
      col('orgSourcedId', 'ref', 'org_sourced_id', ref('orgs', true)),
      col('courseSourcedId', 'ref', 'course_sourced_id', ref('courses')),
      col('classSourcedId', 'ref', 'class_sourced_id', ref('classes', true)),
      col('scoreScaleValue', 'scaleValues', 'score_scale_value', req),
    ],
    { appWritable: true },
  ),
  lineItems: v1p1(
    'lineItems',
    [
      col('title', 'text', 'title', req),
      col('description', 'text', 'description'),
      col('assignDate', 'datetime', 'assign_date', req),
      col('dueDate', 'datetime', 'due_date', req),
      col('classSourcedId', 'ref', 'class_sourced_id', ref('classes', true)),
      col('categorySourcedId', 'ref', 'category_sourced_id', ref('categories', true)),
      col('academicSessionSourcedId', 'ref', 'academic_session_sourced_id', ref('academicSessions', true)),
      col('resultValueMin', 'number', 'result_value_min'),
      col('resultValueMax', 'number', 'result_value_max'),
      col('schoolSourcedId', 'ref', 'school_sourced_id', ref('orgs', true)),
    ],
    // A result's classSourcedId must be its line item's class.
    { refIndex: { extra: 'class_sourced_id' } },
  ),
  results: v1p1('results', [
    col('lineItemSourcedId', 'ref', 'line_item_sourced_id', ref('lineItems', true)),
    col('studentSourcedId', 'ref', 'student_sourced_id', ref('users', true)),
    col('scoreStatus', 'enum', 'score_status', ext(SCORE_STATUS_TYPES, true)),
    // Required unless textScore is given or the status is `exempt` or `not submitted` (checked per row).
    col('score', 'number', 'score'),
    col('scoreDate', 'date', 'score_date', req),
    col('comment', 'text', 'comment'),
    col('textScore', 'text', 'text_score'),
    // Checked, not stored: the read side serves the line item's class.
    col('classSourcedId', 'ref', undefined, ref('classes')),
    col('inProgress', 'boolean', 'in_progress'),
    col('incomplete', 'boolean', 'incomplete'),
    col('late', 'boolean', 'late'),
    col('missing', 'boolean', 'missing'),
  ]),
};

const gradebookRecords: Readonly<
  Record<
    'lineItemScoreScales' | 'lineItemLearningObjectiveIds' | 'resultScoreScales' | 'resultLearningObjectiveIds',
    FileLayout
  >
> = {
  lineItemScoreScales: records('lineItemScoreScales', 'line item score scale', 'gradebook_line_item_score_scales', [
    col('title', 'text', 'title'),
    col('lineItemSourcedId', 'ref', 'line_item_sourced_id', ref('lineItems', true)),
    col('scoreScaleSourcedId', 'ref', 'score_scale_sourced_id', ref('scoreScales', true)),
  ]),
  lineItemLearningObjectiveIds: records(
    'lineItemLearningObjectiveIds',
    'line item learning objective',
    'gradebook_line_item_learning_objectives',
    [
      col('lineItemSourcedId', 'ref', 'line_item_sourced_id', ref('lineItems', true)),
      col('source', 'objectiveSource', 'source', req),
      col('learningObjectiveId', 'text', 'learning_objective_id', req),
    ],
  ),
  resultScoreScales: records('resultScoreScales', 'result score scale', 'gradebook_result_score_scales', [
    col('title', 'text', 'title'),
    col('resultSourcedId', 'ref', 'result_sourced_id', ref('results', true)),
    col('scoreScaleSourcedId', 'ref', 'score_scale_sourced_id', ref('scoreScales', true)),
  ]),
  resultLearningObjectiveIds: records(
    'resultLearningObjectiveIds',
    'result learning objective',
    'gradebook_result_learning_objectives',
    [
      col('resultSourcedId', 'ref', 'result_sourced_id', ref('results', true)),
      col('source', 'objectiveSource', 'source', req),
      col('learningObjectiveId', 'text', 'learning_objective_id', req),
      col('score', 'number', 'score'),
      col('textScore', 'text', 'text_score'),
    ],
  ),
};

export const FILE_LAYOUTS_V1P2: Readonly<Record<RosterFileType, FileLayout>> = {
  ...rostering,
  ...userRecords,
  ...resources,
  ...gradebook,
  ...gradebookRecords,
};
