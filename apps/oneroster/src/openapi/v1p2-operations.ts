/**
 * Describes each v1.2 route of a document: reads by their entry in the operation tables (the
 * handler is named after the standard's operationId), writes by their handler's name
 * (`putScoreScale`, `deleteResult`, `postLineItemsForClass`, ...), so a route added under those
 * names is documented without touching this file.
 */
import {
  addResponse,
  jsonResponse,
  type DocumentedOperation,
  type ParameterObject,
  type ResponseObject,
  type SchemaObject,
} from '@edu/http';
import {
  DEFAULT_LIMIT,
  getCatalog,
  MAX_LIMIT,
  RESOURCE_KEYS,
  sortableFields,
  V1P2_RESOURCES,
  type V1p2Resource,
} from '@edu/oneroster-query';
import * as gradebookTables from '../gradebook/gradebook-operations';
import * as resourceTables from '../resources/resource-operations';
import * as rosterTables from '../roster/roster-operations';
import type { CollectionOperation, SingleOperation } from '../roster/roster-operations';
import { GUID_PAIR_SET, ref, setName, singleName, STATUS_INFO } from './v1p2-schemas';

type Read = { kind: 'collection'; op: CollectionOperation } | { kind: 'single'; op: SingleOperation };

const isOperation = (v: unknown): v is CollectionOperation | SingleOperation =>
  !!v &&
  typeof v === 'object' &&
  typeof (v as CollectionOperation).name === 'string' &&
  typeof (v as CollectionOperation).resource === 'string' &&
  typeof (v as CollectionOperation).base === 'function';

/**
 * Every read of every operation table the modules export (`COLLECTIONS`, `GRADEBOOK_SINGLES`, and
 * tables added later beside them), by operation name; singles are the ones with a noun.
 */
function readsOf(...modules: object[]): Map<string, Read> {
  const reads = new Map<string, Read>();
  for (const table of modules.flatMap((m) => Object.values(m) as unknown[])) {
    if (!table || typeof table !== 'object' || Array.isArray(table)) continue;
    const ops = Object.values(table);
    if (ops.length === 0 || !ops.every(isOperation)) continue;
    for (const op of ops) reads.set(op.name, 'noun' in op ? { kind: 'single', op } : { kind: 'collection', op });
  }
  return reads;
}

const READS = readsOf(rosterTables, gradebookTables, resourceTables);

const isV1p2Resource = (r: string): r is V1p2Resource => (V1P2_RESOURCES as readonly string[]).includes(r);
const uncap = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/** `putScoreScale` → put scoreScale; `postResultsForLineItem` → post result; else undefined. */
function writeOf(methodName: string): { verb: 'put' | 'delete' | 'post'; resource: V1p2Resource } | undefined {
  const m = /^(put|delete)([A-Z]\w*)$/.exec(methodName) ?? /^(post)([A-Z]\w*?)sFor[A-Z]\w*$/.exec(methodName);
  const resource = m ? uncap(m[2] as string) : '';
  return m && isV1p2Resource(resource) ? { verb: m[1] as 'put' | 'delete' | 'post', resource } : undefined;
}

const str: SchemaObject = { type: 'string' };

function fieldsParameter(r: V1p2Resource): ParameterObject {
  const names = getCatalog(r, 'v1p2')
    .fields.map((f) => f.name)
    .filter((n) => n !== 'password');
  return {
    name: 'fields',
    in: 'query',
    required: false,
    description:
      'The fields to write, comma-separated (names match case-insensitively). An unknown one is a 400 invalid_selection_field.',
    style: 'form',
    explode: false,
    schema: { type: 'array', items: { type: 'string', enum: names } },
  };
}

function collectionParameters(r: V1p2Resource): ParameterObject[] {
  return [
    {
      name: 'limit',
      in: 'query',
      required: false,
      description: `Page size. Above ${MAX_LIMIT} the answer is a page of ${MAX_LIMIT} whose Link header leads to the next and last pages (never a 400).`,
      schema: { type: 'integer', minimum: 1, default: DEFAULT_LIMIT },
    },
    {
      name: 'offset',
      in: 'query',
      required: false,
      description: 'Records to skip',
      schema: { type: 'integer', minimum: 0, default: 0 },
    },
    {
      name: 'sort',
      in: 'query',
      required: false,
      description: 'Field to sort by (ties by sourcedId); an unknown one is a 400',
      schema: { type: 'string', enum: sortableFields(getCatalog(r, 'v1p2')) },
    },
    {
      name: 'orderBy',
      in: 'query',
      required: false,
      schema: { type: 'string', enum: ['asc', 'desc'], default: 'asc' },
    },
    {
      name: 'filter',
      in: 'query',
      required: false,
      description:
        "Filter expression, e.g. status='active' AND dateLastModified>'2024-01-31T00:00:00Z'; an unknown field is a 400 invalid_filter_field",
      schema: str,
    },
    fieldsParameter(r),
  ];
}

const PAGE_HEADERS: ResponseObject['headers'] = {
  'X-Total-Count': { description: 'Records in the whole collection, after the filter', schema: { type: 'integer' } },
  'X-Count': { description: 'Records in this page', schema: { type: 'integer' } },
  Link: {
    description: 'first, prev, next and last pages (RFC 8288); next absent on the last page, prev on the first',
    schema: str,
  },
};

