/**
 * Field catalogs of the OneRoster classes served, per version: v1.1 (reference §3: the rostering
 * classes, category/lineItem/result, resource) and v1.2 (`catalog-v1p2.ts`, which adds scoreScale,
 * assessmentLineItem and assessmentResult); lookups into them.
 */
import {
  CLASS_TYPES,
  GENDER_TYPES,
  GUID_REF_TYPES,
  IMPORTANCE_TYPES,
  ORG_TYPES,
  ROLE_TYPES,
  SCORE_STATUS_TYPES,
  SESSION_TYPES,
  V1P2_GUID_REF_TYPES,
  V1P2_ROLE_KINDS,
  V1P2_ROLE_TYPES,
} from './enums';
import { BASE_FIELDS, bool, date, datetime, enumOf, field, list, num, ref, refs, str } from './field-defs';
import { V1P2_CLASS_FIELDS, V1P2_RESOURCES } from './catalog-v1p2';
import type { FieldDef, FieldKind, SubFieldDef } from './field-kinds';

export const ONEROSTER_VERSIONS = ['v1p1', 'v1p2'] as const;
/** The binding a request is answered in: `v1p1` (`/ims/oneroster/v1p1`) or `v1p2` (the three v1p2 services). */
export type OneRosterVersion = (typeof ONEROSTER_VERSIONS)[number];

/** The classes served by v1.1, named as in the information model: rostering, then gradebook, then resources. */
export const ONEROSTER_RESOURCES = [
  'academicSession',
  'class',
  'course',
  'demographics',
  'enrollment',
  'org',
  'user',
  'category',
  'lineItem',
  'result',
  'resource',
] as const;
/** Every class of either version (v1.2 adds three gradebook classes). */
export type OneRosterResource = (typeof ONEROSTER_RESOURCES)[number] | (typeof V1P2_RESOURCES)[number];

/** The classes of a version. */
export function resourcesOf(version: OneRosterVersion): readonly OneRosterResource[] {
  return version === 'v1p1' ? ONEROSTER_RESOURCES : V1P2_RESOURCES;
}

/** JSON wrapper keys per class (reference §4.1, v1.2 §5.1): the payload type, not the route, picks them. */
export const RESOURCE_KEYS: Readonly<
  Record<OneRosterResource, { readonly single: string; readonly collection: string }>
> = {
  academicSession: { single: 'academicSession', collection: 'academicSessions' },
  class: { single: 'class', collection: 'classes' },
  course: { single: 'course', collection: 'courses' },
  demographics: { single: 'demographics', collection: 'demographics' },
  enrollment: { single: 'enrollment', collection: 'enrollments' },
  org: { single: 'org', collection: 'orgs' },
  user: { single: 'user', collection: 'users' },
  category: { single: 'category', collection: 'categories' },
  lineItem: { single: 'lineItem', collection: 'lineItems' },
  result: { single: 'result', collection: 'results' },
  scoreScale: { single: 'scoreScale', collection: 'scoreScales' },
  assessmentLineItem: { single: 'assessmentLineItem', collection: 'assessmentLineItems' },
  assessmentResult: { single: 'assessmentResult', collection: 'assessmentResults' },
  resource: { single: 'resource', collection: 'resources' },
};

