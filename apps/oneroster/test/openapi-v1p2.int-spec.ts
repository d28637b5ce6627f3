import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { loadConfig } from '@edu/config';
import { DEFAULT_ONEROSTER_SCOPE_BASE, ScopeCatalog, type ScopeKey } from '@edu/domain';
import { configureHttpApp } from '@edu/http';
import {
  baseTestEnv,
  docOperations,
  openApiValidators,
  responseSchema,
  routeInventory,
  type DocOperation,
} from '@edu/testing';
import { ImsxErrorFilter } from '../src/common/imsx-error.filter';
import { OnerosterEnv } from '../src/oneroster.env';
import { OnerosterModule } from '../src/oneroster.module';
import { setupOpenApi } from '../src/openapi';
import { setupOpenApiV1p2 } from '../src/openapi-v1p2';
import { fullPackage, writeFolder } from './support/csv-package';
import { PUBLIC_BASE, RosterHarness, type TenantSetup } from './support/harness';
import { importFolder, loadFixture } from './support/load';
import { COLLECTION_CASES, SINGLE_CASES } from './support/operations';
import { districtFixture } from './support/roster-fixture';
import { SCOPE_V1P2, V1P2, v1p2, type V1p2Method } from './support/v1p2';
import { V1P2_OPERATIONS, V1P2_SERVICES, type V1p2Service } from './support/v1p2/oas-schemas';

/* eslint-disable @typescript-eslint/no-explicit-any -- OpenAPI documents are read as plain JSON */
type Json = any;

const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: DEFAULT_ONEROSTER_SCOPE_BASE,
});
const V1P2_SCOPE_BASE = SCOPE_V1P2.roster.replace(/\/[^/]+$/, '/');

/** `/classes/{classSourcedId}/students` and `/classes/:class_id/students` → `/classes/{}/students`. */
const shape = (path: string) => path.replace(/\{[^}]+\}|:[A-Za-z_]+/g, '{}');

/** The official schemas, as checked in (derived from the 1EdTech OpenAPI files). */
const OFFICIAL = JSON.parse(readFileSync(join(__dirname, 'support/v1p2/oas-derived.json'), 'utf8'));

/** The v1.2 classes of each service. */
const CLASSES: Readonly<Record<V1p2Service, readonly string[]>> = {
  rostering: ['AcademicSession', 'Class', 'Course', 'Demographics', 'Enrollment', 'Org', 'User'],
  gradebook: ['Category', 'LineItem', 'Result', 'ScoreScale', 'AssessmentLineItem', 'AssessmentResult'],
  resources: ['Resource'],
};

/** The app as main.ts builds it: the v1.1 and v1.2 OpenAPI routes set up before init. */
class DocumentedHarness extends RosterHarness {
  override async boot(env: Record<string, string> = {}): Promise<NestExpressApplication> {
    const config = loadConfig(
      OnerosterEnv,
      baseTestEnv({
        DATABASE_URL: this.db.url,
        JWKS_URL: this.issuer.jwksUrl,
        TOKEN_ISSUER: this.issuer.issuer,
        ONEROSTER_TENANT_CACHE_TTL_MS: '0',
        PUBLIC_BASE_URL: PUBLIC_BASE,
        ...env,
      }),
    );
    const ref = await Test.createTestingModule({ imports: [OnerosterModule.forRoot(config)] }).compile();
    const app = ref.createNestApplication<NestExpressApplication>({ bodyParser: false, bufferLogs: true });
    configureHttpApp(app, { bodyLimitBytes: config.BODY_LIMIT_BYTES, errorFilter: new ImsxErrorFilter() });
    setupOpenApi(app);
    setupOpenApiV1p2(app);
    await app.init();
    return app;
  }
}

/**
 * A comparable outline of a schema: types, formats, enums, GUIDRef types, required and closed
 * objects, array minimums; `$ref`s resolved. Descriptions and patterns other than `ext:` are left
 * out (they may be worded differently and still agree).
 */