const SINGLE_HEADERS: ResponseObject['headers'] = {
  'X-Total-Count': { description: 'Always 1', schema: { type: 'integer' } },
};

const RETRY_AFTER: ResponseObject['headers'] = {
  'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } },
};

const ERROR_TEXT: Readonly<Record<number, string>> = {
  400: 'invalid_filter_field, invalid_selection_field, invalid_sort_field or invaliddata, naming the query parameter',
  401: 'unauthorisedrequest: missing, invalid or expired token',
  403: 'forbidden: no accepted scope, licence or region; on writes, another app owns the object',
  404: 'unknownobject: no such object (or parent object) at the tenant',
  413: 'invaliddata: body too large',
  415: 'invaliddata: not application/json',
  422: 'invaliddata: a well-formed body that breaks the model, naming the field',
  429: 'server_busy: too many requests (Retry-After)',
  500: 'internal_server_error, with an error id that is logged',
  503: 'server_busy: the database did not answer (Retry-After)',
};

/** Writes take no query parameters: their 400 is a body that is not JSON. */
const WRITE_400 = 'invaliddata: the body is not JSON';

function errors(op: DocumentedOperation, statuses: readonly number[]): void {
  for (const status of statuses) {
    const text = status === 400 && op.method !== 'get' ? WRITE_400 : (ERROR_TEXT[status] as string);
    addResponse(
      op,
      status,
      jsonResponse(text, ref(STATUS_INFO), status === 429 || status === 503 ? RETRY_AFTER : undefined),
    );
  }
}

function replaceSuccess(op: DocumentedOperation, responses: Record<string, ResponseObject>): void {
  const all = (op.operation.responses ??= {});
  for (const status of Object.keys(all)) if (/^2/.test(status)) delete all[status];
  Object.assign(all, responses);
}

const pathParameters = (op: DocumentedOperation) =>
  (op.operation.parameters ?? []).filter((p) => 'in' in p && p.in === 'path');

function name(op: DocumentedOperation, operationId: string, resource: V1p2Resource): void {
  op.operation.operationId = operationId;
  op.operation.summary ??= operationId;
  op.operation.tags = [resource];
}

function describeRead(op: DocumentedOperation, read: Read): void {
  const r = read.op.resource as V1p2Resource;
  name(op, read.op.name, r);
  const params = pathParameters(op);
  op.operation.parameters = [
    ...params,
    ...(read.kind === 'collection' ? collectionParameters(r) : [fieldsParameter(r)]),
  ];
  if (read.kind === 'collection') {
    replaceSuccess(op, {
      200: jsonResponse(`A page of ${RESOURCE_KEYS[r].collection}`, ref(setName(r)), PAGE_HEADERS),
    });
  } else {
    replaceSuccess(op, { 200: jsonResponse(`The ${read.op.noun}`, ref(singleName(r)), SINGLE_HEADERS) });
  }
  // A relationship read answers 404 for an unknown parent, as a single read for an unknown object.
  errors(
    op,
    read.kind === 'single' || params.length > 0 ? [400, 401, 403, 404, 429, 500, 503] : [400, 401, 403, 429, 500, 503],
  );
}

const WRITE_ERRORS = [400, 401, 403, 404, 413, 415, 422, 429, 500, 503];

function describeWrite(op: DocumentedOperation, verb: 'put' | 'delete' | 'post', r: V1p2Resource): void {
  name(op, op.methodName, r);
  op.operation.parameters = pathParameters(op);
  if (verb === 'put') {
    op.operation.requestBody = {
      required: true,
      description: `The ${r} in its single wrapper, sourcedId equal to the path's. GUIDRefs may be given as {"sourcedId": ...}; status and dateLastModified are set by the service.`,
      content: { 'application/json': { schema: ref(singleName(r)) } },
    };
    replaceSuccess(op, {
      201: { description: 'Created (no body)' },
      200: jsonResponse('Replaced: the stored object', ref(singleName(r))),
    });
    errors(op, WRITE_ERRORS);
  } else if (verb === 'post') {
    op.operation.requestBody = {
      required: true,
      description: `New ${RESOURCE_KEYS[r].collection} in the collection wrapper, each sourcedId the client's temporary id for it`,
      content: { 'application/json': { schema: ref(setName(r)) } },
    };
    replaceSuccess(op, { 201: jsonResponse('Created: the id allocated for each supplied id', ref(GUID_PAIR_SET)) });
    errors(op, WRITE_ERRORS);
  } else {
    replaceSuccess(op, {
      204: {
        description:
          'Deleted: gone from single reads and plain collections; status and dateLastModified filters still see it',
      },
    });
    errors(
      op,
      WRITE_ERRORS.filter((s) => s !== 413 && s !== 415 && s !== 400),
    );
  }
}

/**
 * Documents one v1.2 route; false when neither the operation tables nor the write names know its
 * handler (it keeps Swagger's defaults, which the OpenAPI test reports).
 */
export function describeV1p2(op: DocumentedOperation): boolean {
  const read = op.method === 'get' ? READS.get(op.methodName) : undefined;
  if (read && isV1p2Resource(read.op.resource)) {
    describeRead(op, read);
    return true;
  }
  const write = writeOf(op.methodName);
  if (write && write.verb === op.method) {
    describeWrite(op, write.verb, write.resource);
    return true;
  }
  return false;
}
