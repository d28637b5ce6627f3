#!/usr/bin/env node
// Derives the OneRoster 1.2 test schemas from the official 1EdTech OpenAPI 3.0 files
// (published at https://purl.imsglobal.org/spec/or/v1p2/schema/openapi/):
//   onerosterv1p2rostersservice_openapi3_v1p0.json, onerosterv1p2gradebookservice_openapi3_v1p0.json,
//   onerosterv1p2resourcesservice_openapi3_v1p0.json.
// The output, apps/oneroster/test/support/v1p2/oas-derived.json, is checked in so the tests need
// nothing outside the repo; rerun this after a new OAS release and commit the diff.
//
// Per service (rostering, gradebook, resources) the output holds:
//   schemas     every components.schemas entry minus descriptions, examples and x-* keys. `$ref`s
//               become JSON pointers into the output file itself: `#/<service>/schemas/<Name>`.
//               The extensible-enum pattern `(ext:)[a-zA-Z0-9\.\-_]+` is unanchored in the OAS (so
//               "teacher-ext:x" would pass); it is written anchored as `^ext:[A-Za-z0-9._-]+$`.
//   operations  method, path (relative to the service root, as in the OAS), operationId, scopes (short
//               names, without the purl.imsglobal.org scope prefix), requestSchema, responses
//               (status -> schema name, null when there is no body) and queryParameters.
// `servers`, `links` and `tokenUrl` are placeholders in the OAS and are left out. Output is
// deterministic (sorted keys, 2-space JSON, trailing newline): same inputs, same bytes.
'use strict';
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');

const USAGE = `usage: node tools/oneroster/derive-v1p2-schemas.js --from <dir> [--out <file>] [--check]

  --from   directory holding the three official 1EdTech OneRoster 1.2 OpenAPI files
           (onerosterv1p2{rosters,gradebook,resources}service_openapi3_v1p0.json, from
           https://purl.imsglobal.org/spec/or/v1p2/schema/openapi/)
  --out    where to write (default apps/oneroster/test/support/v1p2/oas-derived.json)
  --check  write nothing; exit 1 if the output file differs from what the inputs give`;

const DEFAULT_OUT = path.join(
  __dirname,
  '..',
  '..',
  'apps',
  'oneroster',
  'test',
  'support',
  'v1p2',
  'oas-derived.json',
);

const SERVICE_FILES = {
  rostering: 'onerosterv1p2rostersservice_openapi3_v1p0.json',
  gradebook: 'onerosterv1p2gradebookservice_openapi3_v1p0.json',
  resources: 'onerosterv1p2resourcesservice_openapi3_v1p0.json',
};

const SCOPE_PREFIX = 'https://purl.imsglobal.org/spec/or/v1p2/scope/';
const COMPONENT_REF = /^#\/components\/schemas\/([A-Za-z0-9_]+)$/;
const OAS_EXT_PATTERN = '(ext:)[a-zA-Z0-9\\.\\-_]+';
const ANCHORED_EXT_PATTERN = '^ext:[A-Za-z0-9._-]+$';
const METHOD_ORDER = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

// Annotations dropped from schemas; anything not listed here or in SCHEMA_KEYWORDS stops the run,
// so a keyword a later OAS release introduces (e.g. `nullable`) is handled on purpose, not dropped.
const DROPPED_KEYWORDS = new Set(['description', 'example', 'examples', 'title']);
const SCHEMA_KEYWORDS = new Set([
  'type',
  'format',
  'enum',
  'pattern',
  'required',
  'default',
  '$ref',
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'properties',
  'additionalProperties',
  'items',
  'anyOf',
  'allOf',
  'oneOf',
  'not',
]);

function rewriteRef(ref, service, where) {
  const m = COMPONENT_REF.exec(ref);
  if (!m) throw new Error(`${where}: unsupported $ref ${ref}`);
  return `#/${service}/schemas/${m[1]}`;
}

function anchorPattern(pattern, where) {
  if (pattern === OAS_EXT_PATTERN) return ANCHORED_EXT_PATTERN;
  if (pattern.includes('ext:')) throw new Error(`${where}: unexpected ext pattern ${pattern}`);
  return pattern;
}

/** One schema without its annotations, refs pointing into the output file, ext pattern anchored. */
function cleanSchema(schema, service, where) {
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED_KEYWORDS.has(key) || key.startsWith('x-')) continue;
    if (!SCHEMA_KEYWORDS.has(key)) throw new Error(`${where}: unexpected schema keyword "${key}"`);
    if (key === '$ref') out[key] = rewriteRef(value, service, where);
    else if (key === 'pattern') out[key] = anchorPattern(value, where);
    else if (key === 'properties')
      out[key] = mapValues(value, (sub, name) => cleanSchema(sub, service, `${where}.${name}`));
    else if (key === 'anyOf' || key === 'allOf' || key === 'oneOf')
      out[key] = value.map((sub, i) => cleanSchema(sub, service, `${where}/${key}[${i}]`));
    else if ((key === 'items' || key === 'not' || key === 'additionalProperties') && typeof value === 'object')
      out[key] = cleanSchema(value, service, `${where}/${key}`);
    else out[key] = value;
  }
  return out;
}

