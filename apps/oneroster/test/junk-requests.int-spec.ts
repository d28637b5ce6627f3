import request from 'supertest';
import type { DataSource } from 'typeorm';
import { ScopeCatalog, type ScopeKey } from '@edu/domain';
import {
  concretePath,
  jsonAtShapeLimits,
  jsonShapeAttacks,
  routeInventory,
  writeRoutes,
  type RouteEntry,
} from '@edu/testing';
import { RosterHarness, type TenantSetup } from './support/harness';

const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
});

/** Row counts of every table, to prove a refused request wrote nothing. */
async function rowCounts(ds: DataSource): Promise<Record<string, number>> {
  const tables: { name: string }[] = await ds.query(
    `SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
  );
  const out: Record<string, number> = {};
  for (const { name } of tables) out[name] = Number((await ds.query(`SELECT count(*) AS n FROM "${name}"`))[0].n);
  return out;
}

const isOneRoster = (r: RouteEntry) => r.path.startsWith('/ims/oneroster/') && r.method !== 'ALL';
const isV1p2 = (r: RouteEntry) => r.path.includes('/v1p2');

/** The error envelope of the route's version: `statusInfoSet` (1.1) or one bare imsx_StatusInfo (1.2). */
function envelopeProblem(r: RouteEntry, body: Record<string, unknown>): string | undefined {
  if (isV1p2(r))
    return typeof body.imsx_codeMajor === 'string' && !('statusInfoSet' in body)
      ? undefined
      : 'not a bare v1.2 imsx_StatusInfo';
  return Array.isArray(body.statusInfoSet) ? undefined : 'not a v1.1 statusInfoSet';
}

/**
 * Every OneRoster route of both versions (from the route inventory, so routes added later are
 * swept too) against junk: undecodable, NUL-holding and huge path ids, junk query parameters,
 * and write bodies that are not JSON, are nested too deep or too wide, or are JSON of the wrong
 * shape. Never a 500 or a stack trace, always the route version's error envelope, nothing written.
 */
describe('OneRoster: junk in paths, parameters and bodies on every route of both versions', () => {
  const h = new RosterHarness();
  let t: TenantSetup;

  beforeAll(async () => {
    await h.start();
    t = await h.tenant({ rootOrg: 'org-x' });
  });
  afterAll(() => h.stop());

  /** A token holding exactly the route's scopes, so the request reaches its parameters and body. */
  const send = async (r: RouteEntry, path: string, body?: string, type = 'application/json') => {
    const token = await h.token(
      t,
      r.access.split(' ').map((k) => catalog.uri(k as ScopeKey)),
    );
    const method = r.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    let req = request(h.app.getHttpServer())[method](path).set('Authorization', `Bearer ${token}`);
    if (body !== undefined) req = req.set('Content-Type', type).send(body);
    return req;
  };

  const sweep = async (
    routes: RouteEntry[],
    path: (r: RouteEntry) => string,
    body?: string,
    type?: string,
  ): Promise<string[]> => {
    const wrong: string[] = [];
    for (const r of routes) {
      const res = await send(r, path(r), body, type);
      const problem =
        res.status >= 500 ? `status ${res.status}` : res.status >= 400 ? envelopeProblem(r, res.body) : undefined;
      if (problem || /\bat .+\.(ts|js):\d+/.test(res.text))
        wrong.push(`${r.method} ${r.path}: ${problem ?? 'stack trace'} ${res.text.slice(0, 160)}`);
    }
    return wrong;
  };

  it('covers the read and write routes of both versions', () => {
    const routes = routeInventory(h.app).filter(isOneRoster);
    expect(routes.filter((r) => !isV1p2(r)).length).toBeGreaterThanOrEqual(62);
    expect(routes.filter(isV1p2).length).toBeGreaterThanOrEqual(63);
  });

  it.each([
    ['a NUL in every path id', (p: string) => p.replace(/:([A-Za-z_]+)/g, 'a%00b')],
    ['undecodable UTF-8 in every path id', (p: string) => p.replace(/:([A-Za-z_]+)/g, '%E0%A4%A')],
    // Longer ids still get an answer, but four Link URLs repeating them outgrow a client's 16 KB header limit.
    ['1,000-character path ids', (p: string) => p.replace(/:([A-Za-z_]+)/g, 'x'.repeat(1000))],
    ['unknown path ids', concretePath],
  ])('GET routes never fail on %s', async (_name, toPath) => {
    const before = await rowCounts(h.ds);
    const gets = routeInventory(h.app).filter((r) => isOneRoster(r) && r.method === 'GET');
    expect(await sweep(gets, (r) => toPath(r.path))).toEqual([]);
    expect(await rowCounts(h.ds)).toEqual(before);
  });

  it.each([
    'offset=99999999999999999999',
    'limit=1e3',
    'filter=%00',
    `filter=${encodeURIComponent("sourcedId='\u0000'")}`,
    `filter=${encodeURIComponent("sourcedId='a' AND (")}`,
    'fields=%00,sourcedId',
    'sort=%00&orderBy=%FF',
    'filter[a]=b&limit[]=3',
  ])('GET routes never fail on the query %s', async (query) => {
    const gets = routeInventory(h.app).filter((r) => isOneRoster(r) && r.method === 'GET');
    expect(await sweep(gets, (r) => `${concretePath(r.path)}?${query}`)).toEqual([]);
  });

  it.each([
    ['text that is not JSON', '{"lineItem": ', 'application/json'],
    ['a JSON array', '[1,2,3]', 'application/json'],
    ['JSON null', 'null', 'application/json'],
    [
      'a wrapper holding a string',
      '{"lineItem":"x","result":"x","category":"x","scoreScale":"x","lineItems":"x","results":"x"}',
      'application/json',
    ],
    [
      'wrong types everywhere',
      '{"lineItem":{"title":7,"class":[]},"result":{"score":"high"},"category":{"title":{}},"lineItems":[{"title":1}],"results":[null]}',
      'application/json',
    ],
    ['a form body', 'a=1&b=2', 'application/x-www-form-urlencoded'],
    ['a NUL in a title', '{"lineItem":{"title":"a\\u0000b"},"category":{"title":"a\\u0000b"}}', 'application/json'],
  ])('write routes refuse %s without writing anything', async (_name, body, type) => {
    const before = await rowCounts(h.ds);
    expect(await sweep(writeRoutes(h.app).filter(isOneRoster), (r) => concretePath(r.path), body, type)).toEqual([]);
    expect(await rowCounts(h.ds)).toEqual(before);
  });

  it.each(jsonShapeAttacks().map((a) => [a.name, a.body] as const))(
    'write routes refuse %s with a 400, never a 500',
    async (_name, body) => {
      const before = await rowCounts(h.ds);
      const routes = writeRoutes(h.app).filter((r) => isOneRoster(r) && r.method !== 'DELETE');
      expect(await sweep(routes, (r) => concretePath(r.path), body)).toEqual([]);
      for (const r of routes)
        expect({ route: `${r.method} ${r.path}`, status: (await send(r, concretePath(r.path), body)).status }).toEqual({
          route: `${r.method} ${r.path}`,
          status: 400,
        });
      expect(await rowCounts(h.ds)).toEqual(before);
    },
  );

  it('lets bodies at the shape limits through to validation, which refuses them without a 500', async () => {
    const before = await rowCounts(h.ds);
    for (const { body } of jsonAtShapeLimits()) {
      expect(
        await sweep(
          writeRoutes(h.app).filter((r) => isOneRoster(r) && r.method !== 'DELETE'),
          (r) => concretePath(r.path),
          body,
        ),
      ).toEqual([]);
    }
    expect(await rowCounts(h.ds)).toEqual(before);
  });
});
