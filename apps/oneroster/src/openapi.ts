import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import {
  addResponse,
  addRouteScopes,
  declarePathParameters,
  documentedOperations,
  jsonResponse,
  removeOperation,
  serveOpenApi,
  type DocumentedOperation,
  type ParameterObject,
  type SchemaObject,
} from '@edu/http';
import {
  DEFAULT_LIMIT,
  getCatalog,
  GUID_REF_TYPES,
  MAX_LIMIT,
  ONEROSTER_RESOURCES,
  RESOURCE_KEYS,
  sortableFields,
  type FieldDef,
  type ImsxCodeMinorValue,
  type OneRosterResource,
} from '@edu/oneroster-query';
import { apiOfPath } from './common/oneroster-api';
import { OnerosterEnv } from './oneroster.env';
import { GRADEBOOK_COLLECTIONS, GRADEBOOK_SINGLES } from './gradebook/gradebook-operations';
import { RESOURCE_COLLECTIONS, RESOURCE_SINGLES } from './resources/resource-operations';
import { COLLECTIONS, SINGLES, type CollectionOperation, type SingleOperation } from './roster/roster-operations';
import { describeSourceRoute, SOURCE_SCHEMAS } from './sources/sources-openapi';
import { describeEventRoute, EVENT_SCHEMAS } from './events/events-openapi';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const str: SchemaObject = { type: 'string' };
const schemaName = (r: OneRosterResource) => r.charAt(0).toUpperCase() + r.slice(1);

/** Every read of the standard as data: the handler method of each route is named after its operation. */
const READS: Record<string, { kind: 'collection'; op: CollectionOperation } | { kind: 'single'; op: SingleOperation }> =
  Object.fromEntries([
    ...Object.values<CollectionOperation>({ ...COLLECTIONS, ...GRADEBOOK_COLLECTIONS, ...RESOURCE_COLLECTIONS }).map(
      (op) => [op.name, { kind: 'collection' as const, op }],
    ),
    ...Object.values<SingleOperation>({ ...SINGLES, ...GRADEBOOK_SINGLES, ...RESOURCE_SINGLES }).map((op) => [
      op.name,
      { kind: 'single' as const, op },
    ]),
  ]);

/** putCategory, deleteLineItem, ...: the gradebook writes (reference §6.3). */
const WRITE = /^(put|delete)(Category|LineItem|Result)$/;

const dateText: SchemaObject = {
  type: 'string',
  description: 'Date: YYYY-MM-DD (ISO 8601 deployments) or YYYYMMDD (compact, spec 2.9)',
};
const dateTimeText: SchemaObject = {
  type: 'string',
  description: 'DateTime in UTC: 2024-01-31T23:59:59.123Z (ISO 8601 deployments) or 20240131T235959.123Z (compact)',
};
const booleanText: SchemaObject = {
  oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['true', 'false'] }],
  description: 'JSON boolean or "true"/"false", per deployment',
};

/** A field of the information model as JSON Schema (reference §3; absent values are omitted, never null). */
function fieldSchema(f: FieldDef): SchemaObject | { $ref: string } {
  switch (f.kind) {
    case 'string':
      return str;
    case 'enum':
      return { type: 'string', enum: [...(f.values ?? [])] };
    case 'date':
      return dateText;
    case 'datetime':
      return dateTimeText;
    case 'boolean':
      return booleanText;
    case 'year':
      return { type: 'string', pattern: '^[0-9]{4}$' };
    case 'number':
      return { type: 'number' };
    case 'stringList':
      return { type: 'array', items: str };
    case 'guidRef':
      return ref('GUIDRef');
    case 'guidRefList':
      return { type: 'array', items: ref('GUIDRef') };
    case 'userIds':
      return {
        type: 'array',
        items: {
          type: 'object',
          required: ['type', 'identifier'],
          properties: { type: str, identifier: str },
          additionalProperties: false,
        },
      };
    case 'metadata':
      return { type: 'object', additionalProperties: true };
    case 'roles':
    case 'userProfiles':
    case 'learningObjectives':
    case 'scoreScaleValues':
      // v1.2 structured lists: described by the v1.2 documents.
      return { type: 'array', items: { type: 'object' } };
  }
}

/** Each class of the model from the field catalog the service filters, sorts and writes with. */
function classSchema(r: OneRosterResource): SchemaObject {
  // `password` is in the model but never stored, so never written.
  const fields = getCatalog(r).fields.filter((f) => f.name !== 'password');
  return {
    type: 'object',
    description: `OneRoster v1.1 ${r} (reference §3). Every field is optional in an answer: absent values are omitted, and \`fields\` selects which are written.`,
    properties: Object.fromEntries(fields.map((f) => [f.name, fieldSchema(f)])),
    additionalProperties: false,
  };
}

