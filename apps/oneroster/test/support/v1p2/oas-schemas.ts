import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/*
 * OneRoster 1.2 schema checks for tests. oas-derived.json is written by
 * tools/oneroster/derive-v1p2-schemas.js from the official 1EdTech OpenAPI files and checked in.
 * Its `$ref`s are JSON pointers into the file itself (`#/rostering/schemas/UserDType`), so the whole
 * file is registered with ajv as one document and each schema is compiled by pointer. The ext
 * pattern of the extensible enumerations is already anchored there (`^ext:[A-Za-z0-9._-]+$`).
 */

export const V1P2_SERVICES = ['rostering', 'gradebook', 'resources'] as const;
export type V1p2Service = (typeof V1P2_SERVICES)[number];
export type V1p2Method = 'GET' | 'PUT' | 'POST' | 'DELETE';

export interface V1p2Operation {
  readonly service: V1p2Service;
  readonly method: V1p2Method;
  /** As in the OAS, relative to the service root: `/classes/{classSourcedId}/students`. */
  readonly path: string;
  readonly operationId: string;
  /** Short names, any one of which grants the operation: `roster.readonly`. */
  readonly scopes: readonly string[];
  /** Schema name of the JSON request body, or null. */
  readonly requestSchema: string | null;
  /** Status (`200`, `404`, `default`) → schema name of the JSON body, or null when there is none. */
  readonly responses: Readonly<Record<string, string | null>>;
  readonly queryParameters: readonly string[];
}

export interface V1p2ValidateOptions {
  /**
   * The body was trimmed with `?fields=`: the records under the wrapper key need not carry their
   * required properties; closed objects, types, formats and enums still apply. With a list, only
   * the listed properties may appear on those records.
   */
  readonly fields?: true | readonly string[];
}

type JsonSchema = { readonly [keyword: string]: unknown };

interface DerivedService {
  readonly schemas: Readonly<Record<string, JsonSchema>>;
  readonly operations: readonly Omit<V1p2Operation, 'service'>[];
}

const DOC_ID = 'oneroster-v1p2-oas-derived';
const LOCAL_REF = /^#\/(rostering|gradebook|resources)\/schemas\/([A-Za-z0-9_]+)$/;
const FLOAT32_MAX = 3.4028234663852886e38;

const derived = JSON.parse(readFileSync(join(__dirname, 'oas-derived.json'), 'utf8')) as Record<
  V1p2Service,
  DerivedService
>;

export const V1P2_OPERATIONS: readonly V1p2Operation[] = Object.freeze(
  V1P2_SERVICES.flatMap((service) => derived[service].operations.map((op) => Object.freeze({ service, ...op }))),
);

function createAjv(): Ajv {
  // Strict mode minus strictSchema: resolving `#/rostering/schemas/X` compiles the document's root,
  // whose keys (rostering, gradebook, resources) are not schema keywords. Unknown keywords inside
  // the OAS schemas are rejected by the generator instead.
  const ajv = new Ajv({ allErrors: true, strict: true, strictSchema: false });
  addFormats(ajv);
  // OAS `format: float` on numbers; JSON Schema has no such format.
  ajv.addFormat('float', { type: 'number', validate: (n: number) => Math.abs(n) <= FLOAT32_MAX });
  ajv.addSchema({ ...derived, $id: DOC_ID });
  return ajv;
}

const ajv = createAjv();
const trimmedValidators = new Map<string, ValidateFunction>();

export function v1p2SchemaNames(service: V1p2Service): string[] {
  return Object.keys(derived[service].schemas);
}

function schemaOf(service: V1p2Service, name: string): JsonSchema {
  const schema = derived[service]?.schemas[name];
  if (!schema) throw new Error(`no OneRoster 1.2 schema ${service}/${name}`);
  return schema;
}

function fullValidator(service: V1p2Service, name: string): ValidateFunction {
  schemaOf(service, name);
  const validate = ajv.getSchema(`${DOC_ID}#/${service}/schemas/${name}`);
  if (!validate) throw new Error(`ajv could not resolve ${service}/${name}`);
  return validate;
}

