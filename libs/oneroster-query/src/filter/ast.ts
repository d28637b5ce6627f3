/**
 * The filter AST: plain data a storage adapter can translate (e.g. to parameterised SQL)
 * without re-parsing. Produced by `parseFilter`, printed back by `stringifyFilter`.
 */
import type { FieldKind, ValueKind } from '../model/field-kinds';

export const COMPARISON_OPERATORS = ['=', '!=', '>', '>=', '<', '<=', '~'] as const;
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];
/** Operators that order values; allowed on single-valued string, enum, date, datetime, year and number fields. */
export const ORDERING_OPERATORS: readonly ComparisonOperator[] = ['>', '>=', '<', '<='];

/** How an adapter compares text: `caseInsensitive` for human text, `exact` for ids and normalised values. */
export type TextMatch = 'exact' | 'caseInsensitive';

/** A resolved field path, e.g. `familyName`, `school.sourcedId`, `metadata.microsoft.userFlags`. */
export interface FieldRef {
  /** Canonical dotted path (canonical field-name case; metadata keys as written). */
  readonly path: string;
  /** Canonical top-level field name (`school`, `userIds`, `metadata`, `familyName`). */
  readonly field: string;
  /** Sub-field: `sourcedId` / `href` / `type` of a GUIDRef, `type` / `identifier` of a UserId, or a metadata key. */
  readonly subField?: string;
  /** Kind of the top-level field. */
  readonly fieldKind: FieldKind;
  /** Kind of the compared value (the path's leaf). */
  readonly valueKind: ValueKind;
  /** True for array-valued fields (`grades`, `orgs.*`, `terms.*`, `userIds.*`): a clause holds if any element matches. */
  readonly multi: boolean;
  /** Text comparison rule for `=`, `!=`, `~` (and ordering on text). */
  readonly textMatch: TextMatch;
}

/** A literal after validation against the field's kind, in normalised form. */
export type TypedLiteral =
  | { readonly kind: 'string'; readonly value: string }
  /** Canonical case (e.g. `gradingPeriod`). */
  | { readonly kind: 'enum'; readonly value: string }
  /** `YYYY-MM-DD`. */
  | { readonly kind: 'date'; readonly value: string }
  /**
   * An instant. `iso` is `value.toISOString()`. `dateOnly` is true when the literal had no time
   * part (the instant is then midnight UTC of that day).
   */
  | { readonly kind: 'datetime'; readonly value: Date; readonly iso: string; readonly dateOnly: boolean }
  | { readonly kind: 'boolean'; readonly value: boolean }
  /** Four digits, `YYYY`. */
  | { readonly kind: 'year'; readonly value: string }
  /** A finite number (gradebook floats); compared numerically. */
  | { readonly kind: 'number'; readonly value: number }
  /**
   * A well-formed value outside the closed value set of an enum or boolean field
   * (`status='norecords'`, `enabledUser='yes'`): no stored value equals it, so `=` matches
   * nothing and `!=` everything. Trimmed and lower-cased; on enums it still orders and
   * `~`-matches as text.
   */
  | { readonly kind: 'unlisted'; readonly value: string };

/**
 * One comparison. Semantics an adapter must implement:
 * - `a != v` is exactly NOT (`a = v`): records where `a` is absent match, and on multi-valued
 *   fields it means "no element equals v" (an empty list matches).
 * - `=`, `~` and ordering operators never match an absent value; on multi-valued fields they
 *   hold when any element matches.
 * - `~` is substring containment, with the field's `textMatch` (case-insensitive on enums).
 * - datetime literals compare as instants; date and year literals compare as their normalised text.
 * - enum values (and `unlisted` ones) order as lower-cased text in code-point order, the order
 *   of the canonical values the sort uses.
 * - an `unlisted` literal equals no stored value.
 */
export interface PredicateNode {
  readonly kind: 'predicate';
  readonly field: FieldRef;
  readonly op: ComparisonOperator;
  readonly value: TypedLiteral;
}

export interface LogicalNode {
  readonly kind: 'and' | 'or';
  readonly left: FilterNode;
  readonly right: FilterNode;
}

export type FilterNode = PredicateNode | LogicalNode;

/** Every predicate of a filter, left to right. */
export function filterPredicates(node: FilterNode): PredicateNode[] {
  return node.kind === 'predicate' ? [node] : [...filterPredicates(node.left), ...filterPredicates(node.right)];
}
