/**
 * Write bodies of the gradebook (PUT: the Single wrapper, `{"lineItem": {...}}`; v1.2 POST: the
 * Set wrapper, `{"lineItems": [...]}`) → validated values, read by the field tables of the
 * request's version (`gradebook-shapes.ts`). Pure functions: no I/O. Every problem is a
 * `GradebookInputError` naming the field by its path in the body.
 *
 * Envelope (both versions; `envelope` problems, 400): the body must be a JSON object holding the
 * wrapper key, whose value is an object (PUT) or an array (POST). Inside (`field` problems):
 * - PUT: `sourcedId` optional, equal to the path's when present. POST: each record's
 *   `sourcedId` is required (the client's temporary id), distinct within the request.
 * - `status`, when present, must be `active` (deletion is DELETE); `dateLastModified` is the
 *   server's and ignored.
 * - v1.2 objects are closed: another property (the body's other top-level keys included) is
 *   refused, except inside `metadata`. v1.1 ignores them (clients echo what they read).
 */
import type { GradebookClass } from './gradebook-classes';
import { collectionOf, singleKeyOf } from './gradebook-classes';
import { checkSourcedId, FieldReader, GradebookInputError, isPlainObject } from './gradebook-fields';
import { readObjectives, readObjectiveScores, readScaleValues } from './gradebook-lists';
import { readScoreStatus } from './gradebook-scores';
import type { BodyDialect, BodyShape, FieldKind, FieldSpec, Values } from './gradebook-shapes';

export { checkSourcedId, GradebookInputError } from './gradebook-fields';

/** Longest `title` (long enough for any LMS assignment title). */
const MAX_TITLE_LENGTH = 10_000;
/** Longest `description` / `comment`. */
const MAX_TEXT_LENGTH = 100_000;
/** Records one bulk POST may create (all in one transaction). */
export const MAX_POSTED_RECORDS = 1000;

/** A value for one column, with its PostgreSQL type. */
export interface ColumnValue {
  readonly column: string;
  readonly value: unknown;
  readonly type: 'text' | 'timestamptz' | 'date' | 'double precision' | 'boolean' | 'jsonb';
}

const COLUMN_TYPE: Readonly<Record<FieldKind, ColumnValue['type']>> = {
  title: 'text',
  text: 'text',
  ref: 'text',
  scoreStatus: 'text',
  number: 'double precision',
  dateTime: 'timestamptz',
  date: 'date',
  flag: 'boolean',
  objectives: 'jsonb',
  objectiveScores: 'jsonb',
  scaleValues: 'jsonb',
  metadata: 'jsonb',
};

function readField(r: FieldReader, spec: FieldSpec, closed: boolean): unknown {
  const { name } = spec;
  const req = spec.required === true;
  switch (spec.kind) {
    case 'title':
      return r.text(name, MAX_TITLE_LENGTH, req);
    case 'text':
      return r.text(name, MAX_TEXT_LENGTH, req);
    case 'number':
      return r.number(name, req);
    case 'dateTime':
      return r.dateTime(name, req);
    case 'date':
      return r.date(name, req);
    case 'ref':
      return r.ref(name, req, spec.types ?? [], closed);
    case 'scoreStatus':
      return readScoreStatus(r, name, spec.extensible === true);
    case 'flag':
      return r.flag(name);
    case 'objectives':
      return readObjectives(r, name);
    case 'objectiveScores':
      return readObjectiveScores(r, name);
    case 'scaleValues':
      return readScaleValues(r, name, req);
    case 'metadata':
      return r.metadata();
  }
}

const BASE_KEYS = ['sourcedId', 'status', 'dateLastModified'];
const knownKeys = new WeakMap<BodyShape, ReadonlySet<string>>();

function knownOf(shape: BodyShape): ReadonlySet<string> {
  let known = knownKeys.get(shape);
  if (!known) knownKeys.set(shape, (known = new Set([...BASE_KEYS, ...shape.fields.map((f) => f.name)])));
  return known;
}

