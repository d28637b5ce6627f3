import { fullPackage, setMode, writeFolder, type CsvPackage } from './support/csv-package';
import { HREF_ROOT, RosterHarness, SCOPE, type TenantSetup } from './support/harness';
import { expectImsxError, expectImsxWarning, parseLinks } from './support/imsx';
import { importFolder } from './support/load';

const COMPACT_DATETIME = /^\d{8}T\d{6}\.\d{3}Z$/;

interface Case {
  op: string;
  path: string;
  expected: string[];
}

/** The resources service (reference §6.3), fed by resources.csv, classResources.csv and courseResources.csv. */
describe('OneRoster resources reads', () => {
  const h = new RosterHarness();
  let T: TenantSetup;
  let other: TenantSetup;
  let token: string;

  const COLLECTIONS: Case[] = [
    { op: 'getAllResources', path: 'resources', expected: ['res-1', 'res-2', 'res-3'] },
    { op: 'getResourcesForClass', path: 'classes/cls-1/resources', expected: ['res-1', 'res-2'] },
    { op: 'getResourcesForCourse', path: 'courses/crs-1/resources', expected: ['res-1', 'res-3'] },
  ];

  beforeAll(async () => {
    await h.start();
    T = await h.tenant();
    other = await h.tenant();
    const p = fullPackage();
    p.files['resources.csv']!.rows.push({
      sourcedId: 'res-3',
      vendorResourceId: 'VR-300',
      title: 'Calculator',
      roles: 'student',
      importance: 'secondary',
    });
    p.files['courseResources.csv']!.rows.push(
      { sourcedId: 'kr-2', courseSourcedId: 'crs-1', resourceSourcedId: 'res-3' },
      { sourcedId: 'kr-3', courseSourcedId: 'crs-1', resourceSourcedId: 'res-1' },
    );
    const report = await importFolder(h, T.tenantId, writeFolder(p));
    expect(report).toMatchObject({ status: 'succeeded', errors: [] });
    expect(report.counts).toMatchObject({
      'resources.csv': { inserted: 3 },
      'classResources.csv': { inserted: 3 },
      'courseResources.csv': { inserted: 3 },
    });
    // Another tenant with the same ids but other content.
    const q: CsvPackage = fullPackage();
    q.files['resources.csv']!.rows = [
      { sourcedId: 'res-1', vendorResourceId: 'OTHER-1', title: 'Other tenant' },
      { sourcedId: 'res-other', vendorResourceId: 'OTHER-2' },
    ];
    q.files['classResources.csv']!.rows = [
      { sourcedId: 'cr-1', classSourcedId: 'cls-1', resourceSourcedId: 'res-other' },
    ];
    q.files['courseResources.csv']!.rows = [];
    setMode(q, 'results', 'absent');
    expect((await importFolder(h, other.tenantId, writeFolder(q))).status).toBe('succeeded');
    token = await h.token(T, [SCOPE.resources]);
  });

  afterAll(() => h.stop());

  const ids = (list: Array<{ sourcedId: string }>) => list.map((o) => o.sourcedId);

  it('renders a resource exactly, with roles and importance in canonical case', async () => {
    const res = await h.get('resources/res-1', token).expect(200);
    expect(res.headers['x-total-count']).toBe('1');
    expect(res.body).toEqual({
      resource: {
        sourcedId: 'res-1',
        status: 'active',
        dateLastModified: expect.stringMatching(COMPACT_DATETIME),
        title: 'Algebra e-book',
        roles: ['student', 'teacher'],
        importance: 'primary',
        vendorResourceId: 'VR-100',
        vendorId: 'ACME',
        applicationId: 'app-9',
      },
    });
    const bare = (await h.get('resources/res-2', token).expect(200)).body.resource;
    expect(Object.keys(bare)).toEqual(['sourcedId', 'status', 'dateLastModified', 'vendorResourceId']);
    const slim = await h.get('resources/res-1?fields=vendorResourceId,title,nope', token).expect(200);
    expect(slim.body.resource).toEqual({ vendorResourceId: 'VR-100', title: 'Algebra e-book' });
    expectImsxWarning(slim.body, 'invalid_selection_field', 'fields');
  });

  it.each([
    ['an unknown id', 'resources/nope'],
    ["another tenant's resource", 'resources/res-other'],
  ])('answers 404 for %s', async (_label, path) => {
    expectImsxError(await h.get(path, token), 404, 'unknownobject');
  });

  it('keeps tenants apart: the same ids, each tenant its own records', async () => {
    expect((await h.get('resources/res-1', token).expect(200)).body.resource.vendorResourceId).toBe('VR-100');
    const theirs = await h.token(other, [SCOPE.resources]);
    expect((await h.get('resources/res-1', theirs).expect(200)).body.resource.vendorResourceId).toBe('OTHER-1');
    expect(ids((await h.get('classes/cls-1/resources', theirs).expect(200)).body.resources)).toEqual(['res-other']);
  });

  it.each(COLLECTIONS)('$op: exact records, wrapper key, totals', async ({ path, expected }) => {
    const res = await h.get(path, token).expect(200);
    expect(Object.keys(res.body)).toEqual(['resources']);
    expect(ids(res.body.resources)).toEqual(expected);
    expect(res.headers['x-total-count']).toBe(String(expected.length));
  });

  it.each(COLLECTIONS)('$op: limit, offset, Link, orderBy, sort, filter, fields', async ({ path, expected }) => {
    const page = await h.get(`${path}?limit=1&offset=1`, token).expect(200);
    expect(ids(page.body.resources)).toEqual([expected[1]]);
    const links = parseLinks(page.headers['link']);
    expect(links.prev?.searchParams.get('offset')).toBe('0');
    expect(links.last?.searchParams.get('offset')).toBe(String(expected.length - 1));
    expect(`${links.first?.origin}${links.first?.pathname}`).toBe(`${HREF_ROOT}/${path}`);
    expect(ids((await h.get(`${path}?orderBy=desc`, token).expect(200)).body.resources)).toEqual(
      [...expected].reverse(),
    );
    const sorted = await h.get(`${path}?data_field=vendorResourceId&orderBy=desc`, token).expect(200);
    expect(sorted.body.resources.map((r: { vendorResourceId: string }) => r.vendorResourceId)).toEqual(
      sorted.body.resources
        .map((r: { vendorResourceId: string }) => r.vendorResourceId)
        .sort()
        .reverse(),
    );
    const filtered = await h
      .get(`${path}?filter=${encodeURIComponent(`sourcedId='${expected[0]}' OR roles='TEACHER'`)}`, token)
      .expect(200);
    expect(ids(filtered.body.resources)).toEqual([expected[0]]);
    const fields = await h.get(`${path}?fields=sourcedId`, token).expect(200);
    for (const r of fields.body.resources) expect(Object.keys(r)).toEqual(['sourcedId']);
    expectImsxError(
      await h.get(`${path}?filter=${encodeURIComponent("color='red'")}`, token),
      400,
      'invalid_filter_field',
      'filter',
    );
    expectImsxError(await h.get(`${path}?limit=1001`, token), 400, 'invaliddata', 'limit');
  });

  it('filters resources by their own fields', async () => {
    const q = async (filter: string) =>
      ids((await h.get(`resources?filter=${encodeURIComponent(filter)}`, token).expect(200)).body.resources);
    expect(await q("importance='secondary'")).toEqual(['res-3']);
    expect(await q("roles='student'")).toEqual(['res-1', 'res-3']);
    expect(await q("title~'BOOK'")).toEqual(['res-1']);
    expect(await q("vendorId='ACME'")).toEqual(['res-1']);
    expect(await q("importance='urgent'")).toEqual([]);
  });

  it('answers an empty collection for unknown, other-tenant or resource-less classes and courses', async () => {
    for (const path of [
      'classes/NOPE/resources',
      'courses/NOPE/resources',
      'courses/crs-2/resources',
      'classes/cls-2/resources?filter=' + encodeURIComponent("vendorResourceId='VR-100'"),
    ]) {
      const res = await h.get(path, token).expect(200);
      expect(res.body).toEqual({ resources: [] });
      expect(res.headers['x-total-count']).toBe('0');
    }
  });

  it('lists the resources of classes and courses as GUIDRefs on the class and the course', async () => {
    const rosterToken = await h.token(T, [SCOPE.roster]);
    const cls = (await h.get('classes/cls-1', rosterToken).expect(200)).body.class;
    expect(cls.resources).toEqual([
      { href: `${HREF_ROOT}/resources/res-1`, sourcedId: 'res-1', type: 'resource' },
      { href: `${HREF_ROOT}/resources/res-2`, sourcedId: 'res-2', type: 'resource' },
    ]);
    // Two link records naming res-1 for crs-1 give one reference.
    const course = (await h.get('courses/crs-1', rosterToken).expect(200)).body.course;
    expect(course.resources.map((r: { sourcedId: string }) => r.sourcedId)).toEqual(['res-1', 'res-3']);
    expect((await h.get('courses/crs-2', rosterToken).expect(200)).body.course).not.toHaveProperty('resources');
    const filtered = await h
      .get(`classes?filter=${encodeURIComponent("resources.sourcedId='res-2'")}`, rosterToken)
      .expect(200);
    expect(ids(filtered.body.classes)).toEqual(['cls-1', 'cls-2']);
  });

  describe('access', () => {
    const PATHS = ['resources', 'resources/res-1', 'classes/cls-1/resources', 'courses/crs-1/resources'];

    it('covers the four resources reads', () => {
      expect(PATHS).toHaveLength(4);
    });

    it('refuses no token and forged tokens with 401', async () => {
      for (const path of PATHS) expectImsxError(await h.get(path), 401, 'unauthorisedrequest');
      const attacks = await h.issuer.attackTokens({
        scopes: [SCOPE.resources],
        tenantId: T.tenantId,
        deploymentId: T.deploymentId,
        sub: T.appId,
      });
      for (const bad of Object.values(attacks))
        expectImsxError(await h.get('resources', bad), 401, 'unauthorisedrequest');
    });

    it('needs resource.readonly (403 forbidden with every other scope)', async () => {
      const others = await h.token(T, [
        SCOPE.roster,
        SCOPE.core,
        SCOPE.demographics,
        SCOPE.gradebook,
        SCOPE.gradebookPut,
        SCOPE.gradebookDelete,
      ]);
      for (const path of PATHS) {
        expectImsxError(await h.get(path, others), 403, 'forbidden');
        await h.get(path, token).expect(200);
      }
    });
  });
});
