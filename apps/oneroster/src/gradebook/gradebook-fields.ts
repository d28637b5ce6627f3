/**
 * Reading one JSON object of a write body, field by field: pure functions, no I/O. Every problem
 * is a `GradebookInputError` naming the field by its path in the body (`lineItem.class.sourcedId`,
 * `results[3].score`), which the service turns into an `invaliddata` error whose codeMinor field
 * name is that path.
 *
 * Value rules shared by both versions (decisions in the app README and `gradebook/README.md`):
 * - Absent and `null` are the same; an empty optional string is absent (`"comment": ""`).
 * - DateTimes: ISO 8601 with or without seconds and milliseconds, `Z` or an offset (no zone =
 *   UTC), or the compact form v1.1 prints; never a date alone. Dates: `YYYY-MM-DD`, `YYYYMMDD`,
 *   or a DateTime (its UTC calendar day).
 * - Numbers are JSON numbers, kept exactly (float8).
 * - Text: any Unicode except NUL and unpaired surrogates (PostgreSQL cannot store them).
 */
import { parseDateLiteral, parseDateTimeLiteral } from '@edu/oneroster-query';
import { MAX_SOURCED_ID_LENGTH } from '../common/record-rules';

/**
 * `envelope`: the body is not the JSON object the operation takes (400 in both versions);
 * `field`: a value inside it is wrong (400 in v1.1, 422 in v1.2).
 */
export type InputProblem = 'envelope' | 'field';

export class GradebookInputError extends Error {
  constructor(
    /** Path of the offending field in the body, e.g. `result.score`. */
    readonly field: string,
    message: string,
    readonly problem: InputProblem = 'field',
  ) {
    super(message);
    this.name = 'GradebookInputError';
  }
}

// A NUL, or a surrogate that is not half of a pair.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const CONTROL = /[\u0000-\u001F\u007F]/;

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Why a value cannot be a sourcedId, or undefined when it can. */
export function checkSourcedId(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  if (value === '') return 'must not be empty';
  if (value.length > MAX_SOURCED_ID_LENGTH) return `is longer than ${MAX_SOURCED_ID_LENGTH} characters`;
  if (CONTROL.test(value) || UNSTORABLE.test(value)) return 'contains a control character or an unpaired surrogate';
  return undefined;
}

function inFourDigitYears(d: Date): boolean {
  const y = d.getUTCFullYear();
  return y >= 1 && y <= 9999;
}