/** One object of a class: every field of its shape, then the rules across fields. */
export function readRecord(dialect: BodyDialect, kind: GradebookClass, r: FieldReader): Values {
  const shape = shapeOf(dialect, kind);
  if (dialect.closed) r.closed(knownOf(shape));
  const status = r.raw('status');
  if (status !== undefined && status !== 'active') r.fail('status', "must be 'active' (use DELETE to delete)");
  const values: Record<string, unknown> = {};
  for (const spec of shape.fields) values[spec.name] = readField(r, spec, dialect.closed);
  for (const rule of shape.rules) rule(values, r);
  return values;
}

export function shapeOf(dialect: BodyDialect, kind: GradebookClass): BodyShape {
  const shape = dialect.shapes[kind];
  if (!shape) throw new TypeError(`No body shape for ${kind}`);
  return shape;
}

/** The columns a version writes for a class, with their values (fields it does not know stay as stored). */
export function columnsOf(dialect: BodyDialect, kind: GradebookClass, values: Values): ColumnValue[] {
  return shapeOf(dialect, kind)
    .fields.filter((spec) => spec.column !== undefined)
    .map((spec) => ({ column: spec.column as string, value: values[spec.name] ?? null, type: COLUMN_TYPE[spec.kind] }));
}

function envelope(body: unknown, key: string, closed: boolean, what: string): unknown {
  if (!isPlainObject(body) || !Object.hasOwn(body, key))
    throw new GradebookInputError(key, `The body must be a JSON object ${what}`, 'envelope');
  const extra = closed ? Object.keys(body).find((k) => k !== key) : undefined;
  if (extra !== undefined)
    throw new GradebookInputError(extra, `${extra} is not allowed beside ${key} (the body holds one wrapper key)`);
  return body[key];
}

/** An object's values and the reader of its body, whose paths later reference errors name. */
export interface ReadObject {
  readonly values: Values;
  readonly r: FieldReader;
}

/** A PUT body for `kind` whose path sourcedId is `pathId`. */
export function readGradebookBody(
  dialect: BodyDialect,
  kind: GradebookClass,
  body: unknown,
  pathId: string,
): ReadObject {
  const key = singleKeyOf(kind);
  const inner = envelope(body, key, dialect.closed, `{"${key}": {...}}`);
  if (!isPlainObject(inner)) throw new GradebookInputError(key, `${key} must be a JSON object`, 'envelope');
  const r = new FieldReader(inner, key);
  const id = r.raw('sourcedId');
  if (id !== undefined && id !== pathId)
    r.fail('sourcedId', "differs from the sourcedId in the path (the path's is authoritative)");
  return { values: readRecord(dialect, kind, r), r };
}

/** One record of a bulk POST: the client's temporary id and the object's reader. */
export interface PostedRecord {
  readonly suppliedId: string;
  readonly reader: FieldReader;
}

/**
 * The records of a POST body for `kind` (`{"lineItems": [...]}`), each with its supplied id,
 * not yet read (the path's parents are filled in first).
 */
export function postedRecords(kind: GradebookClass, body: unknown, closed: boolean): PostedRecord[] {
  const key = collectionOf(kind);
  const list = envelope(body, key, closed, `{"${key}": [...]}`);
  if (!Array.isArray(list)) throw new GradebookInputError(key, `${key} must be a JSON array`, 'envelope');
  if (list.length > MAX_POSTED_RECORDS)
    throw new GradebookInputError(
      key,
      `${key} holds ${list.length} records; at most ${MAX_POSTED_RECORDS} per request`,
    );
  const seen = new Set<string>();
  return list.map((item, i) => {
    const at = `${key}[${i}]`;
    if (!isPlainObject(item)) throw new GradebookInputError(at, `${at} must be a JSON object`);
    const reader = new FieldReader(item, at);
    const id = reader.raw('sourcedId');
    const problem = id === undefined ? 'is required (the id this request calls the record by)' : checkSourcedId(id);
    if (problem) reader.fail('sourcedId', problem);
    if (seen.has(id as string)) reader.fail('sourcedId', 'appears twice in this request');
    seen.add(id as string);
    return { suppliedId: id as string, reader };
  });
}
