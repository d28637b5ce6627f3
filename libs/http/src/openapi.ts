import { RequestMethod, type INestApplication } from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants';
import { ModulesContainer, Reflector } from '@nestjs/core';
import {
  SwaggerModule,
  type OpenAPIObject,
  type OperationObject,
  type ParameterObject,
  type ReferenceObject,
  type ResponseObject,
  type SchemaObject,
} from '@nestjs/swagger';
import { PUBLIC_ROUTE, REQUIRED_SCOPES, SCOPE_CATALOG } from '@edu/auth';
import { ALL_SCOPE_KEYS, type ScopeCatalog, type ScopeKey } from '@edu/domain';

export type { OperationObject, ParameterObject, ReferenceObject, ResponseObject, SchemaObject };

export const OPENAPI_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'] as const;
export type OpenApiMethod = (typeof OPENAPI_METHODS)[number];

/** Extension naming the scope URIs an operation accepts (any one suffices). */
export const SCOPES_EXTENSION = 'x-required-scopes';

/** One operation of a document with the controller handler that serves it. */
export interface DocumentedOperation {
  method: OpenApiMethod;
  /** OpenAPI path (`/v2/alerts/webhook/{id}`). */
  path: string;
  operation: OperationObject;
  /** `Controller.method`, e.g. `WebhooksController.get`. */
  handler: string;
  /** Name of the handler method (`getAllOrgs`). */
  methodName: string;
  /** Accepted scope keys, undefined for public routes. */
  scopes?: ScopeKey[];
  /** A route registered for every method (`@All`): a catch-all, not an operation. */
  catchAll: boolean;
}

interface HandlerInfo {
  cls: new (...args: never[]) => unknown;
  name: string;
  handler: object;
}

/** Controller handlers by the operation id Swagger gives them by default (`Controller_method`). */
function handlersByOperationId(app: INestApplication): Map<string, HandlerInfo> {
  const byId = new Map<string, HandlerInfo>();
  for (const mod of app.get(ModulesContainer).values()) {
    for (const wrapper of mod.controllers.values()) {
      const cls = wrapper.metatype as HandlerInfo['cls'] | null;
      if (!cls) continue;
      const proto = cls.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const handler = proto[name];
        if (name !== 'constructor' && typeof handler === 'function')
          byId.set(`${cls.name}_${name}`, { cls, name, handler });
      }
    }
  }
  return byId;
}

/**
 * Every operation of a document built by `SwaggerModule.createDocument` (default operation ids),
 * joined to its handler and the scopes its `@RequireScopes` declares: what the route inventory
 * of the tests reads too, so the document cannot disagree with the guard.
 */
export function documentedOperations(app: INestApplication, doc: OpenAPIObject): DocumentedOperation[] {
  const reflector = new Reflector();
  const handlers = handlersByOperationId(app);
  const out: DocumentedOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of OPENAPI_METHODS) {
      const operation = item[method] as OperationObject | undefined;
      if (!operation) continue;
      // `@All` routes get `<id>_<method>` ids.
      const id = operation.operationId ?? '';
      const info = handlers.get(id) ?? handlers.get(id.replace(/_[a-z]+$/, ''));
      if (!info) throw new Error(`OpenAPI operation ${method.toUpperCase()} ${path} (${id}) has no controller handler`);
      const isPublic = reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [info.handler as never, info.cls]);
      const scopes = reflector.getAllAndOverride<ScopeKey[] | undefined>(REQUIRED_SCOPES, [
        info.handler as never,
        info.cls,
      ]);
      const catchAll = Reflect.getMetadata(METHOD_METADATA, info.handler) === RequestMethod.ALL;
      out.push({
        method,
        path,
        operation,
        handler: `${info.cls.name}.${info.name}`,
        methodName: info.name,
        scopes: isPublic ? undefined : scopes,
        catchAll,
      });
    }
  }
  return out;
}

/** Removes one operation (and its path when nothing is left on it). */
export function removeOperation(doc: OpenAPIObject, path: string, method: OpenApiMethod): void {
  const item = doc.paths[path];
  if (!item) return;
  delete item[method];
  if (!OPENAPI_METHODS.some((m) => item[m])) delete doc.paths[path];
}

/**
 * Names each protected operation's accepted scopes with the configured URIs: an OAuth 2.0
 * client-credentials security scheme lists every scope, and each operation accepts `bearer` or
 * `oauth2` with its scopes (the same form as the identity service's document).
 */
export function addRouteScopes(
  app: INestApplication,
  doc: OpenAPIObject,
  operations: readonly DocumentedOperation[],
  tokenUrl: string,
): void {
  const catalog = app.get<ScopeCatalog>(SCOPE_CATALOG);
  doc.components ??= {};
  doc.components.securitySchemes ??= {};
  doc.components.securitySchemes.bearer ??= { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' };
  doc.components.securitySchemes.oauth2 = {
    type: 'oauth2',
    description:
      'Client credentials (RFC 6749 §4.4) at the identity service. A route accepts a token holding any one of its scopes.',
    flows: {
      clientCredentials: { tokenUrl, scopes: Object.fromEntries(ALL_SCOPE_KEYS.map((k) => [catalog.uri(k), k])) },
    },
  };
  for (const op of operations) {
    if (!op.scopes) {
      op.operation.security = [];
      continue;
    }
    const uris = catalog.uris(op.scopes);
    (op.operation as unknown as Record<string, unknown>)[SCOPES_EXTENSION] = uris;
    op.operation.security = [{ bearer: [] }, { oauth2: uris }];
  }
}

/**
 * Declares every `{name}` of each path as a required path parameter where the controller did not
 * (handlers taking `@Param() dto` or `@Param('x')` without Swagger decorators).
 */
export function declarePathParameters(
  operations: readonly DocumentedOperation[],
  schemaFor: (name: string, op: DocumentedOperation) => SchemaObject = () => ({ type: 'string' }),
): void {
  for (const op of operations) {
    const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
    const params = (op.operation.parameters ??= []) as ParameterObject[];
    for (const name of names) {
      const existing = params.find((p) => p.in === 'path' && p.name === name);
      if (existing) {
        existing.required = true;
        existing.schema = { ...(existing.schema as SchemaObject | undefined), ...schemaFor(name, op) };
      } else {
        params.push({ name, in: 'path', required: true, schema: schemaFor(name, op) });
      }
    }
  }
}

/** Adds a response to an operation unless it already documents that status. */
export function addResponse(
  op: DocumentedOperation,
  status: number | string,
  response: ResponseObject | ReferenceObject,
): void {
  op.operation.responses ??= {};
  const key = String(status);
  if (!op.operation.responses[key] || !('content' in (op.operation.responses[key] as object)))
    op.operation.responses[key] = response;
}

/** A JSON response with a schema. */
export function jsonResponse(
  description: string,
  schema: SchemaObject | ReferenceObject,
  headers?: ResponseObject['headers'],
): ResponseObject {
  return { description, content: { 'application/json': { schema } }, ...(headers ? { headers } : {}) };
}

/** OpenAPI document at /docs-json and the UI at /docs, built on first request. Call before `app.init()` / `listen()`. */
export function serveOpenApi(app: INestApplication, build: () => OpenAPIObject): void {
  let doc: OpenAPIObject | undefined;
  SwaggerModule.setup('docs', app, () => (doc ??= build()), { jsonDocumentUrl: 'docs-json' });
}
