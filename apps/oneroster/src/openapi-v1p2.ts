import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import {
  addRouteScopes,
  declarePathParameters,
  documentedOperations,
  OPENAPI_METHODS,
  removeOperation,
  SCOPES_EXTENSION,
  type DocumentedOperation,
  type ParameterObject,
} from '@edu/http';
import { V1P2_API } from './common/oneroster-api';
import { OnerosterEnv, publicBaseUrl } from './oneroster.env';
import { describeV1p2 } from './openapi/v1p2-operations';
import { v1p2Schemas } from './openapi/v1p2-schemas';
import { ONEROSTER_SERVICES, type OneRosterService } from './query/roster-tables';

/** Where each service's document is served: the UI, and the JSON at the same path + `-json`. */
export const V1P2_DOCS: Readonly<Record<OneRosterService, string>> = {
  rostering: 'docs/v1p2/rostering',
  gradebook: 'docs/v1p2/gradebook',
  resources: 'docs/v1p2/resources',
};

const TITLES: Readonly<Record<OneRosterService, string>> = {
  rostering: 'the rostering reads',
  gradebook: 'categories, line items, results, score scales and assessments, with PUT, DELETE and the bulk POSTs',
  resources: 'the resources reads',
};

/** `classes` → `class`, `categories` → `category`, `lineItems` → `lineItem`. */
function singular(segment: string): string {
  if (segment.endsWith('ies')) return `${segment.slice(0, -3)}y`;
  return segment.endsWith('sses') ? segment.slice(0, -2) : segment.replace(/s$/, '');
}

/**
 * The path relative to the service root with the standard's parameter names: the last segment's
 * is `sourcedId`, any other is named after the collection before it (`/classes/{classSourcedId}/students`).
 */
function standardPath(path: string, root: string): { path: string; names: Map<string, string> } {
  const segments = path.slice(root.length).split('/');
  const names = new Map<string, string>();
  const out = segments.map((s, i) => {
    const m = /^\{(.+)\}$/.exec(s);
    if (!m) return s;
    const name = i === segments.length - 1 ? 'sourcedId' : `${singular(segments[i - 1] ?? '')}SourcedId`;
    names.set(m[1] as string, name);
    return `{${name}}`;
  });
  return { path: out.join('/') || '/', names };
}

/** Paths relative to the document's server (the service root), named as the standard names them. */
function relativePaths(doc: OpenAPIObject, root: string): void {
  const paths: OpenAPIObject['paths'] = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    const { path: relative, names } = standardPath(path, root);
    for (const method of OPENAPI_METHODS) {
      for (const p of (item[method]?.parameters ?? []) as ParameterObject[])
        if (p.in === 'path') p.name = names.get(p.name) ?? p.name;
    }
    paths[relative] = { ...paths[relative], ...item };
  }
  doc.paths = paths;
}

/** Keeps the schemas the paths reach (directly or through other schemas). */
function pruneSchemas(doc: OpenAPIObject): void {
  const schemas = doc.components?.schemas ?? {};
  const keep = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    for (const [key, v] of Object.entries(value)) {
      const name = key === '$ref' && typeof v === 'string' ? v.replace('#/components/schemas/', '') : undefined;
      if (name === undefined) visit(v);
      else if (!keep.has(name)) {
        keep.add(name);
        visit(schemas[name]);
      }
    }
  };
  visit(doc.paths);
  for (const name of Object.keys(schemas)) if (!keep.has(name)) delete schemas[name];
}

/** The client-credentials flow lists the scopes of this document's operations only. */
function narrowScopes(doc: OpenAPIObject, ops: readonly DocumentedOperation[]): void {
  const used = new Set(
    ops.flatMap(
      (o) => ((o.operation as unknown as Record<string, unknown>)[SCOPES_EXTENSION] as string[] | undefined) ?? [],
    ),
  );
  const flow = (
    doc.components?.securitySchemes?.oauth2 as
      { flows?: { clientCredentials?: { scopes: Record<string, string> } } } | undefined
  )?.flows?.clientCredentials;
  if (flow) flow.scopes = Object.fromEntries(Object.entries(flow.scopes).filter(([uri]) => used.has(uri)));
}

/**
 * The OpenAPI document of one OneRoster v1.2 service, generated like the v1.1 one from the routes
 * the app serves under that service's root: operations from the operation tables and handler
 * names, scopes from `@RequireScopes`, schemas from the v1.2 catalogs. The catch-all answering
 * 404/405 under the root is not an operation and is left out.
 */
export function buildV1p2Document(app: INestApplication, service: OneRosterService): OpenAPIObject {
  const env = app.get(OnerosterEnv);
  const root = `/${V1P2_API.prefix[service]}`;
  const config = new DocumentBuilder()
    .setTitle(`OneRoster v1.2 ${service} service`)
    .setDescription(
      `The OneRoster v1.2 REST binding under ${root}: ${TITLES[service]}. Tenant-context tokens from the identity service holding a v1.2 scope; ` +
        'a route accepts a token holding any one of its scopes. Success bodies hold one wrapper key; errors are one bare imsx_StatusInfo object. ' +
        'Booleans are the strings "true" and "false"; enumerations marked so also take ext: values.',
    )
    .setVersion('1.2')
    .addServer(`${publicBaseUrl(env)}${root}`)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'bearer')
    .build();
  const doc = SwaggerModule.createDocument(app, config);
  const all = documentedOperations(app, doc);
  const inService = (o: DocumentedOperation) => !o.catchAll && o.path.startsWith(`${root}/`);
  for (const o of all.filter((o) => !inService(o))) removeOperation(doc, o.path, o.method);
  const ops = all.filter(inService);
  addRouteScopes(app, doc, ops, `${env.TOKEN_ISSUER.replace(/\/+$/, '')}/oauth/token`);
  narrowScopes(doc, ops);
  declarePathParameters(ops);
  doc.components = { ...doc.components, schemas: { ...doc.components?.schemas, ...v1p2Schemas() } };
  for (const op of ops) describeV1p2(op);
  doc.tags = [...new Set(ops.flatMap((o) => o.operation.tags ?? []))].map((name) => ({ name }));
  relativePaths(doc, root);
  pruneSchemas(doc);
  return doc;
}

/** The three v1.2 documents at /docs/v1p2/<service>-json and their UIs at /docs/v1p2/<service>. Call before `app.init()` / `listen()`. */
export function setupOpenApiV1p2(app: INestApplication): void {
  for (const service of ONEROSTER_SERVICES) {
    // The factory runs on the first request; Swagger keeps the document.
    SwaggerModule.setup(V1P2_DOCS[service], app, () => buildV1p2Document(app, service), {
      jsonDocumentUrl: `${V1P2_DOCS[service]}-json`,
    });
  }
}
