import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { loadConfig } from '@edu/config';
import { ScopeCatalog, type ScopeKey } from '@edu/domain';
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
import { districtGradebook, writeGradebook } from './support/gradebook-fixture';
import { PREFIX, PUBLIC_BASE, RosterHarness, SCOPE, type TenantSetup } from './support/harness';
import { loadFixture } from './support/load';
import { COLLECTION_CASES, SINGLE_CASES } from './support/operations';
import { districtFixture } from './support/roster-fixture';

const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
});

/** Served by every process but not part of the API: left out of the document on purpose. */
const OPERATIONS_ENDPOINTS = ['GET /health/live', 'GET /health/ready', 'GET /metrics'];
/** The catch-all under the root answering 404/405 for everything no operation matched (`@All`): not an operation. */
const CATCH_ALL = (r: { method: string }) => r.method === 'ALL';
/** The v1.2 services are described by documents of their own (`openapi-v1p2.int-spec.ts`). */
const V1P2_ROUTE = (r: { path: string }) => r.path.includes('/v1p2');

/** The app as main.ts builds it: the OpenAPI routes set up before init. */
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
    await app.init();
    return app;
  }
}

/**
 * The OneRoster OpenAPI document (/docs-json), generated from the routes and the operation tables,
 * against the app: exactly its routes, each with its scopes, parameters, success and error
 * schemas; and real answers of every operation validate against those schemas.
 */
