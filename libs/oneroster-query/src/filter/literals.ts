/**
 * Operator checks and typed literal validation for one filter predicate.
 */
import { OneRosterQueryError, excerpt } from '../errors';
import { EXT_VALUE } from '../model/enums';
import { parseDateLiteral, parseDateTimeLiteral } from '../temporal/parse';
import { ORDERING_OPERATORS, type ComparisonOperator, type FieldRef, type TypedLiteral } from './ast';
import type { ResolvedField } from './field-ref';

/**
 * Which operators a field path accepts. Enums compare as strings (reference §5.3), so they take
 * the text operators too; numbers order numerically; booleans only `=` / `!=`.
 */
export function allowedOperators(ref: FieldRef): readonly ComparisonOperator[] {
  const ops: ComparisonOperator[] = ['=', '!='];
  const text = ref.valueKind === 'string' || ref.valueKind === 'enum';
  const ordered =
    !ref.multi &&
    (text ||
      ref.valueKind === 'date' ||
      ref.valueKind === 'datetime' ||
      ref.valueKind === 'year' ||
      ref.valueKind === 'number');
  if (ordered) ops.push(...ORDERING_OPERATORS);
  if (text) ops.push('~');
  return ops;
}

/** Throws `invalid_filter_field` when `op` cannot be used on `ref`. */
export function checkOperator(ref: FieldRef, op: ComparisonOperator, position?: number): void {
  const allowed = allowedOperators(ref);
  if (!allowed.includes(op)) {
    throw OneRosterQueryError.filter(
      `Operator '${op}' cannot be used on '${ref.path}' (${ref.multi ? 'list of ' : ''}${ref.valueKind}); allowed: ${allowed.join(' ')}`,
      position,
    );
  }
}

/**
 * Validates `raw` (the unescaped text between the quotes) against the field's kind and
 * returns it normalised. Text values are kept verbatim; typed values are trimmed first.
 *
 * A value outside the closed set of an enum or boolean is not an error: it is a well-formed
 * filter that matches nothing (`unlisted`), as standard clients' "no records" checks expect
 * (reference §5.3, §10 #4). Dates, datetimes and years have a shape and an order: a literal
 * without that shape cannot be compared at all, so it stays `invalid_filter_field`.
 */
export function parseLiteral(field: ResolvedField, raw: string, position?: number): TypedLiteral {
  const { ref } = field;
  const bad = (expected: string): never => {
    throw OneRosterQueryError.filter(
      `Invalid value '${excerpt(raw)}' for '${excerpt(ref.path)}': expected ${expected}`,
      position,
    );
  };
  const text = raw.trim();
  switch (ref.valueKind) {
    case 'string':
      return { kind: 'string', value: raw };
    case 'enum': {
      const lower = text.toLowerCase();
      // Own keys only: `__proto__` or `constructor` must not find Object.prototype's members.
      const aliases = field.enumAliases ?? {};
      const canonical =
        (field.enumValues ?? []).find((v) => v.toLowerCase() === lower) ??
        (Object.hasOwn(aliases, lower) ? aliases[lower] : undefined);
      if (canonical !== undefined) return { kind: 'enum', value: canonical };
      // v1.2 extension values are compared as written (`ext:` names are case-sensitive identifiers).
      if (field.extensible && EXT_VALUE.test(text)) return { kind: 'enum', value: text };
      return { kind: 'unlisted', value: lower };
    }
    case 'boolean': {
      const lower = text.toLowerCase();
      return lower === 'true' || lower === 'false'
        ? { kind: 'boolean', value: lower === 'true' }
        : { kind: 'unlisted', value: lower };
    }
    case 'year':
      return /^\d{4}$/.test(text) ? { kind: 'year', value: text } : bad('a four-digit year (YYYY)');
    case 'number': {
      const value = parseNumberLiteral(text);
      return value === undefined ? bad('a decimal number (e.g. 87.5, -2, 1e3)') : { kind: 'number', value };
    }
    case 'date': {
      const date = parseDateLiteral(text);
      return date === undefined ? bad('a date, YYYY-MM-DD or YYYYMMDD') : { kind: 'date', value: date };
    }
    case 'datetime': {
      const parsed = parseDateTimeLiteral(text);
      if (parsed === undefined)
        return bad(
          'an ISO 8601 datetime (e.g. 2024-01-31T23:59:59.123Z), a compact one (20240131T235959.123Z) or a date',
        );
      return { kind: 'datetime', value: parsed.instant, iso: parsed.instant.toISOString(), dateOnly: parsed.dateOnly };
    }
  }
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A decimal number literal → finite number (`-0` read as `0`), or undefined. Like dates, a number has a shape and an order. */
export function parseNumberLiteral(text: string): number | undefined {
  if (!DECIMAL.test(text)) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value)) return undefined;
  return value === 0 ? 0 : value;
}