/** The path of the first key or string inside `value` PostgreSQL could not store as jsonb. */
function findUnstorable(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return UNSTORABLE.test(value) ? path : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorable(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (isPlainObject(value)) {
    for (const [key, inner] of Object.entries(value)) {
      if (UNSTORABLE.test(key)) return `${path} key`;
      const found = findUnstorable(inner, `${path}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

/** Reads fields of one object, each error naming `prefix.name`. */
export class FieldReader {
  constructor(
    private readonly obj: Record<string, unknown>,
    readonly prefix: string,
  ) {}

  path(name: string): string {
    return `${this.prefix}.${name}`;
  }

  fail(name: string, message: string): never {
    throw new GradebookInputError(this.path(name), `${this.path(name)} ${message}`);
  }

  /** The value of an own property (`__proto__` and the like find nothing), or undefined; `null` reads as absent. */
  raw(name: string): unknown {
    const v = Object.hasOwn(this.obj, name) ? this.obj[name] : undefined;
    return v === null ? undefined : v;
  }

  /** A reader of the same object with `name` set to `value` when the object lacks it (a bulk POST's path parent). */
  withDefault(name: string, value: unknown): FieldReader {
    return this.raw(name) === undefined ? new FieldReader({ ...this.obj, [name]: value }, this.prefix) : this;
  }

  /** Refuses any own property not in `known` (v1.2 objects are closed). */
  closed(known: ReadonlySet<string>): void {
    const extra = Object.keys(this.obj).find((k) => !known.has(k));
    if (extra !== undefined)
      this.fail(
        extra,
        'is not a property of this object (OneRoster 1.2 objects are closed; use metadata for extensions)',
      );
  }

  text(name: string, max: number, required: boolean): string | null {
    const v = this.raw(name);
    if (v === undefined) return required ? this.fail(name, 'is required') : null;
    if (typeof v !== 'string') this.fail(name, 'must be a string');
    if (UNSTORABLE.test(v)) this.fail(name, 'contains a NUL character or an unpaired surrogate');
    if (v.length > max) this.fail(name, `is longer than ${max} characters`);
    if (required && v.trim() === '') this.fail(name, 'must not be blank');
    return v === '' ? null : v;
  }

  number(name: string, required: boolean): number | null {
    const v = this.raw(name);
    if (v === undefined) return required ? this.fail(name, 'is required') : null;
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(name, 'must be a number');
    return v === 0 ? 0 : v;
  }

  /** An ISO 8601 instant with milliseconds, UTC. */
  dateTime(name: string, required: boolean): string | null {
    const v = this.raw(name);
    if (v === undefined) return required ? this.fail(name, 'is required') : null;
    const parsed = typeof v === 'string' ? parseDateTimeLiteral(v.trim()) : undefined;
    if (!parsed || parsed.dateOnly || !inFourDigitYears(parsed.instant)) {
      this.fail(name, 'must be an ISO 8601 datetime, e.g. 2024-01-31T23:59:59Z or 2024-01-31T23:59:59.123Z');
    }
    return parsed.instant.toISOString();
  }

  /** `YYYY-MM-DD`. */
  date(name: string, required: boolean): string | null {
    const v = this.raw(name);
    if (v === undefined) return required ? this.fail(name, 'is required') : null;
    if (typeof v === 'string') {
      const date = parseDateLiteral(v.trim());
      if (date) return date;
      const instant = parseDateTimeLiteral(v.trim());
      if (instant && inFourDigitYears(instant.instant)) return instant.instant.toISOString().slice(0, 10);
    }
    return this.fail(name, 'must be a date (YYYY-MM-DD)');
  }

  /** `"true"`/`"false"` (the v1.2 binding) or a JSON boolean. */
  flag(name: string): boolean | null {
    const v = this.raw(name);
    if (v === undefined) return null;
    if (v === true || v === 'true') return true;
    if (v === false || v === 'false') return false;
    return this.fail(name, 'must be "true" or "false"');
  }

  /** A GUIDRef's sourcedId; `href` is ignored, a `type` must be one of `types`. */
  ref(name: string, required: boolean, types: readonly string[], closed: boolean): string | null {
    const v = this.raw(name);
    if (v === undefined) return required ? this.fail(name, 'is required (a GUIDRef: {"sourcedId": "..."})') : null;
    if (!isPlainObject(v)) this.fail(name, 'must be a GUIDRef object ({"sourcedId": "..."})');
    const ref = new FieldReader(v, this.path(name));
    if (closed) ref.closed(GUIDREF_KEYS);
    const id = ref.raw('sourcedId');
    if (id === undefined) ref.fail('sourcedId', 'is required');
    const problem = checkSourcedId(id);
    if (problem) ref.fail('sourcedId', problem);
    const type = ref.raw('type');
    if (type !== undefined && (typeof type !== 'string' || !types.includes(type)))
      ref.fail('type', `must be ${types.map((t) => `'${t}'`).join(' or ')}`);
    return id as string;
  }

  /** A JSON array whose items are objects read by `item` (closed when `known` is given). */
  list<T>(name: string, required: boolean, minItems: number, item: (r: FieldReader) => T): T[] | null {
    const v = this.raw(name);
    if (v === undefined) return required ? this.fail(name, 'is required') : null;
    if (!Array.isArray(v)) this.fail(name, 'must be a JSON array');
    if (v.length < minItems) this.fail(name, `must hold at least ${minItems} item${minItems === 1 ? '' : 's'}`);
    return v.map((x, i) => {
      const at = `${name}[${i}]`;
      if (!isPlainObject(x)) this.fail(at, 'must be a JSON object');
      return item(new FieldReader(x, this.path(at)));
    });
  }

  /** A list of strings, each checked by `check` (undefined = fine). */
  strings(name: string, minItems: number, check: (s: string) => string | undefined): string[] {
    const v = this.raw(name);
    if (!Array.isArray(v)) return this.fail(name, v === undefined ? 'is required' : 'must be a JSON array of strings');
    if (v.length < minItems) this.fail(name, `must hold at least ${minItems} item${minItems === 1 ? '' : 's'}`);
    return v.map((s, i) => {
      const problem = typeof s === 'string' ? check(s) : 'must be a string';
      if (problem) this.fail(`${name}[${i}]`, problem);
      return s as string;
    });
  }

  metadata(): Record<string, unknown> | null {
    const v = this.raw('metadata');
    if (v === undefined) return null;
    if (!isPlainObject(v)) this.fail('metadata', 'must be a JSON object');
    const bad = findUnstorable(v, 'metadata');
    if (bad !== undefined)
      this.fail('metadata', `holds a string with a NUL character or an unpaired surrogate (${bad})`);
    return Object.keys(v).length === 0 ? null : v;
  }
}

const GUIDREF_KEYS: ReadonlySet<string> = new Set(['href', 'sourcedId', 'type']);

/** Why a text cannot be stored, or undefined (for list items). */
export function checkText(s: string, max: number): string | undefined {
  if (s.trim() === '') return 'must not be blank';
  if (UNSTORABLE.test(s)) return 'contains a NUL character or an unpaired surrogate';
  return s.length > max ? `is longer than ${max} characters` : undefined;
}
