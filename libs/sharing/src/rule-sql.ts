import { ruleField, type RuleField } from './rule-fields';
import type { RuleObject, SharingRule } from './sharing-spec';
import type { SqlValues } from './sql-values';

const lower = (v: string) => v.toLowerCase();

/** `col` compared with one value; lists match when any element does. */
function scalarTest(f: RuleField, col: string, rule: SharingRule, p: SqlValues): string {
  const ci = f.kind === 'text' || f.kind === 'texts';
  const value = (v: string) => p.bind(ci ? lower(v) : v, 'text');
  const x = ci ? `lower(${col})` : col;
  switch (rule.op) {
    case 'is':
    case 'is_not':
      return `${x} = ${value(rule.value as string)}`;
    case 'contains':
      return `strpos(${x}, ${value(rule.value as string)}) > 0`;
    case 'starts_with':
      return `starts_with(${x}, ${value(rule.value as string)})`;
    case 'in':
      return `${x} = ANY(${p.bind((rule.value as string[]).map(ci ? lower : (v) => v), 'text[]')})`;
  }
}

/**
 * One rule as a condition over alias `k` (classes) or `u` (users). Text compares
 * case-insensitively, sourcedIds exactly; a list field matches when any element matches, and
 * `is_not` holds when no element (or no value at all) equals the value.
 */
export function ruleSql(rule: SharingRule, alias: string, p: SqlValues): string {
  const f = ruleField(rule.object, rule.field);
  if (!f) throw new TypeError(`unknown ${rule.object} rule field ${rule.field}`);
  const column = `${alias}.${f.column}`;
  const list = f.kind === 'ids' || f.kind === 'texts';
  const test = list
    ? `EXISTS (SELECT 1 FROM unnest(${column}) AS x(v) WHERE ${scalarTest(f, 'x.v', rule, p)})`
    : `COALESCE(${scalarTest(f, column, rule, p)}, false)`;
  return rule.op === 'is_not' ? `NOT ${test}` : test;
}

/** Every rule of `object` ANDed over the alias; undefined when the spec has none for it. */
export function rulesSql(
  rules: readonly SharingRule[],
  object: RuleObject,
  alias: string,
  p: SqlValues,
): string | undefined {
  const mine = rules.filter((r) => r.object === object);
  return mine.length > 0 ? mine.map((r) => `(${ruleSql(r, alias, p)})`).join(' AND ') : undefined;
}