/** `$ref`s of a schema compiled on its own must name the document they point into. */
function absoluteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(absoluteRefs);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${DOC_ID}${v}` : absoluteRefs(v),
    ]),
  );
}

function resolveLocal(ref: string): JsonSchema {
  const m = LOCAL_REF.exec(ref);
  if (!m) throw new Error(`unexpected $ref ${ref}`);
  return schemaOf(m[1] as V1p2Service, m[2] as string);
}

function relaxRecord(record: JsonSchema, fields: true | readonly string[]): JsonSchema {
  const { required: _required, ...rest } = record;
  if (fields === true) return rest;
  const properties = (record.properties ?? {}) as Record<string, JsonSchema>;
  return {
    ...rest,
    properties: Object.fromEntries(Object.entries(properties).filter(([name]) => fields.includes(name))),
  };
}

/** A wrapper property (`user`, `users`) with the record it holds relaxed for `fields`. */
function relaxWrapperProperty(property: JsonSchema, fields: true | readonly string[]): JsonSchema {
  if (typeof property.$ref === 'string') return relaxRecord(resolveLocal(property.$ref), fields);
  const items = property.items as JsonSchema | undefined;
  if (typeof items?.$ref === 'string') return { ...property, items: relaxRecord(resolveLocal(items.$ref), fields) };
  return property;
}

/** `fields` trims the records, never the wrapper: its one key stays required. */
function trimmedSchema(service: V1p2Service, name: string, fields: true | readonly string[]): JsonSchema {
  const schema = schemaOf(service, name);
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  const isWrapper = /^(Single\w+|\w+SetDType)$/.test(name) && properties !== undefined;
  if (!isWrapper) return relaxRecord(schema, fields);
  return {
    ...schema,
    properties: Object.fromEntries(Object.entries(properties).map(([k, p]) => [k, relaxWrapperProperty(p, fields)])),
  };
}

function trimmedValidator(service: V1p2Service, name: string, fields: true | readonly string[]): ValidateFunction {
  const key = `${service}/${name}?${fields === true ? '*' : [...fields].sort().join(',')}`;
  let validate = trimmedValidators.get(key);
  if (!validate) {
    validate = ajv.compile(absoluteRefs(trimmedSchema(service, name, fields)) as object);
    trimmedValidators.set(key, validate);
  }
  return validate;
}

function valueAt(body: unknown, pointer: string): unknown {
  let node = body;
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node = node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  }
  return node;
}

function show(value: unknown): string {
  return value === undefined ? 'undefined' : JSON.stringify(value);
}

// Keywords whose message reads after the offending value: `true is not of type string`.
const VALUE_KEYWORDS = new Set(['enum', 'type', 'format', 'pattern', 'anyOf']);

/** What is wrong, without where: `is not of type string`, `missing required property "type"`. */
function problem(e: ErrorObject, reasons: readonly string[] = []): string {
  switch (e.keyword) {
    case 'required':
      return `missing required property "${e.params.missingProperty}"`;
    case 'additionalProperties':
      return `property "${e.params.additionalProperty}" is not allowed (closed object)`;
    case 'enum':
      return `is not one of ${(e.params.allowedValues as unknown[]).map(show).join(', ')}`;
    case 'type':
      return `is not of type ${e.params.type}`;
    case 'format':
      return `is not a valid ${e.params.format}`;
    case 'pattern':
      return `does not match ${e.params.pattern}`;
    case 'anyOf':
      return `matches no alternative (${reasons.join('; ')})`;
    default:
      return e.message ?? e.keyword;
  }
}

function isBranchOf(e: ErrorObject, anyOf: ErrorObject): boolean {
  const samePlace = e.instancePath === anyOf.instancePath || e.instancePath.startsWith(`${anyOf.instancePath}/`);
  return e !== anyOf && samePlace && e.schemaPath.startsWith(`${anyOf.schemaPath}/`);
}

/** One line per problem: `/user/roles/0/role: "admin" matches no alternative (...)`. */
function describeErrors(errors: readonly ErrorObject[], body: unknown): string[] {
  const anyOfs = errors.filter((e) => e.keyword === 'anyOf');
  const lines: string[] = [];
  for (const e of errors) {
    if (anyOfs.some((a) => isBranchOf(e, a))) continue;
    const reasons = e.keyword === 'anyOf' ? errors.filter((b) => isBranchOf(b, e)).map((b) => problem(b)) : [];
    const value = VALUE_KEYWORDS.has(e.keyword) ? `${show(valueAt(body, e.instancePath))} ` : '';
    lines.push(`${e.instancePath || '(root)'}: ${value}${problem(e, reasons)}`);
  }
  return [...new Set(lines)];
}

/** Problems of `body` against a OneRoster 1.2 schema, one readable line each; empty when valid. */
export function validateV1p2(
  service: V1p2Service,
  schemaName: string,
  body: unknown,
  options: V1p2ValidateOptions = {},
): string[] {
  const validate = options.fields
    ? trimmedValidator(service, schemaName, options.fields)
    : fullValidator(service, schemaName);
  return validate(body) ? [] : describeErrors(validate.errors ?? [], body);
}

/** Fails the test, listing every problem, unless `body` matches the OneRoster 1.2 schema. */
export function expectV1p2(
  service: V1p2Service,
  schemaName: string,
  body: unknown,
  options: V1p2ValidateOptions = {},
): void {
  const errors = validateV1p2(service, schemaName, body, options);
  if (errors.length === 0) return;
  const trimmed = options.fields ? ' (trimmed with fields)' : '';
  throw new Error(
    `body does not match OneRoster 1.2 ${service} ${schemaName}${trimmed}:\n  - ${errors.join('\n  - ')}\nbody: ${JSON.stringify(body).slice(0, 2000)}`,
  );
}

function templateSegments(path: string): string[] {
  return path
    .split('/')
    .filter(Boolean)
    .map((s) => (/^\{.+\}$|^:.+$/.test(s) ? '{}' : s));
}

/** How well an operation's path matches `path` (a template in `{id}` or `:id` form, or a real path). */
function pathScore(opPath: string, path: string): number {
  const want = templateSegments(path);
  const have = templateSegments(opPath);
  if (want.length !== have.length) return -1;
  let literals = 0;
  for (let i = 0; i < have.length; i++) {
    if (have[i] === want[i]) literals += have[i] === '{}' ? 0 : 1;
    else if (have[i] !== '{}') return -1;
  }
  return literals;
}

/** The operation for a method and path, e.g. ('rostering', 'GET', '/classes/{id}/students') or '/classes/cls-1/students'. */
export function findV1p2Operation(service: V1p2Service, method: string, path: string): V1p2Operation {
  const candidates = V1P2_OPERATIONS.filter((op) => op.service === service && op.method === method.toUpperCase())
    .map((op) => ({ op, score: pathScore(op.path, path.split('?')[0] as string) }))
    .filter((c) => c.score >= 0)
    .sort((a, b) => b.score - a.score);
  const [best, next] = candidates;
  if (!best || (next && next.score === best.score))
    throw new Error(`${best ? 'ambiguous' : 'no'} OneRoster 1.2 ${service} operation for ${method} ${path}`);
  return best.op;
}

/**
 * Schema name of the JSON body an operation answers with this status, null when that answer has no
 * body. An error status the operation does not list falls back to its `default` response.
 */
export function responseSchemaOf(
  service: V1p2Service,
  method: string,
  path: string,
  status: number | string,
): string | null {
  const op = findV1p2Operation(service, method, path);
  const code = String(status);
  if (code in op.responses) return op.responses[code] ?? null;
  if (Number(code) >= 400 && 'default' in op.responses) return op.responses.default ?? null;
  throw new Error(`${op.operationId} (${op.method} ${op.path}) lists no ${code} response`);
}