function outline(schema: Json, resolve: (ref: string) => Json, depth = 0): string {
  if (schema.$ref) {
    const target = resolve(schema.$ref);
    const type = target.properties?.type?.enum;
    if (target.properties?.href && type?.length === 1) return `ref:${type[0]}`;
    return depth > 4 ? 'object' : outline(target, resolve, depth + 1);
  }
  if (schema.anyOf)
    return schema.anyOf
      .map((s: Json) => outline(s, resolve, depth))
      .sort()
      .join('|');
  if (schema.enum) return `enum(${[...schema.enum].sort().join(',')})`;
  if (schema.type === 'array')
    return `${outline(schema.items, resolve, depth)}[]${schema.minItems ? `min${schema.minItems}` : ''}`;
  if (schema.type === 'object') {
    const names = Object.keys(schema.properties ?? {}).sort();
    if (names.length === 0) return 'object';
    const props = names.map(
      (n) => `${n}${schema.required?.includes(n) ? '!' : ''}:${outline(schema.properties[n], resolve, depth + 1)}`,
    );
    return `{${props.join(',')}}${schema.additionalProperties === false ? '' : '+'}`;
  }
  if (schema.type === 'string')
    return /^\^ext:/.test(schema.pattern ?? '')
      ? 'ext'
      : ['date', 'date-time', 'uri'].includes(schema.format)
        ? `string:${schema.format}`
        : 'string';
  return schema.type;
}

const docResolver = (doc: Json) => (ref: string) => doc.components.schemas[ref.replace('#/components/schemas/', '')];
const officialResolver = (ref: string) => {
  const [, service, , name] = ref.split('/');
  return OFFICIAL[service as string].schemas[name as string];
};

/** The official class schema without `password` (never stored, so never in an answer). */
function officialClass(service: V1p2Service, name: string): Json {
  const { password: _password, ...properties } = OFFICIAL[service].schemas[`${name}DType`].properties;
  return { ...OFFICIAL[service].schemas[`${name}DType`], properties };
}

/** Short scope names (`roster.readonly`) of a document operation. */
const shortScopes = (o: DocOperation): string[] =>
  ((o.op['x-required-scopes'] ?? []) as string[]).map((u) => u.replace(V1P2_SCOPE_BASE, '')).sort();

