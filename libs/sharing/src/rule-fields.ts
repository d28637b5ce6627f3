import type { RuleObject } from './sharing-spec';

/**
 * How a rule field is compared: sourcedIds exactly (`id`, `ids`), human text case-insensitively
 * (`text`, `texts`); the plural kinds are lists, which match when any element does.
 */
export type RuleFieldKind = 'id' | 'ids' | 'text' | 'texts';

export interface RuleField {
  readonly kind: RuleFieldKind;
  /** Column of `roster_classes` (alias `k`) or `roster_users` (alias `u`). */
  readonly column: string;
}

/** The fields rules may name, per object, with where each lives (the storage of the 1.1 tables). */
export const RULE_FIELDS: Readonly<Record<RuleObject, Readonly<Record<string, RuleField>>>> = {
  class: {
    school: { kind: 'id', column: 'school_sourced_id' },
    course: { kind: 'id', column: 'course_sourced_id' },
    term: { kind: 'ids', column: 'term_sourced_ids' },
    subject: { kind: 'texts', column: 'subjects' },
    subjectCode: { kind: 'texts', column: 'subject_codes' },
    grade: { kind: 'texts', column: 'grades' },
    title: { kind: 'text', column: 'title' },
    classCode: { kind: 'text', column: 'class_code' },
    classType: { kind: 'text', column: 'class_type' },
    location: { kind: 'text', column: 'location' },
  },
  user: {
    role: { kind: 'text', column: 'role' },
    school: { kind: 'ids', column: 'org_sourced_ids' },
    grade: { kind: 'texts', column: 'grades' },
    email: { kind: 'text', column: 'email' },
    username: { kind: 'text', column: 'username' },
    identifier: { kind: 'text', column: 'identifier' },
    givenName: { kind: 'text', column: 'given_name' },
    familyName: { kind: 'text', column: 'family_name' },
  },
};

/** The rule field of an object, or undefined when rules cannot name it. */
export function ruleField(object: RuleObject, field: string): RuleField | undefined {
  return Object.hasOwn(RULE_FIELDS[object], field) ? RULE_FIELDS[object][field] : undefined;
}