const CODE_MINOR: ImsxCodeMinorValue[] = [
  'fullsuccess',
  'invalid_sort_field',
  'invalid_selection_field',
  'invalid_filter_field',
  'invaliddata',
  'unauthorisedrequest',
  'forbidden',
  'unknownobject',
  'server_busy',
  'internal_server_error',
  'unsupportedoperation',
];

const statusInfo: SchemaObject = {
  type: 'object',
  required: ['imsx_codeMajor', 'imsx_severity', 'imsx_messageRefIdentifier', 'imsx_description', 'imsx_CodeMinor'],
  properties: {
    imsx_codeMajor: { type: 'string', enum: ['success', 'processing', 'failure', 'unsupported'] },
    imsx_severity: { type: 'string', enum: ['status', 'warning', 'error'] },
    imsx_messageRefIdentifier: str,
    imsx_operationRefIdentifier: str,
    imsx_description: str,
    imsx_CodeMinor: {
      type: 'object',
      required: ['imsx_codeMinorField'],
      properties: {
        imsx_codeMinorField: {
          type: 'array',
          items: {
            type: 'object',
            required: ['imsx_codeMinorFieldName', 'imsx_codeMinorFieldValue'],
            properties: {
              imsx_codeMinorFieldName: str,
              imsx_codeMinorFieldValue: { type: 'string', enum: CODE_MINOR },
            },
          },
        },
      },
    },
  },
  additionalProperties: false,
};

const importIssue: SchemaObject = {
  type: 'object',
  required: ['file', 'line', 'column', 'message'],
  properties: { file: str, line: { type: 'integer' }, column: str, message: str },
};
const importCounts: SchemaObject = {
  type: 'object',
  required: ['inserted', 'updated', 'unchanged', 'tombstoned'],
  properties: Object.fromEntries(
    ['inserted', 'updated', 'unchanged', 'tombstoned'].map((k) => [k, { type: 'integer', minimum: 0 }]),
  ),
};

/** Component schemas: the classes, their wrappers, GUIDRef, the imsx status payload, imports. */
function oneRosterSchemas(): Record<string, SchemaObject> {
  const schemas: Record<string, SchemaObject> = {
    GUIDRef: {
      type: 'object',
      required: ['href', 'sourcedId', 'type'],
      properties: {
        href: { type: 'string', format: 'uri' },
        sourcedId: str,
        type: { type: 'string', enum: [...GUID_REF_TYPES] },
      },
      additionalProperties: false,
    },
    StatusInfo: statusInfo,
    StatusInfoSet: {
      type: 'object',
      description: 'imsx status payload (reference §8): every error, alone, with its HTTP status',
      required: ['statusInfoSet'],
      properties: { statusInfoSet: { type: 'array', minItems: 1, items: ref('StatusInfo') } },
      additionalProperties: false,
    },
    RosterImport: {
      type: 'object',
      required: [
        'id',
        'tenant_id',
        'status',
        'mode',
        'source',
        'started_at',
        'finished_at',
        'data_version',
        'counts',
        'errors',
        'error_count',
        'warnings',
      ],
      properties: {
        id: { type: 'string', format: 'uuid' },
        tenant_id: { type: 'string', format: 'uuid' },
        status: { type: 'string', enum: ['running', 'succeeded', 'failed'] },
        mode: { type: 'string', nullable: true },
        source: str,
        started_at: { type: 'string', format: 'date-time' },
        finished_at: { type: 'string', format: 'date-time', nullable: true },
        data_version: { type: 'string', nullable: true },
        counts: { type: 'object', description: 'Per CSV file', additionalProperties: importCounts },
        errors: { type: 'array', items: importIssue },
        error_count: { type: 'integer', minimum: 0 },
        warnings: { type: 'array', items: importIssue },
      },
      additionalProperties: false,
    },
  };
  for (const r of ONEROSTER_RESOURCES) {
    const keys = RESOURCE_KEYS[r];
    schemas[schemaName(r)] = classSchema(r);
    const warnings = {
      type: 'array',
      items: ref('StatusInfo'),
      description: 'Warnings beside the data (an unknown sort or selection field)',
    } as SchemaObject;
    schemas[`${schemaName(r)}Single`] = {
      type: 'object',
      required: [keys.single],
      properties: { [keys.single]: ref(schemaName(r)), statusInfoSet: warnings },
      additionalProperties: false,
    };
    schemas[`${schemaName(r)}Collection`] = {
      type: 'object',
      required: [keys.collection],
      properties: { [keys.collection]: { type: 'array', items: ref(schemaName(r)) }, statusInfoSet: warnings },
      additionalProperties: false,
    };
  }
  return schemas;
}

