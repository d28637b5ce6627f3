/**
 * PUT bodies of the gradebook service (reference §3.11, §4.1) → validated, normalised input.
 * Pure functions: no I/O. Every problem is a `GradebookInputError` naming the field by its path
 * in the body (`lineItem.class.sourcedId`), which the service turns into a 400 `invaliddata`
 * whose codeMinor field name is that path.
 *
 * Accepted shapes (decisions recorded in the app README):
 * - The body is the wrapper object (`{"lineItem": {...}}`); other top-level keys are ignored.
 * - `sourcedId` in the body is optional; when present it must equal the path's.
 * - `status`, when present, must be `active` (deletion is DELETE); `dateLastModified` is the
 *   server's and ignored; unknown properties are ignored (clients echo what they read).
 * - GUIDRefs need a `sourcedId`; a `type`, when present, must fit the field; `href` is ignored.
 * - DateTimes: ISO 8601 with or without seconds and milliseconds, `Z` or an offset (no zone =
 *   UTC), or the compact form this service prints (`20240131T235959.123Z`); not a date alone.
 *   Dates (`scoreDate`): `YYYY-MM-DD`, `YYYYMMDD`, or a DateTime (its UTC calendar day).
 * - Numbers are JSON numbers, kept exactly; `score` may lie outside the line item's
 *   `resultValueMin`/`resultValueMax` (extra credit), `resultValueMin` may not exceed
 *   `resultValueMax`.
 * - `score` may be left out only when `scoreStatus` is `exempt` or `not submitted`.
 * - Line items without `category` or `gradingPeriod` are accepted (grade-sync clients omit them).
 * - Text: any Unicode except NUL and unpaired surrogates (PostgreSQL cannot store them).
 */
import { parseDateLiteral, parseDateTimeLiteral, SCORE_STATUS_TYPES, type ScoreStatus } from '@edu/oneroster-query';
import { MAX_SOURCED_ID_LENGTH } from '../imports/cell-parsers';

export type GradebookClass = 'category' | 'lineItem' | 'result';

export class GradebookInputError extends Error {
  constructor(
    /** Path of the offending field in the body, e.g. `result.score`. */
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'GradebookInputError';
  }
}

/** A reference by sourcedId (the GUIDRef's `href` and `type` are not stored). */
export type RefId = string;

interface CommonInput {
  /** A JSON object, or null when absent. */
  readonly metadata: Record<string, unknown> | null;
}

export interface CategoryInput extends CommonInput {
  readonly title: string;
}

export interface LineItemInput extends CommonInput {
  readonly title: string;
  readonly description: string | null;
  /** ISO 8601 instant with milliseconds, UTC. */
  readonly assignDate: string;
  readonly dueDate: string;
  readonly classId: RefId;
  readonly categoryId: RefId | null;
  readonly gradingPeriodId: RefId | null;
  readonly resultValueMin: number | null;
  readonly resultValueMax: number | null;
}

export interface ResultInput extends CommonInput {
  readonly lineItemId: RefId;
  readonly studentId: RefId;
  readonly scoreStatus: ScoreStatus;
  readonly score: number | null;
  /** `YYYY-MM-DD`. */
  readonly scoreDate: string;
  readonly comment: string | null;
}

export interface GradebookInputs {
  category: CategoryInput;
  lineItem: LineItemInput;
  result: ResultInput;
}

/** Longest `title` (long enough for any LMS assignment title). */
const MAX_TITLE_LENGTH = 10_000;
/** Longest `description` / `comment`. */
const MAX_TEXT_LENGTH = 100_000;

/** Score statuses with nothing to score: a result with one of them may come without a score (PUT and CSV alike). */
export const UNSCORED_STATUSES: ReadonlySet<string> = new Set<ScoreStatus>(['exempt', 'not submitted']);

/** Accepted GUIDRef `type`s per reference field (reference §3.2 and the subtypes clients send). */
const REF_TYPES: Readonly<Record<string, readonly string[]>> = {
  class: ['class'],
  category: ['category'],
  gradingPeriod: ['academicSession', 'gradingPeriod', 'term'],
  lineItem: ['lineItem'],
  student: ['user', 'student'],
};