describe('oneroster v1.2 OpenAPI documents', () => {
  const h = new DocumentedHarness();
  const docs = {} as Record<V1p2Service, Json>;
  const ops = {} as Record<V1p2Service, DocOperation[]>;

  beforeAll(async () => {
    await h.start();
    for (const s of V1P2_SERVICES) {
      docs[s] = (await h.get(`/docs/v1p2/${s}-json`).expect(200)).body;
      ops[s] = docOperations(docs[s]);
    }
  });
  afterAll(() => h.stop());

  /** The routes under a service root as `METHOD /shape` (relative), catch-alls left out. */
  const served = (s: V1p2Service) =>
    routeInventory(h.app)
      .filter((r) => r.method !== 'ALL' && r.path.startsWith(`${V1P2[s]}/`))
      .map((r) => ({ route: `${r.method} ${shape(r.path.slice(V1P2[s].length))}`, access: r.access }));

  it('lists exactly the routes served under each service root, relative to it (catch-alls left out)', () => {
    for (const s of V1P2_SERVICES) {
      expect(docs[s].servers).toEqual([{ url: `${PUBLIC_BASE}${V1P2[s]}` }]);
      expect({ s, routes: ops[s].map((o) => `${o.method} ${shape(o.openApiPath)}`).sort() }).toEqual({
        s,
        routes: served(s)
          .map((r) => r.route)
          .sort(),
      });
      expect(new Set(ops[s].map((o) => o.op.operationId)).size).toBe(ops[s].length);
    }
  });

  it('together list the 81 operations of the standard: same paths, operationIds, scopes, query parameters and wrapper keys', () => {
    const ours = V1P2_SERVICES.flatMap((s) =>
      ops[s].map((o) => `${s} ${o.method} ${o.openApiPath} ${o.op.operationId} ${shortScopes(o).join(' ')}`),
    );
    const official = V1P2_OPERATIONS.map(
      (o) => `${o.service} ${o.method} ${o.path} ${o.operationId} ${[...o.scopes].sort().join(' ')}`,
    );
    expect(official).toHaveLength(81);
    expect(ours.sort()).toEqual(official.sort());
    for (const o of V1P2_OPERATIONS) {
      const mine = ops[o.service].find((d) => d.op.operationId === o.operationId)!;
      const query = (mine.op.parameters ?? []).filter((p: Json) => p.in === 'query').map((p: Json) => p.name);
      const wrapper = (schema: Json) =>
        schema ? Object.keys((schema.$ref ? docResolver(docs[o.service])(schema.$ref) : schema).properties) : null;
      const officialWrapper = (name: string | null | undefined) =>
        name ? Object.keys(OFFICIAL[o.service].schemas[name].properties) : null;
      const ok = Object.keys(o.responses).find((s) => s.startsWith('2')) as string;
      expect({ op: o.operationId, query, ok: wrapper(responseSchema(mine, Number(ok))) }).toEqual({
        op: o.operationId,
        query: [...o.queryParameters],
        ok: officialWrapper(o.responses[ok]),
      });
      const body = mine.op.requestBody?.content?.['application/json']?.schema;
      expect({ op: o.operationId, body: wrapper(body) }).toEqual({
        op: o.operationId,
        body: officialWrapper(o.requestSchema),
      });
    }
  });

  it('names the scopes each operation accepts, as the guard enforces them', () => {
    for (const s of V1P2_SERVICES) {
      const access = new Map(served(s).map((r) => [r.route, r.access]));
      const listed = new Set<string>();
      for (const o of ops[s]) {
        const route = `${o.method} ${shape(o.openApiPath)}`;
        const uris = catalog.uris((access.get(route) as string).split(' ') as ScopeKey[]);
        uris.forEach((u) => listed.add(u));
        expect({ route, scopes: o.op['x-required-scopes'], security: o.op.security }).toEqual({
          route,
          scopes: uris,
          security: [{ bearer: [] }, { oauth2: uris }],
        });
      }
      const flow = docs[s].components.securitySchemes.oauth2.flows.clientCredentials;
      expect(flow.tokenUrl).toBe(`${h.issuer.issuer}/oauth/token`);
      expect(Object.keys(flow.scopes).sort()).toEqual([...listed].sort());
    }
  });

  it('declares the parameters, the success answer and the imsx_StatusInfo errors of every kind of operation', () => {
    for (const s of V1P2_SERVICES) for (const o of ops[s]) expectOperationShape(o);
  });

  it('describes each class as the official schema does (properties, required lists, GUIDRef types, enumerations, formats)', () => {
    const user = docs.rostering.components.schemas.User;
    expect(Object.keys(user.properties).sort()).toEqual(
      Object.keys(officialClass('rostering', 'User').properties).sort(),
    );
    expect(Object.keys(user.properties)).not.toContain('password');
    for (const s of V1P2_SERVICES) {
      for (const name of CLASSES[s]) {
        const mine = docs[s].components.schemas[name];
        const official = officialClass(s, name);
        expect({ name, required: [...(mine?.required ?? [])].sort() }).toEqual({
          name,
          required: [...official.required].sort(),
        });
        expect({ name, outline: mine && outline(mine, docResolver(docs[s])) }).toEqual({
          name,
          outline: outline(official, officialResolver),
        });
      }
      const status = docs[s].components.schemas.StatusInfo;
      const officialStatus = OFFICIAL[s].schemas.imsx_StatusInfoDType;
      expect({ keys: Object.keys(status.properties).sort(), required: status.required }).toEqual({
        keys: Object.keys(officialStatus.properties).sort(),
        required: officialStatus.required,
      });
    }
  });

  it('describes what the app answers: real answers of every operation validate against the documents', async () => {
    const { checked, problems } = await exerciseAll(h, ops, docs);
    expect(problems).toEqual([]);
    const all = V1P2_SERVICES.flatMap((s) => ops[s].map((o) => o.op.operationId as string));
    expect(all.filter((id) => !checked.has(id)).sort()).toEqual([]);
    expect(all.length).toBe(81);
  });

  it('serves the UIs at /docs/v1p2/<service> beside the v1.1 one', async () => {
    for (const path of ['/docs/', ...V1P2_SERVICES.map((s) => `/docs/v1p2/${s}`)]) {
      const ui = await h.get(path).redirects(1);
      expect({ path, status: ui.status, swagger: ui.text.includes('swagger') }).toEqual({
        path,
        status: 200,
        swagger: true,
      });
    }
    const v11 = (await h.get('/docs-json').expect(200)).body;
    expect(Object.keys(v11.paths).filter((p) => p.includes('/v1p2'))).toEqual([]);
  });
});

const STATUS_INFO = { $ref: '#/components/schemas/StatusInfo' };