const FIELDS: ParameterObject = {
  name: 'fields',
  in: 'query',
  required: false,
  description: 'Comma-separated field names to write (reference §4.5); unknown ones are a warning',
  schema: str,
};

function collectionParameters(r: OneRosterResource): ParameterObject[] {
  return [
    {
      name: 'limit',
      in: 'query',
      required: false,
      description: `Page size (reference §4.3); above ${MAX_LIMIT} refused, or served as pages of ${MAX_LIMIT} for compatibility-profile deployments`,
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
      description: 'Field to sort by (an unknown one is a warning)',
      schema: { type: 'string', enum: sortableFields(r) },
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
      description: "Filter expression (reference §4.4), e.g. status='active' AND dateLastModified>'2024-01-01'",
      schema: str,
    },
    FIELDS,
  ];
}

const PAGE_HEADERS = {
  'X-Total-Count': { description: 'Records in the whole collection (after the filter)', schema: { type: 'integer' } },
  'X-Count': { description: 'Records in this page', schema: { type: 'integer' } },
  Link: { description: 'first, prev, next and last pages (RFC 8288)', schema: str },
};

const ERROR_TEXT: Record<number, string> = {
  400: 'invaliddata or invalid_filter_field, naming the parameter or body field',
  401: 'unauthorisedrequest: missing, invalid or expired token',
  403: 'forbidden: scope, licence, region or (writes) another app owns the object',
  404: 'unknownobject: no such object at the tenant',
  413: 'invaliddata: body too large',
  415: 'invaliddata: wrong Content-Type',
  503: 'server_busy: PostgreSQL did not answer (Retry-After: 5)',
};

function errors(op: DocumentedOperation, statuses: number[]): void {
  for (const status of statuses) {
    const retryAfter =
      status === 503 ? { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } : undefined;
    addResponse(op, status, jsonResponse(ERROR_TEXT[status] ?? 'Error', ref('StatusInfoSet'), retryAfter));
  }
}

function replaceSuccess(op: DocumentedOperation, responses: Record<string, unknown>): void {
  const all = (op.operation.responses ??= {});
  for (const status of Object.keys(all)) if (/^2/.test(status)) delete all[status];
  Object.assign(all, responses);
}

/** Documents one route from the operation tables (reads), its name (writes) or the imports table. */
function describe(op: DocumentedOperation): boolean {
  const read = READS[op.methodName];
  if (read) {
    const r = read.op.resource;
    op.operation.operationId = read.op.name;
    op.operation.summary ??= read.op.name;
    op.operation.tags = [read.op.resource];
    op.operation.parameters = [
      ...(op.operation.parameters ?? []).filter((p) => !('in' in p) || p.in === 'path'),
      ...(read.kind === 'collection' ? collectionParameters(r) : [FIELDS]),
    ];
    replaceSuccess(
      op,
      read.kind === 'collection'
        ? {
            200: jsonResponse(
              `A page of ${RESOURCE_KEYS[r].collection}`,
              ref(`${schemaName(r)}Collection`),
              PAGE_HEADERS,
            ),
          }
        : {
            200: jsonResponse(`The ${read.op.noun}`, ref(`${schemaName(r)}Single`), {
              'X-Total-Count': PAGE_HEADERS['X-Total-Count'],
            }),
          },
    );
    errors(op, read.kind === 'collection' ? [400, 401, 403, 503] : [400, 401, 403, 404, 503]);
    return true;
  }
  const write = WRITE.exec(op.methodName);
  if (write) {
    const r = (write[2]!.charAt(0).toLowerCase() + write[2]!.slice(1)) as OneRosterResource;
    op.operation.operationId = op.methodName;
    op.operation.summary ??= op.methodName;
    op.operation.tags = [r];
    if (write[1] === 'put') {
      op.operation.requestBody = {
        required: true,
        description: `The ${r} in its wrapper; sourcedId optional (must equal the path's), dateLastModified and unknown properties ignored`,
        content: { 'application/json': { schema: ref(`${schemaName(r)}Single`) } },
      };
      replaceSuccess(op, {
        200: jsonResponse('Replaced; the stored object', ref(`${schemaName(r)}Single`)),
        201: jsonResponse('Created; the stored object', ref(`${schemaName(r)}Single`)),
      });
      errors(op, [400, 401, 403, 413, 415, 503]);
    } else {
      replaceSuccess(op, {
        204: { description: 'Deleted (a tombstone: collections list it with status tobedeleted)' },
      });
      errors(op, [401, 403, 404, 503]);
    }
    return true;
  }
  return false;
}