function mapValues(obj, fn) {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, fn(v, k)]));
}

/** The component name a JSON body refers to, or null when the request/response has no body. */
function bodySchemaName(content, where) {
  if (!content) return null;
  const types = Object.keys(content);
  if (types.length !== 1 || types[0] !== 'application/json')
    throw new Error(`${where}: unexpected media types ${types.join(', ')}`);
  const ref = content['application/json'].schema?.$ref;
  const m = ref && COMPONENT_REF.exec(ref);
  if (!m) throw new Error(`${where}: body schema is not a components.schemas $ref`);
  return m[1];
}

function operationScopes(op, where) {
  const scopes = [];
  for (const requirement of op.security ?? []) {
    for (const [scheme, list] of Object.entries(requirement)) {
      if (scheme !== 'OAuth2CC') throw new Error(`${where}: unexpected security scheme ${scheme}`);
      for (const scope of list) {
        if (!scope.startsWith(SCOPE_PREFIX)) throw new Error(`${where}: scope without the v1p2 prefix: ${scope}`);
        const short = scope.slice(SCOPE_PREFIX.length);
        if (!scopes.includes(short)) scopes.push(short);
      }
    }
  }
  return scopes;
}

function deriveOperation(method, opPath, op) {
  const where = `${method.toUpperCase()} ${opPath}`;
  if (op.parameters?.some((p) => p.$ref)) throw new Error(`${where}: parameter $refs are not supported`);
  return {
    method: method.toUpperCase(),
    path: opPath,
    operationId: op.operationId,
    scopes: operationScopes(op, where),
    requestSchema: op.requestBody ? bodySchemaName(op.requestBody.content, `${where} request`) : null,
    responses: mapValues(op.responses, (res, status) => bodySchemaName(res.content, `${where} ${status}`)),
    queryParameters: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
  };
}

/** Every operation of one OAS, ordered by path then method so reruns give the same list. */
function deriveOperations(doc) {
  const ops = [];
  for (const [opPath, item] of Object.entries(doc.paths)) {
    for (const [key, op] of Object.entries(item)) {
      if (!METHOD_ORDER.includes(key)) throw new Error(`${opPath}: unexpected path item key "${key}"`);
      ops.push(deriveOperation(key, opPath, op));
    }
  }
  const rank = (op) => METHOD_ORDER.indexOf(op.method.toLowerCase());
  return ops.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : rank(a) - rank(b)));
}

function deriveService(service, dir) {
  const file = SERVICE_FILES[service];
  const text = fs.readFileSync(path.join(dir, file), 'utf8');
  const doc = JSON.parse(text);
  if (!/^3\.0\./.test(doc.openapi)) throw new Error(`${file}: expected OpenAPI 3.0, got ${doc.openapi}`);
  return {
    source: {
      file,
      title: doc.info.title,
      version: doc.info.version,
      sha256: createHash('sha256').update(text).digest('hex'),
    },
    schemas: mapValues(doc.components.schemas, (schema, name) => cleanSchema(schema, service, `${service}:${name}`)),
    operations: deriveOperations(doc),
  };
}

/** Objects with their keys sorted, recursively; arrays keep their order (enum, required, operations). */
function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortKeys(value[k])]),
  );
}

function derive(dir) {
  const out = {
    $comment:
      'Generated by tools/oneroster/derive-v1p2-schemas.js from the official 1EdTech OneRoster 1.2 OpenAPI files; do not edit by hand.',
  };
  for (const service of Object.keys(SERVICE_FILES)) out[service] = deriveService(service, dir);
  return `${JSON.stringify(sortKeys(out), null, 2)}\n`;
}

function main() {
  const { values } = parseArgs({
    options: {
      from: { type: 'string' },
      out: { type: 'string' },
      check: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !values.from) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const outFile = path.resolve(values.out ?? DEFAULT_OUT);
  const text = derive(path.resolve(values.from));
  if (values.check) {
    const current = fs.existsSync(outFile) ? fs.readFileSync(outFile, 'utf8') : '';
    if (current !== text) {
      console.error(`${path.relative(process.cwd(), outFile)} is out of date; rerun without --check`);
      process.exit(1);
    }
    console.log(`${path.relative(process.cwd(), outFile)} is up to date`);
    return;
  }
  fs.mkdirSync(path.dirname(outFile), { recursive: true });
  fs.writeFileSync(outFile, text);
  console.log(`wrote ${path.relative(process.cwd(), outFile)} (${text.length} bytes)`);
}

if (require.main === module) {
  try {
    main();
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}

module.exports = { derive };