const CLASS_FIELDS: Readonly<Record<(typeof ONEROSTER_RESOURCES)[number], readonly FieldDef[]>> = {
  academicSession: [
    str('title'),
    date('startDate'),
    date('endDate'),
    enumOf('type', SESSION_TYPES),
    ref('parent'),
    refs('children'),
    field('schoolYear', 'year'),
  ],
  class: [
    str('title'),
    str('classCode'),
    enumOf('classType', CLASS_TYPES),
    str('location'),
    list('grades'),
    list('subjects'),
    ref('course'),
    ref('school'),
    refs('terms'),
    list('subjectCodes'),
    list('periods'),
    refs('resources'),
  ],
  course: [
    str('title'),
    ref('schoolYear'),
    str('courseCode'),
    list('grades'),
    list('subjects'),
    ref('org'),
    list('subjectCodes'),
    refs('resources'),
  ],
  demographics: [
    date('birthDate'),
    enumOf('sex', GENDER_TYPES),
    bool('americanIndianOrAlaskaNative'),
    bool('asian'),
    bool('blackOrAfricanAmerican'),
    bool('nativeHawaiianOrOtherPacificIslander'),
    bool('white'),
    bool('demographicRaceTwoOrMoreRaces'),
    bool('hispanicOrLatinoEthnicity'),
    str('countryOfBirthCode'),
    str('stateOfBirthAbbreviation'),
    str('cityOfBirth'),
    str('publicSchoolResidenceStatus'),
  ],
  enrollment: [
    ref('user'),
    ref('class'),
    ref('school'),
    // Filters accept every RoleType: the importer stores all eight (reference §2).
    enumOf('role', ROLE_TYPES),
    bool('primary'),
    date('beginDate'),
    date('endDate'),
  ],
  org: [str('name'), enumOf('type', ORG_TYPES), str('identifier'), ref('parent'), refs('children')],
  user: [
    str('username'),
    field('userIds', 'userIds'),
    bool('enabledUser'),
    str('givenName'),
    str('familyName'),
    str('middleName'),
    enumOf('role', ROLE_TYPES),
    str('identifier'),
    str('email'),
    str('sms'),
    str('phone'),
    refs('agents'),
    refs('orgs'),
    list('grades'),
    // Never emitted and never usable as a filter or sort key (it would be a password oracle).
    str('password', { filterable: false, sortable: false }),
  ],
  // Gradebook and resources classes (reference §3.11).
  category: [str('title')],
  lineItem: [
    str('title'),
    str('description'),
    datetime('assignDate'),
    datetime('dueDate'),
    ref('class'),
    ref('category'),
    ref('gradingPeriod'),
    num('resultValueMin'),
    num('resultValueMax'),
  ],
  result: [
    ref('lineItem'),
    ref('student'),
    enumOf('scoreStatus', SCORE_STATUS_TYPES),
    num('score'),
    date('scoreDate'),
    str('comment'),
  ],
  // `roles` holds RoleType values; filtered as a list of text like `grades`.
  resource: [
    str('title'),
    list('roles'),
    enumOf('importance', IMPORTANCE_TYPES),
    str('vendorResourceId'),
    str('vendorId'),
    str('applicationId'),
  ],
};

/** Sub-fields of a GUIDRef (reference §3.2). */
export const GUID_REF_SUBFIELDS: readonly SubFieldDef[] = [
  { name: 'sourcedId', valueKind: 'string', caseSensitive: true },
  { name: 'href', valueKind: 'string', caseSensitive: true },
  { name: 'type', valueKind: 'enum', values: GUID_REF_TYPES, caseSensitive: true },
];

/** Sub-fields of a v1.2 GUIDRef: its `type` is one fixed literal per field. */
const V1P2_GUID_REF_SUBFIELDS: readonly SubFieldDef[] = [
  { name: 'sourcedId', valueKind: 'string', caseSensitive: true },
  { name: 'href', valueKind: 'string', caseSensitive: true },
  { name: 'type', valueKind: 'enum', values: V1P2_GUID_REF_TYPES, caseSensitive: true },
];

/** Sub-fields of a v1.2 Role (`roles.role='teacher'`, `roles.org.sourcedId='s1'`; bare `roles.org` = its sourcedId). */
export const ROLE_SUBFIELDS: readonly SubFieldDef[] = [
  { name: 'roleType', valueKind: 'enum', values: V1P2_ROLE_KINDS, caseSensitive: true },
  { name: 'role', valueKind: 'enum', values: V1P2_ROLE_TYPES, extensible: true, caseSensitive: true },
  ...V1P2_GUID_REF_SUBFIELDS.map((s) => ({ ...s, name: `org.${s.name}` })),
  { name: 'userProfile', valueKind: 'string', caseSensitive: true },
  { name: 'beginDate', valueKind: 'date', caseSensitive: true },
  { name: 'endDate', valueKind: 'date', caseSensitive: true },
];

/** Sub-fields of a UserId (reference §3.3). */
export const USER_ID_SUBFIELDS: readonly SubFieldDef[] = [
  { name: 'type', valueKind: 'string', caseSensitive: false },
  { name: 'identifier', valueKind: 'string', caseSensitive: false },
];