/** The operator's roster import endpoints (outside the OneRoster root). */
const IMPORTS: Record<string, (op: DocumentedOperation) => void> = {
  'RosterImportsController.create': (op) => {
    op.operation.summary = 'Import a OneRoster CSV package (zip) for a tenant';
    op.operation.requestBody = {
      required: true,
      content: { 'application/zip': { schema: { type: 'string', format: 'binary' } } },
    };
    const one = {
      type: 'object',
      required: ['import'],
      properties: { import: ref('RosterImport') },
      additionalProperties: false,
    } as SchemaObject;
    replaceSuccess(op, {
      201: jsonResponse('Finished: the report', one),
      202: jsonResponse('Still running: poll the Location', one, { Location: { schema: str } }),
    });
    addResponse(
      op,
      400,
      jsonResponse('Refused: one imsx status entry per error (and the import record)', ref('StatusInfoSet')),
    );
    errors(op, [401, 403, 404, 413, 415, 503]);
  },
  'RosterImportsController.list': (op) => {
    op.operation.summary = "The tenant's imports, newest first";
    replaceSuccess(op, {
      200: jsonResponse('Imports', {
        type: 'object',
        required: ['imports'],
        properties: { imports: { type: 'array', items: ref('RosterImport') } },
        additionalProperties: false,
      }),
    });
    errors(op, [401, 403, 404, 503]);
  },
  'RosterImportsController.get': (op) => {
    op.operation.summary = 'One import and its report';
    replaceSuccess(op, {
      200: jsonResponse('The import', {
        type: 'object',
        required: ['import'],
        properties: { import: ref('RosterImport') },
        additionalProperties: false,
      }),
    });
    errors(op, [401, 403, 404, 503]);
  },
};

/**
 * The OneRoster document is generated from the routes the app serves: each read is matched to
 * its entry in the operation tables by the handler's name (the standard's operation name), which
 * gives its class, its parameters and its response schema; writes by their names; scopes from
 * `@RequireScopes`. A new route in those tables is documented without touching this file; one
 * that matches nothing is left with Swagger's defaults and fails the OpenAPI test. The catch-all
 * that answers 404/405 for everything else under the root is left out.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const env = app.get(OnerosterEnv);
  const config = new DocumentBuilder()
    .setTitle('OneRoster v1.1 API')
    .setDescription(
      'The OneRoster v1.1 REST binding under /ims/oneroster/v1p1: rostering and resources reads, and the gradebook (categories, line items, results) with PUT and DELETE. ' +
        'Tenant-context tokens from the identity service; a route accepts a token holding any one of its scopes. ' +
        'Errors are imsx status payloads (statusInfoSet). Collections page with limit/offset, sort with sort/orderBy, filter with filter and select with fields.',
    )
    .setVersion('1.1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'bearer')
    .build();
  const doc = SwaggerModule.createDocument(app, config);
  doc.components = {
    ...doc.components,
    schemas: { ...doc.components?.schemas, ...oneRosterSchemas(), ...SOURCE_SCHEMAS, ...EVENT_SCHEMAS },
  };
  const all = documentedOperations(app, doc);
  // The catch-alls are not operations; the v1.2 services have documents of their own.
  const leftOut = (o: DocumentedOperation) => o.catchAll || apiOfPath(o.path)?.version === 'v1p2';
  for (const op of all.filter(leftOut)) removeOperation(doc, op.path, op.method);
  const ops = all.filter((o) => !leftOut(o));
  addRouteScopes(app, doc, ops, `${env.TOKEN_ISSUER.replace(/\/+$/, '')}/oauth/token`);
  declarePathParameters(ops);
  for (const op of ops)
    if (!describe(op) && !describeSourceRoute(op) && !describeEventRoute(op)) IMPORTS[op.handler]?.(op);
  return doc;
}

/** OpenAPI document at /docs-json and the UI at /docs. Call before `app.init()` / `listen()`. */
export function setupOpenApi(app: INestApplication): void {
  serveOpenApi(app, () => buildOpenApiDocument(app));
}
