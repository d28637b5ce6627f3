/**
 * OneRoster v1.1 enumerations (reference §2), in canonical case.
 * Filter literals are matched case-insensitively against these and normalised to the value here.
 */

export const STATUS_TYPES = ['active', 'tobedeleted'] as const;
export const SESSION_TYPES = ['gradingPeriod', 'semester', 'schoolYear', 'term'] as const;
export const CLASS_TYPES = ['homeroom', 'scheduled'] as const;
export const ORG_TYPES = ['department', 'school', 'district', 'local', 'state', 'national'] as const;
export const ROLE_TYPES = [
  'administrator',
  'aide',
  'guardian',
  'parent',
  'proctor',
  'relative',
  'student',
  'teacher',
] as const;
/**
 * Enrollment roles emitted by the service. Filters on `enrollment.role` accept every RoleType
 * (the CSV importer accepts all eight, so any of them can be stored).
 */
export const ENROLLMENT_ROLE_TYPES = ['administrator', 'proctor', 'student', 'teacher'] as const;
export const GENDER_TYPES = ['male', 'female'] as const;
/** Gradebook `Result.scoreStatus` (reference §2): the values contain spaces. */
export const SCORE_STATUS_TYPES = ['exempt', 'fully graded', 'not submitted', 'partially graded', 'submitted'] as const;
/** Resources `Resource.importance`. */
export const IMPORTANCE_TYPES = ['primary', 'secondary'] as const;
export const GUID_REF_TYPES = [
  'academicSession',
  'category',
  'class',
  'course',
  'demographics',
  'enrollment',
  'gradingPeriod',
  'lineItem',
  'org',
  'resource',
  'result',
  'student',
  'teacher',
  'term',
  'user',
] as const;

export type StatusType = (typeof STATUS_TYPES)[number];
export type SessionType = (typeof SESSION_TYPES)[number];
export type ClassType = (typeof CLASS_TYPES)[number];
export type OrgType = (typeof ORG_TYPES)[number];
export type RoleType = (typeof ROLE_TYPES)[number];
export type GuidRefType = (typeof GUID_REF_TYPES)[number] | (typeof V1P2_GUID_REF_TYPES)[number];
export type ScoreStatus = (typeof SCORE_STATUS_TYPES)[number];

/** v1.0's `inactive` was dropped in v1.1; a filter on it means `tobedeleted`. */
export const STATUS_ALIASES: Readonly<Record<string, StatusType>> = { inactive: 'tobedeleted' };

// OneRoster v1.2 vocabularies (reference oneroster-v1p2 §3). Most are extensible: any value
// matching `EXT_VALUE` is valid too.

/** `ext:` extension values of the v1.2 extensible enumerations (the OAS pattern, anchored). */
export const EXT_VALUE = /^ext:[A-Za-z0-9._-]+$/;
/** v1.2 user roles (`Role.role`): `administrator` is gone, five values are new. */
export const V1P2_ROLE_TYPES = [
  'aide',
  'counselor',
  'districtAdministrator',
  'guardian',
  'parent',
  'principal',
  'proctor',
  'relative',
  'siteAdministrator',
  'student',
  'systemAdministrator',
  'teacher',
] as const;
export const V1P2_ROLE_KINDS = ['primary', 'secondary'] as const;
export const V1P2_GENDER_TYPES = ['male', 'female', 'unspecified', 'other'] as const;
/** v1.2 GUIDRef `type`s: exactly one per reference field. */
export const V1P2_GUID_REF_TYPES = [
  'academicSession',
  'assessmentLineItem',
  'category',
  'class',
  'course',
  'lineItem',
  'org',
  'resource',
  'scoreScale',
  'user',
] as const;
export type V1p2RoleType = (typeof V1P2_ROLE_TYPES)[number];
