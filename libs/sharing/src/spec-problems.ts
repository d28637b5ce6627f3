import { ruleField, RULE_FIELDS } from './rule-fields';
import {
  MAX_LIST_ENTRIES,
  MAX_RULES,
  MAX_VALUE_LENGTH,
  RULE_OBJECTS,
  RULE_OPS,
  SHARING_MODES,
  WITHHOLD_CATEGORIES,
  type SharingSpec,
} from './sharing-spec';

/** One thing wrong with a submitted spec: the JSON path of the field and what is wrong. */
export interface SpecProblem {
  readonly field: string;
  readonly problem: string;
}

const isString = (v: unknown): v is string => typeof v === 'string';
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const quoted = (v: unknown) => JSON.stringify(v)?.slice(0, 80) ?? String(v);

function listProblems(value: unknown, field: string, out: SpecProblem[]): void {
  if (value === undefined) return;
  if (!Array.isArray(value)) return void out.push({ field, problem: 'must be an array of sourcedIds' });
  if (value.length > MAX_LIST_ENTRIES)
    return void out.push({ field, problem: `holds ${value.length} entries; at most ${MAX_LIST_ENTRIES}` });
  const bad = value.findIndex((v) => !isString(v) || v === '' || v.length > MAX_VALUE_LENGTH);
  if (bad >= 0) out.push({ field: `${field}[${bad}]`, problem: 'must be a non-empty string' });
}

function valueProblem(op: string, value: unknown): string | undefined {
  if (op === 'in') {
    if (!Array.isArray(value) || value.length === 0) return 'must be a non-empty array of strings for op "in"';
    if (value.length > MAX_LIST_ENTRIES) return `holds ${value.length} entries; at most ${MAX_LIST_ENTRIES}`;
    if (!value.every((v) => isString(v) && v.length <= MAX_VALUE_LENGTH)) return 'must hold strings only';
    return undefined;
  }
  if (!isString(value)) return `must be a string for op "${op}"`;
  if (value.length > MAX_VALUE_LENGTH) return `is longer than ${MAX_VALUE_LENGTH} characters`;
  return undefined;
}

function ruleProblems(rule: unknown, at: string, out: SpecProblem[]): void {
  if (!isObject(rule)) return void out.push({ field: at, problem: 'must be an object' });
  const { object, field, op, value } = rule;
  if (!RULE_OBJECTS.includes(object as never))
    return void out.push({
      field: `${at}.object`,
      problem: `unknown object ${quoted(object)}; one of ${RULE_OBJECTS.join(', ')}`,
    });
  const fields = Object.keys(RULE_FIELDS[object as 'class' | 'user']);
  if (!isString(field) || !ruleField(object as 'class' | 'user', field))
    out.push({
      field: `${at}.field`,
      problem: `unknown ${String(object)} field ${quoted(field)}; one of ${fields.join(', ')}`,
    });
  if (!RULE_OPS.includes(op as never))
    return void out.push({ field: `${at}.op`, problem: `unknown op ${quoted(op)}; one of ${RULE_OPS.join(', ')}` });
  const problem = valueProblem(op as string, value);
  if (problem) out.push({ field: `${at}.value`, problem });
  const extra = Object.keys(rule).filter((k) => !['object', 'field', 'op', 'value'].includes(k));
  if (extra.length > 0) out.push({ field: `${at}.${extra[0]}`, problem: 'is not a rule property' });
}

/**
 * Everything wrong with a submitted spec (the body of `PUT .../sharing`), naming each field:
 * unknown modes, objects, fields, ops and withhold categories; lists over the limit; values of
 * the wrong type. Unknown sourcedIds are not problems (the SIS may send them later).
 */
export function specProblems(body: unknown): SpecProblem[] {
  const out: SpecProblem[] = [];
  if (!isObject(body)) return [{ field: '(body)', problem: 'must be a JSON object' }];
  const { mode, schools, classes, rules, withhold } = body;
  if (!SHARING_MODES.includes(mode as never))
    out.push({ field: 'mode', problem: `unknown mode ${quoted(mode)}; one of ${SHARING_MODES.join(', ')}` });
  listProblems(schools, 'schools', out);
  listProblems(classes, 'classes', out);
  if (rules !== undefined) {
    if (!Array.isArray(rules)) out.push({ field: 'rules', problem: 'must be an array of rules' });
    else if (rules.length > MAX_RULES)
      out.push({ field: 'rules', problem: `holds ${rules.length} rules; at most ${MAX_RULES}` });
    else rules.forEach((r, i) => ruleProblems(r, `rules[${i}]`, out));
  }
  if (mode === 'rules' && (!Array.isArray(rules) || rules.length === 0))
    out.push({ field: 'rules', problem: 'mode "rules" needs at least one rule' });
  if (withhold !== undefined) {
    if (!Array.isArray(withhold)) out.push({ field: 'withhold', problem: 'must be an array of categories' });
    else
      withhold.forEach((w, i) => {
        if (!WITHHOLD_CATEGORIES.includes(w as never))
          out.push({
            field: `withhold[${i}]`,
            problem: `unknown category ${quoted(w)}; one of ${WITHHOLD_CATEGORIES.join(', ')}`,
          });
      });
  }
  const extra = Object.keys(body).filter((k) => !['mode', 'schools', 'classes', 'rules', 'withhold'].includes(k));
  for (const k of extra) out.push({ field: k, problem: 'is not a sharing property' });
  return out;
}

/** A body `specProblems` found nothing wrong with, as a spec (absent lists are empty). */
export function toSpec(body: Record<string, unknown>): SharingSpec {
  return {
    mode: body['mode'] as SharingSpec['mode'],
    schools: (body['schools'] as string[] | undefined) ?? [],
    classes: (body['classes'] as string[] | undefined) ?? [],
    rules: (body['rules'] as SharingSpec['rules'] | undefined) ?? [],
    withhold: (body['withhold'] as SharingSpec['withhold'] | undefined) ?? [],
  };
}
