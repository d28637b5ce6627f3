/**
 * The vocabulary used to describe OneRoster fields: what a field holds, and what a filter
 * compares against.
 */

/** What a top-level field of a OneRoster class holds. */
export type FieldKind =
  | 'string'
  | 'enum'
  | 'date' // YYYY-MM-DD
  | 'datetime' // instant, UTC
  | 'boolean'
  | 'year' // YYYY
  | 'number' // JSON number (gradebook floats)
  | 'stringList' // string[] (grades, subjects, periods, subjectCodes)
  | 'guidRef' // { href, sourcedId, type }
  | 'guidRefList' // GUIDRef[]
  | 'userIds' // { type, identifier }[]
  | 'metadata' // free-form object
  // OneRoster v1.2 structured lists
  | 'roles' // { roleType, role, org: GUIDRef, userProfile?, beginDate?, endDate? }[]
  | 'userProfiles' // { profileId, profileType, vendorId, applicationId?, description?, credentials? }[]
  | 'learningObjectives' // { source, learningObjectiveIds[] }[] or { source, learningObjectiveResults[] }[]
  | 'scoreScaleValues'; // { itemValueLHS, itemValueRHS }[]

/** The kind of the single value a filter predicate compares against (the leaf of a field path). */
export type ValueKind = 'string' | 'enum' | 'date' | 'datetime' | 'boolean' | 'year' | 'number';

/** Field kinds holding one scalar value; these are the sortable ones. */
export const SCALAR_KINDS: readonly FieldKind[] = ['string', 'enum', 'date', 'datetime', 'boolean', 'year', 'number'];

/** One field of a OneRoster class. */
export interface FieldDef {
  /** JSON property name, exact case (reference §3). */
  readonly name: string;
  readonly kind: FieldKind;
  /** Canonical allowed values for `enum` fields. */
  readonly values?: readonly string[];
  /** Extra accepted spellings of enum values, mapped to a canonical value (lower-case keys). */
  readonly aliases?: Readonly<Record<string, string>>;
  /** v1.2 extensible enumeration: `ext:<name>` values are valid too. */
  readonly extensible?: boolean;
  /** Usable as `data_field` / `sort`. Only scalar fields are. */
  readonly sortable: boolean;
  /** Usable in `filter` (directly, or through a dotted sub-field). */
  readonly filterable: boolean;
  /**
   * Text comparisons (`=`, `!=`, `~`) are exact rather than case-insensitive.
   * True for identifiers (`sourcedId`); see the README for the rule.
   */
  readonly caseSensitive: boolean;
}

/** A dotted sub-field of a structured field (`school.sourcedId`, `userIds.identifier`). */
export interface SubFieldDef {
  /** Name after the field's dot; nested GUIDRef parts are dotted too (`org.sourcedId` of `roles`). */
  readonly name: string;
  readonly valueKind: ValueKind;
  readonly values?: readonly string[];
  readonly extensible?: boolean;
  readonly caseSensitive: boolean;
}