// A NUL, or a surrogate that is not half of a pair.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const CONTROL = /[\u0000-\u001F\u007F]/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads fields of one object, each error naming `prefix.name`. */
class FieldReader {
  constructor(
    private readonly obj: Record<string, unknown>,
    private readonly prefix: string,
  ) {}

  path(name: string): string {
    return `${this.prefix}.${name}`;
  }

  fail(name: string, message: string): never {
    throw new GradebookInputError(this.path(name), `${this.path(name)} ${message}`);
  }

  /** The value of an own property (`__proto__` and the like find nothing), or undefined. */
  raw(name: string): unknown {
    return Object.hasOwn(this.obj, name) ? this.obj[name] : undefined;
  }

  text(name: string, max: number, required: true): string;
  text(name: string, max: number, required: false): string | null;
  text(name: string, max: number, required: boolean): string | null {
    const v = this.raw(name);
    if (v === undefined || v === null) {
      if (required) this.fail(name, 'is required');
      return null;
    }
    if (typeof v !== 'string') this.fail(name, 'must be a string');
    if (UNSTORABLE.test(v)) this.fail(name, 'contains a NUL character or an unpaired surrogate');
    if (v.length > max) this.fail(name, `is longer than ${max} characters`);
    if (required && v.trim() === '') this.fail(name, 'must not be blank');
    return v === '' ? null : v;
  }

  number(name: string, required: boolean): number | null {
    const v = this.raw(name);
    if (v === undefined || v === null) {
      if (required) this.fail(name, 'is required');
      return null;
    }
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(name, 'must be a number');
    return v === 0 ? 0 : v;
  }

  dateTime(name: string): string {
    const v = this.raw(name);
    if (v === undefined || v === null) this.fail(name, 'is required');
    const parsed = typeof v === 'string' ? parseDateTimeLiteral(v.trim()) : undefined;
    if (!parsed || parsed.dateOnly || !inFourDigitYears(parsed.instant)) {
      this.fail(name, 'must be an ISO 8601 datetime, e.g. 2024-01-31T23:59:59Z or 2024-01-31T23:59:59.123Z');
    }
    return parsed.instant.toISOString();
  }

  date(name: string): string {
    const v = this.raw(name);
    if (v === undefined || v === null) this.fail(name, 'is required');
    if (typeof v === 'string') {
      const date = parseDateLiteral(v.trim());
      if (date) return date;
      const instant = parseDateTimeLiteral(v.trim());
      if (instant && inFourDigitYears(instant.instant)) return instant.instant.toISOString().slice(0, 10);
    }
    return this.fail(name, 'must be a date (YYYY-MM-DD)');
  }

  /** A GUIDRef's sourcedId. */
  ref(name: string, required: true): RefId;
  ref(name: string, required: false): RefId | null;
  ref(name: string, required: boolean): RefId | null {
    const v = this.raw(name);
    if (v === undefined || v === null) {
      if (required) this.fail(name, 'is required (a GUIDRef: {"sourcedId": "..."})');
      return null;
    }
    if (!isPlainObject(v)) this.fail(name, 'must be a GUIDRef object ({"sourcedId": "..."})');
    const ref = new FieldReader(v, this.path(name));
    const id = ref.raw('sourcedId');
    if (id === undefined || id === null) ref.fail('sourcedId', 'is required');
    const checked = checkSourcedId(id);
    if (checked) ref.fail('sourcedId', checked);
    const type = ref.raw('type');
    const allowed = REF_TYPES[name] ?? [];
    if (type !== undefined && type !== null && (typeof type !== 'string' || !allowed.includes(type))) {
      ref.fail('type', `must be ${allowed.map((t) => `'${t}'`).join(' or ')}`);
    }
    return id as string;
  }

  metadata(): Record<string, unknown> | null {
    const v = this.raw('metadata');
    if (v === undefined || v === null) return null;
    if (!isPlainObject(v)) this.fail('metadata', 'must be a JSON object');
    const bad = findUnstorable(v);
    if (bad !== undefined) this.fail('metadata', `holds a string with a NUL character or an unpaired surrogate (${bad})`);
    return Object.keys(v).length === 0 ? null : v;
  }
}

