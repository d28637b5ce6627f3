/**
 * Property-based tests: the parser never fails with anything but OneRosterQueryError, and
 * generated valid filters parse to the AST an independent oracle expects.
 */
import * as fc from 'fast-check';
import { OneRosterQueryError } from '../errors';
import {
  GUID_REF_SUBFIELDS,
  ONEROSTER_RESOURCES,
  USER_ID_SUBFIELDS,
  getCatalog,
  type OneRosterResource,
} from '../model/catalog';
import type { ValueKind } from '../model/field-kinds';
import type { ComparisonOperator, FieldRef, FilterNode, PredicateNode, TypedLiteral } from './ast';
import { parseFilter } from './parser';
import { stringifyFilter } from './stringify';

const resourceArb = fc.constantFrom(...ONEROSTER_RESOURCES);

/** Runs the parser; returns the AST or the query error, and lets anything else escape. */
function attempt(input: string, resource: OneRosterResource): FilterNode | OneRosterQueryError {
  try {
    return parseFilter(input, resource);
  } catch (e) {
    if (e instanceof OneRosterQueryError) return e;
    throw e;
  }
}

function isFilterNode(value: unknown): value is FilterNode {
  return (
    typeof value === 'object' && value !== null && ['predicate', 'and', 'or'].includes((value as { kind: string }).kind)
  );
}