/** Catalog of one class in one version: its fields in model order, plus case-insensitive lookup. */
export interface ResourceCatalog {
  readonly resource: OneRosterResource;
  readonly version: OneRosterVersion;
  readonly fields: readonly FieldDef[];
  /** Finds a top-level field; names match case-insensitively. */
  field(name: string): FieldDef | undefined;
}

function buildCatalog(
  resource: OneRosterResource,
  version: OneRosterVersion,
  classFields: readonly FieldDef[],
): ResourceCatalog {
  const fields = Object.freeze([...BASE_FIELDS, ...classFields]);
  const byName = new Map(fields.map((f) => [f.name.toLowerCase(), f]));
  return Object.freeze({ resource, version, fields, field: (name: string) => byName.get(name.toLowerCase()) });
}

const CATALOGS: Readonly<Record<OneRosterVersion, ReadonlyMap<string, ResourceCatalog>>> = {
  v1p1: new Map(ONEROSTER_RESOURCES.map((r) => [r, buildCatalog(r, 'v1p1', CLASS_FIELDS[r])])),
  v1p2: new Map(V1P2_RESOURCES.map((r) => [r, buildCatalog(r, 'v1p2', V1P2_CLASS_FIELDS[r])])),
};

export function isOneRosterResource(value: string, version: OneRosterVersion = 'v1p1'): value is OneRosterResource {
  return CATALOGS[version].has(value);
}

/** The catalog of a class in a version. Throws a TypeError for a class the version lacks (a programming error). */
export function getCatalog(resource: OneRosterResource, version: OneRosterVersion = 'v1p1'): ResourceCatalog {
  const catalog = CATALOGS[version].get(resource);
  if (!catalog) throw new TypeError(`Unknown OneRoster ${version} resource '${String(resource)}'`);
  return catalog;
}

/** A class as the query functions take it: a v1.1 class name, or the catalog of a class in a version. */
export type ClassRef = OneRosterResource | ResourceCatalog;

export function catalogOf(ref: ClassRef): ResourceCatalog {
  return typeof ref === 'string' ? getCatalog(ref) : ref;
}

/** Names of the fields usable as `data_field` / `sort` for a class. */
export function sortableFields(ref: ClassRef): string[] {
  return catalogOf(ref)
    .fields.filter((f) => f.sortable)
    .map((f) => f.name);
}

/** Names of the top-level fields usable in `filter` (structured ones through a dotted sub-field). */
export function filterableFields(ref: ClassRef): string[] {
  return catalogOf(ref)
    .fields.filter((f) => f.filterable)
    .map((f) => f.name);
}

/** Sub-field definitions of a structured field kind in a version; empty for scalar kinds and metadata. */
export function subFieldsOf(kind: FieldKind, version: OneRosterVersion = 'v1p1'): readonly SubFieldDef[] {
  if (kind === 'guidRef' || kind === 'guidRefList')
    return version === 'v1p2' ? V1P2_GUID_REF_SUBFIELDS : GUID_REF_SUBFIELDS;
  if (kind === 'userIds') return USER_ID_SUBFIELDS;
  if (kind === 'roles') return ROLE_SUBFIELDS;
  return [];
}

const REDUCED = new Map<string, ResourceCatalog>();

/**
 * The catalog without some fields (a school's sharing withholds them): filters, sorts and field
 * selections naming them are then treated exactly as for a field the class does not have.
 */
export function catalogWithout(catalog: ResourceCatalog, names: ReadonlySet<string>): ResourceCatalog {
  if (names.size === 0) return catalog;
  const key = `${catalog.version}|${catalog.resource}|${[...names].sort().join(',')}`;
  let reduced = REDUCED.get(key);
  if (!reduced) {
    const fields = Object.freeze(catalog.fields.filter((f) => !names.has(f.name)));
    const byName = new Map(fields.map((f) => [f.name.toLowerCase(), f]));
    reduced = Object.freeze({
      resource: catalog.resource,
      version: catalog.version,
      fields,
      field: (name: string) => byName.get(name.toLowerCase()),
    });
    REDUCED.set(key, reduced);
  }
  return reduced;
}
