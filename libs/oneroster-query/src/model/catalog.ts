/**
 * Field catalogs of the OneRoster v1.1 classes served (reference §3): the rostering classes, the
 * gradebook classes (category, lineItem, result) and the resources class; lookups into them.
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
  STATUS_ALIASES,
  STATUS_TYPES,
} from './enums';
import { SCALAR_KINDS, type FieldDef, type FieldKind, type SubFieldDef } from './field-kinds';

/** The classes served, named as in the information model: rostering, then gradebook, then resources. */
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
export type OneRosterResource = (typeof ONEROSTER_RESOURCES)[number];

/** JSON wrapper keys per class (reference §4.1): the payload type, not the route, picks them. */
export const RESOURCE_KEYS: Readonly<Record<OneRosterResource, { readonly single: string; readonly collection: string }>> = {
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
  resource: { single: 'resource', collection: 'resources' },
};

interface FieldOptions {
  readonly values?: readonly string[];
  readonly aliases?: Readonly<Record<string, string>>;
  readonly caseSensitive?: boolean;
  readonly filterable?: boolean;
  readonly sortable?: boolean;
}

function field(name: string, kind: FieldKind, options: FieldOptions = {}): FieldDef {
  const scalar = SCALAR_KINDS.includes(kind);
  const def: FieldDef = {
    name,
    kind,
    sortable: options.sortable ?? scalar,
    filterable: options.filterable ?? true,
    caseSensitive: options.caseSensitive ?? false,
    ...(options.values ? { values: options.values } : {}),
    ...(options.aliases ? { aliases: options.aliases } : {}),
  };
  return Object.freeze(def);
}

const str = (name: string, options?: FieldOptions): FieldDef => field(name, 'string', options);
const enumOf = (name: string, values: readonly string[], aliases?: Readonly<Record<string, string>>): FieldDef =>
  field(name, 'enum', { values, ...(aliases ? { aliases } : {}) });
const date = (name: string): FieldDef => field(name, 'date');
const datetime = (name: string): FieldDef => field(name, 'datetime');
const num = (name: string): FieldDef => field(name, 'number');
const bool = (name: string): FieldDef => field(name, 'boolean');
const list = (name: string): FieldDef => field(name, 'stringList');
const ref = (name: string): FieldDef => field(name, 'guidRef');
const refs = (name: string): FieldDef => field(name, 'guidRefList');

/** Base fields present on every class (reference §3.1). */
const BASE_FIELDS: readonly FieldDef[] = [
  str('sourcedId', { caseSensitive: true }),
  enumOf('status', STATUS_TYPES, STATUS_ALIASES),
  field('dateLastModified', 'datetime'),
  field('metadata', 'metadata'),
];

const CLASS_FIELDS: Readonly<Record<OneRosterResource, readonly FieldDef[]>> = {
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
  result: [ref('lineItem'), ref('student'), enumOf('scoreStatus', SCORE_STATUS_TYPES), num('score'), date('scoreDate'), str('comment')],
  // `roles` holds RoleType values; filtered as a list of text like `grades`.
  resource: [str('title'), list('roles'), enumOf('importance', IMPORTANCE_TYPES), str('vendorResourceId'), str('vendorId'), str('applicationId')],
};

/** Sub-fields of a GUIDRef (reference §3.2). */
export const GUID_REF_SUBFIELDS: readonly SubFieldDef[] = [
  { name: 'sourcedId', valueKind: 'string', caseSensitive: true },
  { name: 'href', valueKind: 'string', caseSensitive: true },
  { name: 'type', valueKind: 'enum', values: GUID_REF_TYPES, caseSensitive: true },
];

/** Sub-fields of a UserId (reference §3.3). */
export const USER_ID_SUBFIELDS: readonly SubFieldDef[] = [
  { name: 'type', valueKind: 'string', caseSensitive: false },
  { name: 'identifier', valueKind: 'string', caseSensitive: false },
];

/** Catalog of one class: its fields in model order, plus case-insensitive lookup. */
export interface ResourceCatalog {
  readonly resource: OneRosterResource;
  readonly fields: readonly FieldDef[];
  /** Finds a top-level field; names match case-insensitively. */
  field(name: string): FieldDef | undefined;
}

function buildCatalog(resource: OneRosterResource): ResourceCatalog {
  const fields = Object.freeze([...BASE_FIELDS, ...CLASS_FIELDS[resource]]);
  const byName = new Map(fields.map((f) => [f.name.toLowerCase(), f]));
  return Object.freeze({ resource, fields, field: (name: string) => byName.get(name.toLowerCase()) });
}

const CATALOGS = new Map<string, ResourceCatalog>(ONEROSTER_RESOURCES.map((r) => [r, buildCatalog(r)]));

export function isOneRosterResource(value: string): value is OneRosterResource {
  return CATALOGS.has(value);
}

/** The catalog of a class. Throws a TypeError for a name that is not a rostering class (a programming error). */
export function getCatalog(resource: OneRosterResource): ResourceCatalog {
  const catalog = CATALOGS.get(resource);
  if (!catalog) throw new TypeError(`Unknown OneRoster resource '${String(resource)}'`);
  return catalog;
}

/** Names of the fields usable as `data_field` / `sort` for a class. */
export function sortableFields(resource: OneRosterResource): string[] {
  return getCatalog(resource)
    .fields.filter((f) => f.sortable)
    .map((f) => f.name);
}

/** Names of the top-level fields usable in `filter` (structured ones through a dotted sub-field). */
export function filterableFields(resource: OneRosterResource): string[] {
  return getCatalog(resource)
    .fields.filter((f) => f.filterable)
    .map((f) => f.name);
}

/** Sub-field definitions of a structured field kind; empty for scalar kinds and metadata. */
export function subFieldsOf(kind: FieldKind): readonly SubFieldDef[] {
  if (kind === 'guidRef' || kind === 'guidRefList') return GUID_REF_SUBFIELDS;
  if (kind === 'userIds') return USER_ID_SUBFIELDS;
  return [];
}