describe('parseFilter never throws anything but OneRosterQueryError', () => {
  it('on arbitrary strings', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' })),
        resourceArb,
        (input, resource) => {
          const result = attempt(input, resource);
          expect(result instanceof OneRosterQueryError || isFilterNode(result)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('on strings built from filter-like fragments', () => {
    const fragment = fc.oneof(
      fc.constantFrom(
        'sourcedId',
        'status',
        'dateLastModified',
        'role',
        'familyName',
        'grades',
        'orgs.sourcedId',
        'school.sourcedId',
        'userIds.identifier',
        'userIds',
        'metadata',
        'metadata.',
        'metadata.x.y',
        'school.',
        '.',
        'enabledUser',
        'schoolYear',
        'startDate',
        'type',
        'parent.type',
        'AND',
        'and',
        'OR',
        'or',
        'NOT',
        '=',
        '!=',
        '>',
        '>=',
        '<',
        '<=',
        '~',
        '!',
        '==',
        "'",
        "''",
        "'active'",
        "'2024-01-31'",
        "'20240131T235959.123Z'",
        "'true'",
        "'student'",
        "'2024'",
        "'x''y'",
        "'",
        ' ',
        '  ',
        '\t',
        '\n',
        '(',
        ')',
        '"',
        ',',
        '+',
        '\u0000',
        'é',
        '😀',
      ),
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 14 }), resourceArb, (parts, resource) => {
        const result = attempt(parts.join(''), resource);
        expect(result instanceof OneRosterQueryError || isFilterNode(result)).toBe(true);
        if (result instanceof OneRosterQueryError) {
          expect(result.code).toBe('invalid_filter_field');
          expect(result.parameter).toBe('filter');
        }
      }),
      { numRuns: 3000 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Oracle: field paths, operators and literals generated from the catalog, with the AST we expect.

interface FieldCase {
  /** How the path is written (before case scrambling). */
  readonly segments: readonly string[];
  /** Segments whose letter case may be scrambled (everything but metadata keys). */
  readonly scramble: readonly boolean[];
  readonly ref: FieldRef;
  readonly enumValues?: readonly string[];
  readonly enumAliases?: Readonly<Record<string, string>>;
}

function fieldCases(resource: OneRosterResource): fc.Arbitrary<FieldCase> {
  const options: Array<fc.Arbitrary<FieldCase>> = [];
  for (const def of getCatalog(resource).fields) {
    if (!def.filterable) continue;
    switch (def.kind) {
      case 'guidRef':
      case 'guidRefList':
      case 'userIds': {
        const subs = def.kind === 'userIds' ? USER_ID_SUBFIELDS : GUID_REF_SUBFIELDS;
        for (const sub of subs) {
          options.push(
            fc.constant({
              segments: [def.name, sub.name],
              scramble: [true, true],
              ref: {
                path: `${def.name}.${sub.name}`,
                field: def.name,
                subField: sub.name,
                fieldKind: def.kind,
                valueKind: sub.valueKind,
                multi: def.kind !== 'guidRef',
                textMatch: sub.valueKind === 'string' && !sub.caseSensitive ? 'caseInsensitive' : 'exact',
              },
              ...(sub.values ? { enumValues: sub.values } : {}),
            }),
          );
        }
        break;
      }
      case 'metadata':
        options.push(
          fc.array(fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/), { minLength: 1, maxLength: 3 }).map((keyParts) => ({
            segments: [def.name, ...keyParts],
            scramble: [true, ...keyParts.map(() => false)],
            ref: {
              path: `${def.name}.${keyParts.join('.')}`,
              field: def.name,
              subField: keyParts.join('.'),
              fieldKind: 'metadata',
              valueKind: 'string',
              multi: false,
              textMatch: 'caseInsensitive',
            },
          })),
        );
        break;
      default: {
        const valueKind = (def.kind === 'stringList' ? 'string' : def.kind) as ValueKind;
        options.push(
          fc.constant({
            segments: [def.name],
            scramble: [true],
            ref: {
              path: def.name,
              field: def.name,
              fieldKind: def.kind,
              valueKind,
              multi: def.kind === 'stringList',
              textMatch: valueKind === 'string' && !def.caseSensitive ? 'caseInsensitive' : 'exact',
            },
            ...(def.values ? { enumValues: def.values } : {}),
            ...(def.aliases ? { enumAliases: def.aliases } : {}),
          }),
        );
      }
    }
  }
  return fc.oneof(...options);
}

function expectedOperators(ref: FieldRef): ComparisonOperator[] {
  const ops: ComparisonOperator[] = ['=', '!='];
  if (!ref.multi && ['string', 'enum', 'date', 'datetime', 'year', 'number'].includes(ref.valueKind))
    ops.push('>', '>=', '<', '<=');
  if (ref.valueKind === 'string' || ref.valueKind === 'enum') ops.push('~');
  return ops;
}

/** Randomly changes the letter case of a word. */
function scrambleCase(word: string): fc.Arbitrary<string> {
  return fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((flips) =>
      [...word]
        .map((ch, i) => (flips[i] ? (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase()) : ch))
        .join(''),
    );
}

const pad = (n: number, width = 2): string => String(Math.abs(n)).padStart(width, '0');
const dateArb = fc.date({
  min: new Date('0001-01-02T00:00:00.000Z'),
  max: new Date('9999-12-30T23:59:59.999Z'),
  noInvalidDate: true,
});

function ymd(d: Date): [string, string, string] {
  return [pad(d.getUTCFullYear(), 4), pad(d.getUTCMonth() + 1), pad(d.getUTCDate())];
}

function hms(d: Date): [string, string, string, string] {
  return [pad(d.getUTCHours()), pad(d.getUTCMinutes()), pad(d.getUTCSeconds()), pad(d.getUTCMilliseconds(), 3)];
}

/** A datetime literal in one of the accepted shapes, and the instant it denotes. */
const datetimeLiteralArb: fc.Arbitrary<[string, TypedLiteral]> = fc
  .tuple(
    dateArb,
    fc.constantFrom('iso-ms', 'iso-s', 'compact-ms', 'compact-s', 'date', 'compact-date', 'offset'),
    fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
    fc.boolean(),
  )
  .map(([instant, shape, offsetMinutes, plusAsSpace]): [string, TypedLiteral] => {
    const noMillis = new Date(Math.floor(instant.getTime() / 1000) * 1000);
    const midnight = new Date(Date.UTC(2000, 0, 1));
    midnight.setUTCFullYear(instant.getUTCFullYear(), instant.getUTCMonth(), instant.getUTCDate());
    const literal = (value: Date, dateOnly: boolean): TypedLiteral => ({
      kind: 'datetime',
      value,
      iso: value.toISOString(),
      dateOnly,
    });
    const [y, mo, d] = ymd(instant);
    const [h, mi, s, ms] = hms(instant);
    switch (shape) {
      case 'iso-ms':
        return [`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`, literal(instant, false)];
      case 'iso-s':
        return [`${y}-${mo}-${d}T${h}:${mi}:${s}Z`, literal(noMillis, false)];
      case 'compact-ms':
        return [`${y}${mo}${d}T${h}${mi}${s}.${ms}Z`, literal(instant, false)];
      case 'compact-s':
        return [`${y}${mo}${d}T${h}${mi}${s}Z`, literal(noMillis, false)];
      case 'date':
        return [`${y}-${mo}-${d}`, literal(midnight, true)];
      case 'compact-date':
        return [`${y}${mo}${d}`, literal(midnight, true)];
      default: {
        // Wall-clock time at the offset; keep the wall clock inside four-digit years.
        const local = new Date(instant.getTime() + offsetMinutes * 60_000);
        if (local.getUTCFullYear() < 1 || local.getUTCFullYear() > 9999)
          return [`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`, literal(instant, false)];
        const [ly, lmo, ld] = ymd(local);
        const [lh, lmi, ls, lms] = hms(local);
        const sign = offsetMinutes < 0 ? '-' : plusAsSpace ? ' ' : '+';
        const zone = `${sign}${pad(Math.trunc(Math.abs(offsetMinutes) / 60))}:${pad(Math.abs(offsetMinutes) % 60)}`;
        return [`${ly}-${lmo}-${ld}T${lh}:${lmi}:${ls}.${lms}${zone}`, literal(instant, false)];
      }
    }
  });

/** A literal outside a closed value set, written with surrounding blanks and any letter case: an `unlisted` value. */
function unlistedArb(listed: readonly string[]): fc.Arbitrary<[string, TypedLiteral]> {
  const taken = new Set(listed.map((v) => v.toLowerCase()));
  return fc
    .tuple(
      fc.constantFrom('', ' ', '  '),
      fc.string({
        unit: fc.oneof(
          fc.constantFrom("'", 'a', 'E', '-', ' '),
          fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
        ),
      }),
      fc.constantFrom('', ' '),
    )
    .filter(([, core]) => !core.includes('\u0000') && !taken.has(core.trim().toLowerCase()))
    .map(([before, core, after]): [string, TypedLiteral] => [
      `${before}${core}${after}`,
      { kind: 'unlisted', value: core.trim().toLowerCase() },
    ]);
}

function literalArb(field: FieldCase): fc.Arbitrary<[string, TypedLiteral]> {
  switch (field.ref.valueKind) {
    case 'string':
      return fc
        .string({
          unit: fc.oneof(
            fc.constantFrom("'", ' ', '=', 'A', 'a'),
            fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
          ),
        })
        .filter((s) => !s.includes('\u0000'))
        .map((s): [string, TypedLiteral] => [s, { kind: 'string', value: s }]);
    case 'enum': {
      const listed = [...(field.enumValues ?? []), ...Object.keys(field.enumAliases ?? {})];
      const known = fc
        .constantFrom(...(field.enumValues ?? []))
        .chain((v) => scrambleCase(v).map((written): [string, TypedLiteral] => [written, { kind: 'enum', value: v }]));
      return fc.oneof(known, unlistedArb(listed));
    }
    case 'boolean': {
      const known = fc
        .boolean()
        .chain((b) =>
          scrambleCase(String(b)).map((written): [string, TypedLiteral] => [written, { kind: 'boolean', value: b }]),
        );
      return fc.oneof(known, unlistedArb(['true', 'false']));
    }
    case 'year':
      return fc
        .integer({ min: 0, max: 9999 })
        .map((y): [string, TypedLiteral] => [pad(y, 4), { kind: 'year', value: pad(y, 4) }]);
    case 'date':
      return fc.tuple(dateArb, fc.boolean()).map(([d, compact]): [string, TypedLiteral] => {
        const [y, mo, day] = ymd(d);
        return [compact ? `${y}${mo}${day}` : `${y}-${mo}-${day}`, { kind: 'date', value: `${y}-${mo}-${day}` }];
      });
    case 'datetime':
      return datetimeLiteralArb;
    case 'number':
      return numberLiteralArb;
  }
}

/** A number literal as a client may write it (integer, decimal, exponent, signs, padding), and its value. */
const numberLiteralArb: fc.Arbitrary<[string, TypedLiteral]> = fc.oneof(
  fc
    .integer({ min: -1_000_000, max: 1_000_000 })
    .map((n): [string, TypedLiteral] => [String(n), { kind: 'number', value: n === 0 ? 0 : n }]),
  fc
    .double({ noNaN: true, noDefaultInfinity: true, min: -1e12, max: 1e12 })
    .map((n): [string, TypedLiteral] => [String(n), { kind: 'number', value: n === 0 ? 0 : n }]),
  fc
    .tuple(
      fc.integer({ min: 0, max: 999 }),
      fc.integer({ min: 0, max: 99 }),
      fc.constantFrom('', '+', '-'),
      fc.constantFrom('', ' '),
    )
    .map(([whole, frac, sign, blank]): [string, TypedLiteral] => {
      const text = `${whole}.${String(frac).padStart(2, '0')}`;
      const value = Number(`${sign === '-' ? '-' : ''}${text}`);
      return [`${blank}${sign}${text}${blank}`, { kind: 'number', value: value === 0 ? 0 : value }];
    }),
);

interface GeneratedPredicate {
  readonly text: string;
  readonly expected: PredicateNode;
}

const ws = fc.constantFrom('', ' ', '  ', '\t', '\n', ' \t ');
const ws1 = fc.constantFrom(' ', '  ', '\t', '\n', ' \r\n ');

function predicateArb(resource: OneRosterResource): fc.Arbitrary<GeneratedPredicate> {
  return fieldCases(resource).chain((field) =>
    fc
      .tuple(
        fc.tuple(...field.segments.map((seg, i) => (field.scramble[i] ? scrambleCase(seg) : fc.constant(seg)))),
        fc.constantFrom(...expectedOperators(field.ref)),
        literalArb(field),
        ws,
        ws,
      )
      .map(([segments, op, [written, value], before, after]) => ({
        text: `${segments.join('.')}${before}${op}${after}'${written.replace(/'/g, "''")}'`,
        expected: { kind: 'predicate', field: field.ref, op, value },
      })),
  );
}

const filterArb = resourceArb.chain((resource) =>
  fc.oneof(
    fc
      .tuple(predicateArb(resource), ws, ws)
      .map(([p, lead, trail]) => ({ resource, text: `${lead}${p.text}${trail}`, expected: p.expected as FilterNode })),
    fc
      .tuple(predicateArb(resource), predicateArb(resource), fc.constantFrom('and', 'or'), fc.boolean(), ws, ws1)
      .chain(([left, right, kind, upper, before, after]) =>
        (upper ? fc.constant(kind.toUpperCase()) : scrambleCase(kind)).map((keyword) => ({
          resource,
          text: `${left.text}${before}${keyword}${after}${right.text}`,
          expected: { kind, left: left.expected, right: right.expected } as FilterNode,
        })),
      ),
  ),
);

describe('generated valid filters', () => {
  it('parse to the expected AST', () => {
    fc.assert(
      fc.property(filterArb, ({ resource, text, expected }) => {
        expect(parseFilter(text, resource)).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });

  it('survive stringify → parse unchanged', () => {
    fc.assert(
      fc.property(filterArb, ({ resource, text }) => {
        const ast = parseFilter(text, resource);
        expect(parseFilter(stringifyFilter(ast), resource)).toEqual(ast);
      }),
      { numRuns: 2000 },
    );
  });

  it('become invalid_filter_field errors when a third clause is added', () => {
    fc.assert(
      fc.property(filterArb, fc.constantFrom('AND', 'OR', 'and'), ({ resource, text, expected }, keyword) => {
        fc.pre(expected.kind !== 'predicate');
        const result = attempt(`${text} ${keyword} sourcedId='x'`, resource);
        expect(result).toBeInstanceOf(OneRosterQueryError);
        expect((result as OneRosterQueryError).code).toBe('invalid_filter_field');
      }),
      { numRuns: 500 },
    );
  });
});