/** What every operation of a kind declares (reference v1.2 §5, §6, §7). */
function expectOperationShape(o: DocOperation): void {
  const route = `${o.method} ${o.openApiPath}`;
  const params = o.op.parameters ?? [];
  const names = [...o.openApiPath.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
  expect({ route, path: params.filter((p: Json) => p.in === 'path').map((p: Json) => p.name) }).toEqual({
    route,
    path: names,
  });
  const query = params.filter((p: Json) => p.in === 'query').map((p: Json) => p.name);
  const ok = responseSchema(o, 200)?.$ref ?? '';
  // 404: unknown object, or unknown parent of a relationship read; never on a plain collection.
  const statuses = [401, 403, 404, 429, 500, 503].filter((s) => s !== 404 || o.method !== 'GET' || names.length > 0);
  expect({ route, errors: statuses.map((s) => responseSchema(o, s)) }).toEqual({
    route,
    errors: statuses.map(() => STATUS_INFO),
  });
  for (const s of [429, 503]) expect(o.op.responses[s].headers['Retry-After']).toBeDefined();
  if (o.method === 'GET') {
    expect(responseSchema(o, 400)).toEqual(STATUS_INFO);
    expect(o.op.requestBody).toBeUndefined();
    if (ok.endsWith('Set')) {
      expect({ route, query }).toEqual({ route, query: ['limit', 'offset', 'sort', 'orderBy', 'filter', 'fields'] });
      expect(params.find((p: Json) => p.name === 'limit').schema).toMatchObject({
        type: 'integer',
        minimum: 1,
        default: 100,
      });
      expect(Object.keys(o.op.responses[200].headers)).toEqual(expect.arrayContaining(['X-Total-Count', 'Link']));
    } else {
      expect({ route, ok, query }).toEqual({ route, ok: expect.stringMatching(/Single$/), query: ['fields'] });
    }
    return;
  }
  expect({ route, query }).toEqual({ route, query: [] });
  expect(responseSchema(o, 422)).toEqual(STATUS_INFO);
  const success = Object.keys(o.op.responses)
    .filter((s) => s.startsWith('2'))
    .sort();
  const body = o.op.requestBody?.content?.['application/json']?.schema?.$ref ?? null;
  if (o.method === 'PUT') {
    expect({ route, success, created: o.op.responses[201].content, body }).toEqual({
      route,
      success: ['200', '201'],
      created: undefined,
      body: expect.stringMatching(/Single$/),
    });
    expect(ok).toBe(body);
  } else if (o.method === 'POST') {
    expect({ route, success, pairs: responseSchema(o, 201), body }).toEqual({
      route,
      success: ['201'],
      pairs: { $ref: '#/components/schemas/GUIDPairSet' },
      body: expect.stringMatching(/Set$/),
    });
  } else {
    expect({ route, success, body, content: o.op.responses[204].content }).toEqual({
      route,
      success: ['204'],
      body: null,
      content: undefined,
    });
  }
}

/** A check of one request against the document of its service: documented status, valid body. */
interface Checker {
  (
    service: V1p2Service,
    operationId: string,
    method: V1p2Method,
    path: string,
    body?: unknown,
    token?: string,
  ): Promise<Json>;
}

/**
 * Checks answers against their service's document, collecting every problem (an undocumented
 * status, a body the schema refuses, a body where none is documented) instead of stopping at the first.
 */
function checker(
  h: RosterHarness,
  ops: Record<V1p2Service, DocOperation[]>,
  docs: Record<V1p2Service, Json>,
  token: string,
  report: { checked: Set<string>; problems: string[] },
): Checker {
  const validators = Object.fromEntries(V1P2_SERVICES.map((s) => [s, openApiValidators(docs[s])])) as Record<
    V1p2Service,
    ReturnType<typeof openApiValidators>
  >;
  return async (service, operationId, method, path, body, bearer = token) => {
    const o = ops[service].find((x) => x.op.operationId === operationId);
    if (!o) {
      report.problems.push(`${operationId}: not in the ${service} document`);
      return undefined;
    }
    const res = await v1p2(h, service, method, path, bearer, body);
    const at = `${operationId} ${method.toUpperCase()} ${path} → ${res.status}`;
    const schema = responseSchema(o, res.status);
    if (!Object.keys(o.op.responses).includes(String(res.status)))
      report.problems.push(`${at}: status not documented (${res.text.slice(0, 300)})`);
    else if (schema) {
      const validate = validators[service](schema);
      if (!validate(res.body)) report.problems.push(`${at}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
    } else if (res.text !== '') report.problems.push(`${at}: a body where none is documented`);
    if (res.status < 300) report.checked.add(operationId);
    return res.body;
  };
}

/** Every operation of the three documents, with data: the district fixture, gradebook objects written through v1.2, a resources package. */
async function exerciseAll(
  h: RosterHarness,
  ops: Record<V1p2Service, DocOperation[]>,
  docs: Record<V1p2Service, Json>,
): Promise<{ checked: Set<string>; problems: string[] }> {
  const t: TenantSetup = await h.tenant({ rootOrg: 'org-d1' });
  await loadFixture(h, t, districtFixture());
  const token = await h.token(t, Object.values(SCOPE_V1P2));
  const report = { checked: new Set<string>(), problems: [] as string[] };
  const check = checker(h, ops, docs, token, report);
  for (const c of COLLECTION_CASES) await check('rostering', c.op, 'get', c.path);
  for (const c of SINGLE_CASES) await check('rostering', c.op, 'get', `${c.path}/${encodeURIComponent(c.id)}`);
  // More than 1000 asked: a page of 1000, never a 400.
  await check('rostering', 'getAllUsers', 'get', 'users?limit=5000');
  await exerciseGradebook(check);
  await exerciseResources(h, check);
  await exerciseErrors(h, t, check);
  return report;
}

const ref = (sourcedId: string) => ({ sourcedId });
const OBJECTIVE = '8b1c6d5e-3f2a-4c1b-9d7e-6a5b4c3d2e1f';

/** Writes each gradebook class through v1.2 (create, replace, bulk create), reads it back every way, then deletes it. */
async function exerciseGradebook(check: Checker): Promise<void> {
  const g = (operationId: string, method: V1p2Method, path: string, body?: unknown) =>
    check('gradebook', operationId, method, path, body);
  const category = { title: 'Documented', weight: 0.25 };
  await g('putCategory', 'put', 'categories/cat-v12', { category: { sourcedId: 'cat-v12', ...category } });
  await g('putCategory', 'put', 'categories/cat-v12', {
    category: { sourcedId: 'cat-v12', ...category, title: 'Documented again' },
  });
  const scale = {
    sourcedId: 'ss-v12',
    title: 'Letters',
    type: 'letter',
    class: ref('cls-alg-1'),
    course: ref('crs-alg'),
    scoreScaleValue: [{ itemValueLHS: 'A', itemValueRHS: '90 - 100' }],
  };
  await g('putScoreScale', 'put', 'scoreScales/ss-v12', { scoreScale: scale });
  const lineItem = {
    title: 'Essay',
    assignDate: '2023-09-01T08:00:00.000Z',
    dueDate: '2023-09-08T08:00:00.000Z',
    class: ref('cls-alg-1'),
    school: ref('org-s1'),
    category: ref('cat-v12'),
    academicSession: ref('as-gp1'),
    scoreScale: ref('ss-v12'),
    learningObjectiveSet: [{ source: 'case', learningObjectiveIds: [OBJECTIVE] }],
  };
  await g('putLineItem', 'put', 'lineItems/li-v12', { lineItem: { sourcedId: 'li-v12', ...lineItem } });
  const result = {
    lineItem: ref('li-v12'),
    student: ref('usr-s-01'),
    scoreStatus: 'fully graded',
    score: 9,
    scoreDate: '2023-09-09',
    late: 'true',
    learningObjectiveSet: [
      { source: 'case', learningObjectiveResults: [{ learningObjectiveId: OBJECTIVE, score: 1 }] },
    ],
  };
  await g('putResult', 'put', 'results/r-v12', { result: { sourcedId: 'r-v12', ...result } });
  await g('putAssessmentLineItem', 'put', 'assessmentLineItems/ali-v12', {
    assessmentLineItem: {
      sourcedId: 'ali-v12',
      title: 'Unit test',
      class: ref('cls-alg-1'),
      scoreScale: ref('ss-v12'),
    },
  });
  const assessment = {
    assessmentLineItem: ref('ali-v12'),
    student: ref('usr-s-01'),
    score: 71,
    scorePercentile: 55,
    scoreDate: '2023-10-01',
    scoreStatus: 'ext:moderated',
  };
  await g('putAssessmentResult', 'put', 'assessmentResults/ar-v12', {
    assessmentResult: { sourcedId: 'ar-v12', ...assessment },
  });
  await g('postLineItemsForClass', 'post', 'classes/cls-alg-1/lineItems', {
    lineItems: [{ ...lineItem, sourcedId: 'tmp-li-1', title: 'Posted for the class' }],
  });
  await g('postLineItemsForSchool', 'post', 'schools/org-s1/lineItems', {
    lineItems: [{ ...lineItem, sourcedId: 'tmp-li-2', title: 'Posted for the school' }],
  });
  await g('postResultsForLineItem', 'post', 'lineItems/li-v12/results', {
    results: [{ ...result, sourcedId: 'tmp-r-1', student: ref('usr-s-03') }],
  });
  await g('postResultsForAcademicSessionForClass', 'post', 'classes/cls-alg-1/academicSessions/as-gp1/results', {
    results: [{ ...result, sourcedId: 'tmp-r-2', student: ref('usr-s-05') }],
  });
  await readGradebook(g);
  for (const [op, path] of [
    ['deleteAssessmentResult', 'assessmentResults/ar-v12'],
    ['deleteAssessmentLineItem', 'assessmentLineItems/ali-v12'],
    ['deleteResult', 'results/r-v12'],
    ['deleteLineItem', 'lineItems/li-v12'],
    ['deleteScoreScale', 'scoreScales/ss-v12'],
    ['deleteCategory', 'categories/cat-v12'],
  ] as const) {
    await g(op, 'delete', path);
  }
}

async function readGradebook(
  g: (operationId: string, method: V1p2Method, path: string, body?: unknown) => Promise<Json>,
): Promise<void> {
  const reads: Array<[string, string]> = [
    ['getAllCategories', 'categories'],
    ['getCategory', 'categories/cat-v12'],
    ['getCategoriesForClass', 'classes/cls-alg-1/categories'],
    ['getAllScoreScales', 'scoreScales'],
    ['getScoreScale', 'scoreScales/ss-v12'],
    ['getScoreScalesForClass', 'classes/cls-alg-1/scoreScales'],
    ['getScoreScalesForSchool', 'schools/org-s1/scoreScales'],
    ['getAllLineItems', 'lineItems'],
    ['getLineItem', 'lineItems/li-v12'],
    ['getLineItemsForClass', 'classes/cls-alg-1/lineItems'],
    ['getAllResults', 'results'],
    ['getResult', 'results/r-v12'],
    ['getResultsForClass', 'classes/cls-alg-1/results'],
    ['getResultsForLineItemForClass', 'classes/cls-alg-1/lineItems/li-v12/results'],
    ['getResultsForStudentForClass', 'classes/cls-alg-1/students/usr-s-01/results'],
    ['getAllAssessmentLineItems', 'assessmentLineItems'],
    ['getAssessmentLineItem', 'assessmentLineItems/ali-v12'],
    ['getAllAssessmentResults', 'assessmentResults'],
    ['getAssessmentResult', 'assessmentResults/ar-v12'],
  ];
  for (const [op, path] of reads) await g(op, 'get', path);
}

/** The resources reads over a package with resources linked to a class and a course. */
async function exerciseResources(h: RosterHarness, check: Checker): Promise<void> {
  const t = await h.tenant();
  const report = await importFolder(h, t.tenantId, writeFolder(fullPackage()));
  expect(report).toMatchObject({ status: 'succeeded', errors: [] });
  const token = await h.token(t, [SCOPE_V1P2.resource]);
  const r = (operationId: string, path: string) => check('resources', operationId, 'get', path, undefined, token);
  await r('getAllResources', 'resources');
  await r('getResource', 'resources/res-1');
  await r('getResourcesForClass', 'classes/cls-1/resources');
  await r('getResourcesForCourse', 'courses/crs-1/resources');
  await r('getResourcesForUser', 'users/usr-s1/resources');
}

/** Failures carry the bare imsx_StatusInfo the documents describe. */
async function exerciseErrors(h: RosterHarness, t: TenantSetup, check: Checker): Promise<void> {
  const readOnly = await h.token(t, [SCOPE_V1P2.rosterCore]);
  await check('rostering', 'getOrg', 'get', 'orgs/no-such-org');
  await check('rostering', 'getClassesForTerm', 'get', 'terms/NOPE/classes');
  await check('rostering', 'getAllUsers', 'get', `users?filter=${encodeURIComponent('nosuchfield=1')}`);
  await check('rostering', 'getAllUsers', 'get', 'users?fields=nosuchfield');
  await check('rostering', 'getAllUsers', 'get', 'users', undefined, 'not-a-token');
  await check('rostering', 'getStudentsForClass', 'get', 'classes/cls-alg-1/students', undefined, readOnly);
  await check('gradebook', 'getLineItemsForClass', 'get', 'classes/NOPE/lineItems');
  await check('gradebook', 'putLineItem', 'put', 'lineItems/li-bad', { lineItem: { title: 5 } });
  await check('gradebook', 'deleteCategory', 'delete', 'categories/no-such-category');
  await check('resources', 'getResource', 'get', 'resources/NOPE');
}
