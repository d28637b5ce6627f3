/**
 * Reading one CSV cell of the OneRoster binding into its stored value. Pure functions, no I/O;
 * a bad cell yields a `CellError` (never thrown, so the importer can collect every error).
 */
import {
  EXT_VALUE,
  parseDateLiteral,
  parseDateTimeLiteral,
  parseNumberLiteral,
  STATUS_ALIASES,
  STATUS_TYPES,
  type StatusType,
} from '@edu/oneroster-query';
import { MAX_SOURCED_ID_LENGTH } from '../common/record-rules';
import { GRADES } from './csv-layout';

export class CellError {
  constructor(readonly message: string) {}
}

/** Case-insensitive lookup of an enumeration's canonical spelling. */
export function enumLookup(
  values: readonly string[],
  aliases: Readonly<Record<string, string>> = {},
): (raw: string) => string | undefined {
  const map = new Map<string, string>();
  for (const v of values) map.set(v.toLowerCase(), v);
  for (const [alias, v] of Object.entries(aliases)) map.set(alias.toLowerCase(), v);
  return (raw) => map.get(raw.toLowerCase());
}

const statusOf = enumLookup(STATUS_TYPES, STATUS_ALIASES);
const gradeOf = enumLookup(GRADES);

function hasControl(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** Trims a cell; empty means absent. NUL cannot be stored in PostgreSQL text. */
export function readText(raw: string | undefined): string | null | CellError {
  if (raw === undefined) return null;
  const v = raw.trim();
  if (v === '') return null;
  if (v.includes('\u0000')) return new CellError('contains a NUL character');
  return v;
}

/** A sourcedId: opaque, but a single line of at most 256 characters without control characters. */
export function readSourcedId(raw: string): string | CellError {
  if (raw.length > MAX_SOURCED_ID_LENGTH) return new CellError(`is longer than ${MAX_SOURCED_ID_LENGTH} characters`);
  if (hasControl(raw)) return new CellError('contains a control character');
  return raw;
}

export function readStatus(raw: string): StatusType | CellError {
  return (statusOf(raw) as StatusType | undefined) ?? new CellError(`'${raw}' is not a status (active, tobedeleted)`);
}

/** One of `values` in canonical case; with `extensible` (v1.2), also an `ext:<name>` value, as given. */
export function readEnum(
  raw: string,
  values: readonly string[],
  lookup: (raw: string) => string | undefined,
  extensible = false,
): string | CellError {
  const value = lookup(raw);
  if (value !== undefined) return value;
  if (extensible && EXT_VALUE.test(raw)) return raw;
  return new CellError(`'${raw}' is not one of ${values.join(', ')}${extensible ? ' or an ext:<name> value' : ''}`);
}

export function readBoolean(raw: string): boolean | CellError {
  const v = raw.toLowerCase();
  if (v === 'true') return true;
  if (v === 'false') return false;
  return new CellError(`'${raw}' is not a boolean (true, false)`);
}

export function readDate(raw: string): string | CellError {
  return parseDateLiteral(raw) ?? new CellError(`'${raw}' is not a date (YYYY-MM-DD)`);
}

/** ISO 8601 datetime → ISO string in UTC with milliseconds. */
export function readDateTime(raw: string): string | CellError {
  const parsed = parseDateTimeLiteral(raw);
  const year = parsed?.instant.getUTCFullYear() ?? 0;
  return parsed && year >= 1 && year <= 9999
    ? parsed.instant.toISOString()
    : new CellError(`'${raw}' is not an ISO 8601 datetime (e.g. 2024-08-20T14:03:11.000Z)`);
}

/** A decimal number (gradebook floats), kept exactly. */
export function readNumber(raw: string): number | CellError {
  return parseNumberLiteral(raw) ?? new CellError(`'${raw}' is not a number (e.g. 87.5)`);
}

export function readYear(raw: string): string | CellError {
  return /^\d{4}$/.test(raw) ? raw : new CellError(`'${raw}' is not a four-digit year`);
}

/** Comma-separated values (the whole cell quoted when there are several); blank items dropped. */
export function readList(raw: string): string[] {
  if (!raw.includes(',')) return [raw];
  const out: string[] = [];
  for (const item of raw.split(',')) {
    const v = item.trim();
    if (v !== '') out.push(v);
  }
  return out;
}

/** CEDS grades in canonical form; a single digit is read as its two-digit code (`9` → `09`). */
export function readGrades(raw: string): string[] | CellError {
  const out: string[] = [];
  for (const item of readList(raw)) {
    const grade = gradeOf(/^\d$/.test(item) ? `0${item}` : item);
    if (!grade) return new CellError(`'${item}' is not a CEDS grade (${GRADES.join(', ')})`);
    out.push(grade);
  }
  return out;
}

/** Comma-separated values of an enumeration, each in canonical case. */
export function readEnumList(
  raw: string,
  values: readonly string[],
  lookup: (raw: string) => string | undefined,
  extensible = false,
): string[] | CellError {
  const out: string[] = [];
  for (const item of readList(raw)) {
    const value = readEnum(item, values, lookup, extensible);
    if (value instanceof CellError) return value;
    out.push(value);
  }
  return out;
}

/** sourcedIds; each must be a valid sourcedId. */
export function readRefs(raw: string): string[] | CellError {
  const out = readList(raw);
  for (const id of out) {
    const checked = readSourcedId(id);
    if (checked instanceof CellError) return new CellError(`'${id}' ${checked.message}`);
  }
  return out;
}

const PAIR_ITEM = /\s*\{([^{}:]*):([^{}]*)\}\s*(,|$)/y;

/** `{a:b}` items, comma-separated (`a` up to the first colon; no braces inside). `shape` and `both` name them in messages. */
function readPairs(raw: string, shape: string, both: string): [string, string][] | CellError {
  const out: [string, string][] = [];
  PAIR_ITEM.lastIndex = 0;
  while (PAIR_ITEM.lastIndex < raw.length) {
    const start = PAIR_ITEM.lastIndex;
    const m = PAIR_ITEM.exec(raw);
    if (!m) return new CellError(`'${raw.slice(start)}' is not a list of ${shape} items`);
    const a = m[1]!.trim();
    const b = m[2]!.trim();
    if (a === '' || b === '') return new CellError(`'${m[0].trim()}' needs both ${both}`);
    out.push([a, b]);
    if (m[3] === '') break;
  }
  return out;
}

/** `{type:identifier}` items, comma-separated: `{LDAP:jdoe},{SIS:100234}`. */
export function readUserIds(raw: string): { type: string; identifier: string }[] | CellError {
  const pairs = readPairs(raw, '{type:identifier}', 'a type and an identifier');
  return pairs instanceof CellError ? pairs : pairs.map(([type, identifier]) => ({ type, identifier }));
}

/**
 * v1.2 `scoreScaleValue` (the binding's encoding is not known, reference v1.2 §10 ⚠): `{lhs:rhs}`
 * items, comma-separated like `userIds` (`{A:90 - 100},{B:80 - 89}`), at least one; the left side
 * up to the first colon.
 */
export function readScaleValues(raw: string): { itemValueLHS: string; itemValueRHS: string }[] | CellError {
  const pairs = readPairs(raw, '{lhs:rhs}', 'a left-hand and a right-hand value');
  return pairs instanceof CellError
    ? pairs
    : pairs.map(([itemValueLHS, itemValueRHS]) => ({ itemValueLHS, itemValueRHS }));
}

const NAMED_SOURCE = /^[a-z0-9]+$/;

/**
 * A learning objective source: `case`, `unknown` (any letter case) or a lower-case alphanumeric
 * name, with or without a leading `/`; names are stored with it (the OAS pattern), as the API does.
 */
export function readObjectiveSource(raw: string): string | CellError {
  const bare = raw.startsWith('/') ? raw.slice(1) : raw;
  const keyword = bare.toLowerCase();
  if (keyword === 'case' || keyword === 'unknown') return keyword;
  if (NAMED_SOURCE.test(bare)) return `/${bare}`;
  return new CellError(
    `'${raw}' is not a learning objective source (case, unknown, or a lower-case alphanumeric name)`,
  );
}
