import { createHash } from 'node:crypto';

/**
 * What a school shares with one deployed app (design §11): a mode with its lists or rules, and
 * the field categories it withholds. Pure data: the API validates it (`specProblems`), the store
 * keeps it, `SharingScopes` turns it into visible objects.
 */
export const SHARING_MODES = ['all', 'schools', 'classes', 'rules'] as const;
export type SharingMode = (typeof SHARING_MODES)[number];

export const WITHHOLD_CATEGORIES = ['contact', 'identifiers', 'demographics', 'preferred_names', 'birth_date'] as const;
export type WithholdCategory = (typeof WITHHOLD_CATEGORIES)[number];

export const RULE_OBJECTS = ['class', 'user'] as const;
export type RuleObject = (typeof RULE_OBJECTS)[number];

export const RULE_OPS = ['is', 'is_not', 'contains', 'starts_with', 'in'] as const;
export type RuleOp = (typeof RULE_OPS)[number];

/** Longest list a spec may hold (schools, classes, an `in` value). */
export const MAX_LIST_ENTRIES = 10_000;
/** Most rules a spec may hold, and the longest single rule value. */
export const MAX_RULES = 50;
export const MAX_VALUE_LENGTH = 1_000;

export interface SharingRule {
  readonly object: RuleObject;
  readonly field: string;
  readonly op: RuleOp;
  /** A string, or for `in` a list of strings. */
  readonly value: string | readonly string[];
}

export interface SharingSpec {
  readonly mode: SharingMode;
  /** Org sourcedIds (mode `schools`). */
  readonly schools: readonly string[];
  /** Class sourcedIds (mode `classes`). */
  readonly classes: readonly string[];
  /** Mode `rules`: every rule of an object must hold (AND). */
  readonly rules: readonly SharingRule[];
  readonly withhold: readonly WithholdCategory[];
}

/** A deployment without sharing: everything, nothing withheld (the behaviour before sharing). */
export const SHARE_EVERYTHING: SharingSpec = Object.freeze({
  mode: 'all',
  schools: [],
  classes: [],
  rules: [],
  withhold: [],
});

const sortedUnique = <T extends string>(values: readonly T[]): T[] =>
  [...new Set(values)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

/**
 * One spelling per meaning: lists deduplicated and sorted, the lists a mode does not use emptied,
 * rules in a stable order. Two specs that share the same things get the same hash.
 */
export function canonicalSpec(spec: SharingSpec): SharingSpec {
  const rules = spec.mode === 'rules' ? spec.rules.map(canonicalRule) : [];
  return {
    mode: spec.mode,
    schools: spec.mode === 'schools' ? sortedUnique(spec.schools) : [],
    classes: spec.mode === 'classes' ? sortedUnique(spec.classes) : [],
    rules: sortedUnique(rules.map((r) => JSON.stringify(r))).map((r) => JSON.parse(r) as SharingRule),
    withhold: sortedUnique(spec.withhold),
  };
}

function canonicalRule(r: SharingRule): SharingRule {
  const value = typeof r.value === 'string' ? r.value : sortedUnique(r.value);
  return { object: r.object, field: r.field, op: r.op, value };
}

/** The key of a spec's meaning: caches, entity tags and visibility scopes are keyed by it. */
export function specHash(spec: SharingSpec): string {
  const c = canonicalSpec(spec);
  return createHash('sha256')
    .update(JSON.stringify([c.mode, c.schools, c.classes, c.rules, c.withhold]))
    .digest('base64url')
    .slice(0, 32);
}

/** True when the spec limits which objects are seen (any mode but `all`). */
export function limitsObjects(spec: SharingSpec): boolean {
  return spec.mode !== 'all';
}