describe('oneroster OpenAPI document', () => {
  const h = new DocumentedHarness();
  let doc: ReturnType<typeof JSON.parse>;
  let ops: DocOperation[];
  let validator: ReturnType<typeof openApiValidators>;

  beforeAll(async () => {
    await h.start();
    doc = (await h.get('/docs-json').expect(200)).body;
    ops = docOperations(doc);
    validator = openApiValidators(doc);
  });
  afterAll(() => h.stop());

  it('lists exactly the routes the app serves (health, metrics and the catch-all left out)', () => {
    const served = routeInventory(h.app)
      .filter((r) => !CATCH_ALL(r) && !V1P2_ROUTE(r))
      .map((r) => `${r.method} ${r.path}`)
      .filter((r) => !OPERATIONS_ENDPOINTS.includes(r));
    expect(ops.map((o) => `${o.method} ${o.path}`).sort()).toEqual(served.sort());
    // The 61 operations of the standard and the operator's three import endpoints.
    expect(ops.filter((o) => o.path.startsWith(`${PREFIX}/`)).length).toBeGreaterThanOrEqual(61);
    expect(new Set(ops.map((o) => o.op.operationId)).size).toBe(ops.length);
    const users = ops.find((o) => o.path === `${PREFIX}/users`)!;
    expect(users.op).toMatchObject({
      operationId: 'getAllUsers',
      responses: {
        200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/UserCollection' } } } },
      },
    });
    expect(Object.keys(doc.components.schemas.User.properties)).not.toContain('password');
  });

  it('names the scopes every operation accepts, as the guard enforces them', () => {
    const access = new Map(routeInventory(h.app).map((r) => [`${r.method} ${r.path}`, r.access]));
    expect(doc.components.securitySchemes.oauth2.flows.clientCredentials.tokenUrl).toBe(
      `${h.issuer.issuer}/oauth/token`,
    );
    for (const o of ops) {
      const uris = catalog.uris((access.get(`${o.method} ${o.path}`) as string).split(' ') as ScopeKey[]);
      expect({ route: `${o.method} ${o.path}`, scopes: o.op['x-required-scopes'], security: o.op.security }).toEqual({
        route: `${o.method} ${o.path}`,
        scopes: uris,
        security: [{ bearer: [] }, { oauth2: uris }],
      });
    }
  });

  it('declares every path parameter, the query parameters of reads, a success schema and the imsx error schema', () => {
    for (const o of ops) {
      const route = `${o.method} ${o.path}`;
      const names = [...o.openApiPath.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const params = o.op.parameters ?? [];
      expect({
        route,
        path: params.filter((p: { in: string }) => p.in === 'path').map((p: { name: string }) => p.name),
      }).toEqual({ route, path: names });
      const ok = Object.keys(o.op.responses).filter((s) => s.startsWith('2'));
      expect({ route, ok: ok.length > 0 }).toEqual({ route, ok: true });
      for (const s of ok.filter((s) => s !== '204'))
        expect({ route, s, schema: !!responseSchema(o, Number(s)) }).toEqual({ route, s, schema: true });
      for (const s of [401, 403, 503])
        expect({ route, s, schema: responseSchema(o, s) }).toEqual({
          route,
          s,
          schema: { $ref: '#/components/schemas/StatusInfoSet' },
        });
      if (o.method === 'GET' && o.path.startsWith(PREFIX)) {
        const query = params.filter((p: { in: string }) => p.in === 'query').map((p: { name: string }) => p.name);
        const isCollection = !!responseSchema(o, 200)?.$ref?.endsWith('Collection');
        expect({ route, query }).toEqual({
          route,
          query: isCollection ? ['limit', 'offset', 'sort', 'orderBy', 'filter', 'fields'] : ['fields'],
        });
      }
    }
  });

  it('describes what the app really answers (real answers of every read and write validate against the document)', async () => {
    const t: TenantSetup = await h.tenant({ rootOrg: 'org-d1' });
    await loadFixture(h, t, districtFixture());
    const all = await h.otherApp(t);
    const token = await h.token(all, Object.values(SCOPE));
    await writeGradebook(h, districtGradebook(), token);
    const byId = new Map(ops.map((o) => [o.op.operationId as string, o]));
    const checked = new Map<string, number>();

    const check = async (
      operationId: string,
      method: 'get' | 'put' | 'delete',
      url: string,
      body?: object,
      bearer = token,
    ): Promise<ReturnType<typeof JSON.parse>> => {
      const o = byId.get(operationId);
      if (!o) throw new Error(`no operation ${operationId} in the document`);
      const req =
        method === 'put' ? h.put(url, body, bearer) : method === 'delete' ? h.delete(url, bearer) : h.get(url, bearer);
      const res = await req;
      const documented = Object.keys(o.op.responses).includes(String(res.status));
      expect({ operationId, url, status: res.status, documented }).toEqual({
        operationId,
        url,
        status: res.status,
        documented: true,
      });
      if (res.status !== 204) {
        const validate = validator(responseSchema(o, res.status));
        expect({ operationId, url, errors: validate(res.body) ? null : validate.errors?.slice(0, 3) }).toEqual({
          operationId,
          url,
          errors: null,
        });
      }
      if (res.status < 300) checked.set(operationId, res.status);
      return res.body;
    };

    for (const c of COLLECTION_CASES) await check(c.op, 'get', c.path);
    for (const c of SINGLE_CASES) await check(c.op, 'get', `${c.path}/${encodeURIComponent(c.id)}`);
    // Gradebook and resources reads: the collections, then one object of each.
    const lineItems = (await check('getAllLineItems', 'get', 'lineItems')).lineItems;
    const results = (await check('getAllResults', 'get', 'results')).results;
    const categories = (await check('getAllCategories', 'get', 'categories')).categories;
    const resources = (await check('getAllResources', 'get', 'resources')).resources;
    const li = lineItems[0];
    const live = (xs: { status: string; sourcedId: string }[]) => xs.find((x) => x.status === 'active')!.sourcedId;
    await check('getLineItem', 'get', `lineItems/${li.sourcedId}`);
    await check('getResult', 'get', `results/${live(results)}`);
    await check('getCategory', 'get', `categories/${live(categories)}`);
    if (resources.length) await check('getResource', 'get', `resources/${resources[0].sourcedId}`);
    const cls = li.class.sourcedId;
    await check('getLineItemsForClass', 'get', `classes/${cls}/lineItems`);
    await check('getResultsForClass', 'get', `classes/${cls}/results`);
    await check('getCategoriesForClass', 'get', `classes/${cls}/categories`);
    await check('getResultsForLineItemForClass', 'get', `classes/${cls}/lineItems/${li.sourcedId}/results`);
    await check(
      'getResultsForStudentForClass',
      'get',
      `classes/${cls}/students/${results[0].student.sourcedId}/results`,
    );
    await check('getResourcesForClass', 'get', `classes/${cls}/resources`);
    await check('getResourcesForCourse', 'get', 'courses/crs-alg/resources');
    // Writes: create, replace, delete.
    const body = { category: { title: 'Documented' } };
    await check('putCategory', 'put', 'categories/cat-openapi', body);
    await check('putCategory', 'put', 'categories/cat-openapi', { category: { title: 'Documented again' } });
    await check('deleteCategory', 'delete', 'categories/cat-openapi');
    // Failures carry the imsx schema.
    await check('getOrg', 'get', 'orgs/no-such-org');
    await check('getAllUsers', 'get', `users?filter=${encodeURIComponent('nosuchfield=1')}`);
    await check('getAllUsers', 'get', 'users', undefined, 'not-a-token');
    await check('putLineItem', 'put', `lineItems/${li.sourcedId}`, { lineItem: { title: 5 } });

    const reads = ops
      .filter((o) => o.method === 'GET' && o.path.startsWith(PREFIX))
      .map((o) => o.op.operationId as string);
    const writes = ops
      .filter((o) => o.method !== 'GET' && o.path.startsWith(PREFIX))
      .map((o) => o.op.operationId as string);
    expect(reads.filter((r) => !checked.has(r) && !(r === 'getResource' && !resources.length))).toEqual([]);
    expect(writes.filter((w) => !checked.has(w)).sort()).toEqual([
      'deleteLineItem',
      'deleteResult',
      'putLineItem',
      'putResult',
    ]);
  });

  it('serves the UI at /docs', async () => {
    const ui = await h.get('/docs/').redirects(1);
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger');
  });
});