function inFourDigitYears(d: Date): boolean {
  const y = d.getUTCFullYear();
  return y >= 1 && y <= 9999;
}

/** Why a value cannot be a sourcedId, or undefined when it can. */
export function checkSourcedId(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  if (value === '') return 'must not be empty';
  if (value.length > MAX_SOURCED_ID_LENGTH) return `is longer than ${MAX_SOURCED_ID_LENGTH} characters`;
  if (CONTROL.test(value) || UNSTORABLE.test(value)) return 'contains a control character or an unpaired surrogate';
  return undefined;
}

/** The path of the first key or string inside `value` PostgreSQL could not store as jsonb. */
function findUnstorable(value: unknown, path = 'metadata'): string | undefined {
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

/** The wrapped object, after the envelope checks common to every class. */
function unwrap(kind: GradebookClass, body: unknown, pathId: string): FieldReader {
  if (!isPlainObject(body) || !Object.hasOwn(body, kind)) {
    throw new GradebookInputError(kind, `The body must be a JSON object {"${kind}": {...}}`);
  }
  const inner = body[kind];
  if (!isPlainObject(inner)) throw new GradebookInputError(kind, `${kind} must be a JSON object`);
  const r = new FieldReader(inner, kind);
  const id = r.raw('sourcedId');
  if (id !== undefined && id !== null && id !== pathId) r.fail('sourcedId', "differs from the sourcedId in the path (the path's is authoritative)");
  const status = r.raw('status');
  if (status !== undefined && status !== null && status !== 'active') r.fail('status', "must be 'active' (use DELETE to delete)");
  return r;
}

const scoreStatusOf = new Map<string, ScoreStatus>(SCORE_STATUS_TYPES.map((s) => [s, s]));

function readCategory(r: FieldReader): CategoryInput {
  return { title: r.text('title', MAX_TITLE_LENGTH, true), metadata: r.metadata() };
}

function readLineItem(r: FieldReader): LineItemInput {
  const input: LineItemInput = {
    title: r.text('title', MAX_TITLE_LENGTH, true),
    description: r.text('description', MAX_TEXT_LENGTH, false),
    assignDate: r.dateTime('assignDate'),
    dueDate: r.dateTime('dueDate'),
    classId: r.ref('class', true),
    categoryId: r.ref('category', false),
    gradingPeriodId: r.ref('gradingPeriod', false),
    resultValueMin: r.number('resultValueMin', false),
    resultValueMax: r.number('resultValueMax', false),
    metadata: r.metadata(),
  };
  if (input.resultValueMin !== null && input.resultValueMax !== null && input.resultValueMin > input.resultValueMax) {
    r.fail('resultValueMin', `(${input.resultValueMin}) is greater than resultValueMax (${input.resultValueMax})`);
  }
  return input;
}

function readResult(r: FieldReader): ResultInput {
  const lineItemId = r.ref('lineItem', true);
  const studentId = r.ref('student', true);
  const rawStatus = r.raw('scoreStatus');
  if (rawStatus === undefined || rawStatus === null) r.fail('scoreStatus', 'is required');
  const scoreStatus = typeof rawStatus === 'string' ? scoreStatusOf.get(rawStatus.toLowerCase()) : undefined;
  if (!scoreStatus) r.fail('scoreStatus', `must be one of ${SCORE_STATUS_TYPES.map((s) => `'${s}'`).join(', ')}`);
  return {
    lineItemId,
    studentId,
    scoreStatus,
    score: r.number('score', !UNSCORED_STATUSES.has(scoreStatus)),
    scoreDate: r.date('scoreDate'),
    comment: r.text('comment', MAX_TEXT_LENGTH, false),
    metadata: r.metadata(),
  };
}

/** Validates a PUT body for `kind` whose path sourcedId is `pathId`; throws `GradebookInputError`. */
export function readGradebookBody<K extends GradebookClass>(kind: K, body: unknown, pathId: string): GradebookInputs[K] {
  const reader = unwrap(kind, body, pathId);
  switch (kind) {
    case 'category':
      return readCategory(reader) as GradebookInputs[K];
    case 'lineItem':
      return readLineItem(reader) as GradebookInputs[K];
    default:
      return readResult(reader) as GradebookInputs[K];
  }
}
