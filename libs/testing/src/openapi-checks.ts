import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'] as const;

/* eslint-disable @typescript-eslint/no-explicit-any -- OpenAPI documents are read as plain JSON here */
export interface DocOperation {
  /** Upper case, as the route inventory writes it. */
  method: string;
  /** Express form (`/webhook/:id`), as the route inventory writes it. */
  path: string;
  /** OpenAPI form (`/webhook/{id}`). */
  openApiPath: string;
  op: any;
}

/** Every operation of an OpenAPI document (as served at /docs-json). */
export function docOperations(doc: any): DocOperation[] {
  const out: DocOperation[] = [];
  for (const [openApiPath, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const m of METHODS) {
      if (item[m])
        out.push({
          method: m.toUpperCase(),
          path: openApiPath.replace(/\{([^}]+)\}/g, ':$1'),
          openApiPath,
          op: item[m],
        });
    }
  }
  return out;
}

/** OpenAPI 3.0 `nullable` as JSON Schema (`anyOf` with null), recursively. */
function toJsonSchema(schema: any): any {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const out: any = {};
  for (const [k, v] of Object.entries(schema)) if (k !== 'nullable') out[k] = toJsonSchema(v);
  return schema.nullable ? { anyOf: [out, { type: 'null' }] } : out;
}

/**
 * Validators for a document's component schemas (`#/components/schemas/...` references resolve
 * inside the document), to check real answers against what the document promises.
 */
export function openApiValidators(doc: any): (schema: any) => ValidateFunction {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const id = `openapi-${Math.random().toString(36).slice(2)}`;
  ajv.addSchema({ $id: id, components: { schemas: toJsonSchema(doc.components?.schemas ?? {}) } });
  return (schema) =>
    ajv.compile({
      $id: `${id}-${Math.random().toString(36).slice(2)}`,
      ...toJsonSchema(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', `"${id}#/components/`))),
    });
}

/** The schema of an operation's JSON answer with this status. */
export function responseSchema(op: DocOperation, status: number): any {
  return op.op.responses?.[String(status)]?.content?.['application/json']?.schema;
}
