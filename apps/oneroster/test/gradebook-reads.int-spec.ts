import { GRADEBOOK_COLLECTIONS, GRADEBOOK_SINGLES } from '../src/gradebook/gradebook-operations';
import { HREF_ROOT, RosterHarness, SCOPE, type TenantSetup } from './support/harness';
import { districtGradebook, GradebookModel, schoolGradebook, writeGradebook } from './support/gradebook-fixture';
import { expectImsxError, expectImsxWarning, parseLinks } from './support/imsx';
import { loadFixture } from './support/load';
import { districtFixture, schoolFixture } from './support/roster-fixture';

const COMPACT_DATETIME = /^\d{8}T\d{6}\.\d{3}Z$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface Case {
  op: string;
  path: string;
  key: string;
  ids?: Record<string, string>;
}

/** The eight gradebook collection reads (seven of the standard, plus classes/{id}/categories), with parents that have members. */
const COLLECTIONS: Case[] = [
  { op: 'getAllCategories', path: 'categories', key: 'categories' },
  { op: 'getAllLineItems', path: 'lineItems', key: 'lineItems' },
  { op: 'getAllResults', path: 'results', key: 'results' },
  { op: 'getLineItemsForClass', path: 'classes/cls-alg-1/lineItems', key: 'lineItems', ids: { class_id: 'cls-alg-1' } },
  { op: 'getResultsForClass', path: 'classes/cls-alg-1/results', key: 'results', ids: { class_id: 'cls-alg-1' } },
  {
    op: 'getResultsForLineItemForClass',
    path: 'classes/cls-alg-1/lineItems/li-alg1-hw1/results',
    key: 'results',
    ids: { class_id: 'cls-alg-1', li_id: 'li-alg1-hw1' },
  },
  {
    op: 'getResultsForStudentForClass',
    path: 'classes/cls-alg-1/students/usr-s-03/results',
    key: 'results',
    ids: { class_id: 'cls-alg-1', student_id: 'usr-s-03' },
  },
  {
    op: 'getCategoriesForClass',
    path: 'classes/cls-alg-1/categories',
    key: 'categories',
    ids: { class_id: 'cls-alg-1' },
  },
];

/** Relationship reads whose parents are unknown, mismatched, another tenant's or deleted: 200 and empty. */
const EMPTY: Case[] = [
  { op: 'getLineItemsForClass', path: 'classes/NOPE/lineItems', key: 'lineItems' },
  { op: 'getLineItemsForClass', path: 'classes/bv-cls-1/lineItems', key: 'lineItems' },
  { op: 'getResultsForClass', path: 'classes/cls-bio-1/results', key: 'results' },
  { op: 'getResultsForLineItemForClass', path: 'classes/cls-alg-2/lineItems/li-alg1-hw1/results', key: 'results' },
  { op: 'getResultsForLineItemForClass', path: 'classes/bv-cls-1/lineItems/li-bv-1/results', key: 'results' },
  { op: 'getResultsForStudentForClass', path: 'classes/cls-alg-1/students/usr-s-02/results', key: 'results' },
  { op: 'getCategoriesForClass', path: 'classes/NOPE/categories', key: 'categories' },
  { op: 'getCategoriesForClass', path: 'classes/cls-old/categories', key: 'categories' },
  { op: 'getCategoriesForClass', path: 'classes/bv-cls-1/categories', key: 'categories' },
];

const SINGLES = [
  { op: 'getCategory', path: 'categories', key: 'category', id: 'cat-quiz' },
  { op: 'getLineItem', path: 'lineItems', key: 'lineItem', id: 'li-alg1-proj' },
  { op: 'getResult', path: 'results', key: 'result', id: 'r-quiz1-s03' },
];

const ALL_READ_PATHS = [...COLLECTIONS.map((c) => c.path), ...SINGLES.map((s) => `${s.path}/${s.id}`)];

describe('OneRoster gradebook reads', () => {
  const h = new RosterHarness();
  const model = new GradebookModel(districtGradebook());
  let D: TenantSetup;
  let S: TenantSetup;
  let token: string;

  beforeAll(async () => {
    await h.start();
    D = await h.tenant({ rootOrg: 'org-d1' });
    S = await h.tenant({ rootOrg: 'org-b1' });
    await loadFixture(h, D, districtFixture());
    await loadFixture(h, S, schoolFixture());
    await writeGradebook(h, districtGradebook(), await h.token(D, [SCOPE.gradebookPut, SCOPE.gradebookDelete]));
    await writeGradebook(h, schoolGradebook(), await h.token(S, [SCOPE.gradebookPut, SCOPE.gradebookDelete]));
    token = await h.token(D, [SCOPE.gradebook]);
  });

  afterAll(() => h.stop());

  const ids = (list: Array<{ sourcedId: string }>) => list.map((o) => o.sourcedId);

  describe('collections: exact records, wrapper key, totals', () => {
    it.each(COLLECTIONS)('$op $path', async ({ op, path, key, ids: pathIds }) => {
      const expected = model.expected(op, pathIds);
      expect(expected.length).toBeGreaterThan(1);
      const res = await h.get(path, token).expect(200);
      expect(Object.keys(res.body)).toEqual([key]);
      expect(ids(res.body[key])).toEqual(expected);
      expect(res.headers['x-total-count']).toBe(String(expected.length));
      expect(res.headers['x-count']).toBe(String(expected.length));
      expect(res.headers['content-type']).toMatch(/^application\/json; charset=utf-8/);
      for (const o of res.body[key]) expect(o.status).toBe('active');
    });

    it.each(COLLECTIONS)(
      'deleted objects vanish from plain reads and show to status and dateLastModified filters: $path',
      async ({ op, path, key, ids: pathIds }) => {
        const all = model.expected(op, pathIds, true);
        const deleted = all.filter((id) => model.isDeleted(id));
        const q = async (filter: string) =>
          ids((await h.get(`${path}?filter=${encodeURIComponent(filter)}`, token).expect(200)).body[key]);
        expect(await q("sourcedId!=''")).toEqual(model.expected(op, pathIds));
        expect(await q("dateLastModified>'2000-01-01'")).toEqual(all);
        expect(await q("status='tobedeleted'")).toEqual(deleted);
        expect(await q("status!='nothing'")).toEqual(all);
      },
    );

    it.each(EMPTY)('$op $path is 200 with an empty collection', async ({ path, key }) => {
      const res = await h.get(path, token).expect(200);
      expect(res.body).toEqual({ [key]: [] });
      expect(res.headers['x-total-count']).toBe('0');
    });
  });

  describe('every query parameter on every collection', () => {
    it.each(COLLECTIONS)('limit/offset pages and Link headers: $path', async ({ op, path, key, ids: pathIds }) => {
      const expected = model.expected(op, pathIds);
      const seen: string[] = [];
      let url: string | undefined = `${path}?limit=1&filter=${encodeURIComponent("sourcedId!=''")}`;
      let pages = 0;
      while (url) {
        const res = await h.get(url, token).expect(200);
        expect(res.headers['x-total-count']).toBe(String(expected.length));
        seen.push(...ids(res.body[key]));
        const links = parseLinks(res.headers['link']);
        expect(links.first?.searchParams.get('offset')).toBe('0');
        expect(links.last?.searchParams.get('offset')).toBe(String(expected.length - 1));
        expect(links.first?.searchParams.get('filter')).toBe("sourcedId!=''");
        expect(`${links.first?.origin}${links.first?.pathname}`).toBe(`${HREF_ROOT}/${path}`);
        if (pages > 0) expect(links.prev?.searchParams.get('offset')).toBe(String(pages - 1));
        else expect(links.prev).toBeUndefined();
        pages++;
        url = links.next ? `${links.next.pathname}${links.next.search}` : undefined;
      }
      expect(seen).toEqual(expected);
      expect(pages).toBe(expected.length);
      const past = await h.get(`${path}?offset=${expected.length + 5}`, token).expect(200);
      expect(past.body[key]).toEqual([]);
      expect(past.headers['x-total-count']).toBe(String(expected.length));
    });

    it.each(COLLECTIONS)('orderBy, data_field and sort: $path', async ({ op, path, key, ids: pathIds }) => {
      const expected = model.expected(op, pathIds);
      expect(ids((await h.get(`${path}?orderBy=desc`, token).expect(200)).body[key])).toEqual([...expected].reverse());
      for (const param of ['data_field', 'sort']) {
        const res = await h.get(`${path}?${param}=dateLastModified&orderBy=desc`, token).expect(200);
        const stamps: string[] = res.body[key].map((o: { dateLastModified: string }) => o.dateLastModified);
        expect(stamps).toEqual([...stamps].sort().reverse());
        expect(ids(res.body[key]).sort()).toEqual([...expected].sort());
      }
      const unknown = await h.get(`${path}?sort=nickname`, token).expect(200);
      expect(ids(unknown.body[key])).toEqual(expected);
      expectImsxWarning(unknown.body, 'invalid_sort_field', 'sort');
    });

    it.each(COLLECTIONS)('filter: $path', async ({ op, path, key, ids: pathIds }) => {
      const expected = model.expected(op, pathIds);
      const one = expected[1] as string;
      const byId = await h.get(`${path}?filter=${encodeURIComponent(`sourcedId='${one}'`)}`, token).expect(200);
      expect(ids(byId.body[key])).toEqual([one]);
      expect(byId.headers['x-total-count']).toBe('1');
      const active = await h.get(`${path}?filter=${encodeURIComponent("status='active'")}`, token).expect(200);
      expect(ids(active.body[key])).toEqual(expected);
      const none = await h.get(`${path}?filter=${encodeURIComponent("status='norecords'")}`, token).expect(200);
      expect(none.body).toEqual({ [key]: [] });
      expectImsxError(
        await h.get(`${path}?filter=${encodeURIComponent("nickname='x'")}`, token),
        400,
        'invalid_filter_field',
        'filter',
      );
      expectImsxError(
        await h.get(`${path}?filter=${encodeURIComponent("dateLastModified>'yesterday'")}`, token),
        400,
        'invalid_filter_field',
        'filter',
      );
    });

    it.each(COLLECTIONS)('fields: $path', async ({ op, path, key, ids: pathIds }) => {
      const res = await h.get(`${path}?fields=status,sourcedId,nickname`, token).expect(200);
      expect(ids(res.body[key])).toEqual(model.expected(op, pathIds));
      for (const o of res.body[key]) expect(Object.keys(o)).toEqual(['status', 'sourcedId']);
      expectImsxWarning(res.body, 'invalid_selection_field', 'fields');
    });

    it.each(COLLECTIONS)('limit and offset errors: $path', async ({ path }) => {
      for (const [query, param] of [
        ['limit=0', 'limit'],
        ['limit=1001', 'limit'],
        ['limit=abc', 'limit'],
        ['offset=-1', 'offset'],
        ['limit=5&limit=6', 'limit'],
      ]) {
        expectImsxError(await h.get(`${path}?${query}`, token), 400, 'invaliddata', param);
      }
    });

    it('filters gradebook fields by their types', async () => {
      const q = async (path: string, filter: string) =>
        ids(
          (await h.get(`${path}?filter=${encodeURIComponent(filter)}`, token).expect(200)).body[
            path.split('/').pop() as string
          ],
        );
      expect(await q('results', "score>'9.5'")).toEqual(['r-hw1-s03', 'r-quiz1-s01', 'r-quiz1-s03']);
      expect(await q('results', "score<='9.5' AND status='active'")).toEqual(['r-alg2-s02', 'r-hw1-s01']);
      expect(await q('results', "scoreStatus='EXEMPT'")).toEqual(['r-hw1-s05']);
      expect(await q('results', "scoreStatus~'graded'")).toEqual([
        'r-alg2-s02',
        'r-hw1-s01',
        'r-hw1-s03',
        'r-quiz1-s01',
        'r-quiz1-s03',
      ]);
      expect(await q('results', "student.sourcedId='usr-s-01'")).toEqual(['r-hw1-s01', 'r-quiz1-s01']);
      expect(await q('results', "lineItem='li-alg2-hw1'")).toEqual(['r-alg2-s02']);
      expect(await q('results', "comment~'credit'")).toEqual(['r-hw1-s03']);
      expect(await q('results', "scoreDate>'2023-09-10'")).toEqual(['r-quiz1-s01', 'r-quiz1-s03']);
      // A tombstone shows once the filter asks about status (delta readers learn of deletions).
      expect(await q('results', "scoreDate>'2023-09-10' AND status!='active'")).toEqual(['r-quiz1-s05']);
      expect(await q('lineItems', "category.sourcedId='cat-hw'")).toEqual(['li-alg1-hw1', 'li-alg2-hw1']);
      expect(await q('lineItems', "category.sourcedId!='cat-hw'")).toEqual(['li-alg1-proj', 'li-alg1-quiz1']);
      expect(await q('lineItems', "gradingPeriod.type='academicSession'")).toEqual(['li-alg1-hw1', 'li-alg2-hw1']);
      expect(await q('lineItems', "dueDate>'2023-09-09' AND class.sourcedId='cls-alg-1'")).toEqual([
        'li-alg1-proj',
        'li-alg1-quiz1',
      ]);
      expect(await q('lineItems', "resultValueMax>='20'")).toEqual(['li-alg1-quiz1']);
      expect(await q('lineItems', "title='homework 1'")).toEqual(['li-alg1-hw1', 'li-alg2-hw1']);
      expect(await q('categories', "title~'QUIZ'")).toEqual(['cat-quiz']);
      expectImsxError(
        await h.get(`results?filter=${encodeURIComponent("score~'9'")}`, token),
        400,
        'invalid_filter_field',
      );
      expectImsxError(
        await h.get(`results?filter=${encodeURIComponent("score>'nine'")}`, token),
        400,
        'invalid_filter_field',
      );
    });

    it('sorts by gradebook fields, absent values last', async () => {
      const res = await h.get('results?sort=score&filter=' + encodeURIComponent("status='active'"), token).expect(200);
      expect(res.body.results.map((r: { sourcedId: string; score?: number }) => [r.sourcedId, r.score])).toEqual([
        ['r-alg2-s02', 8],
        ['r-hw1-s01', 9.5],
        ['r-hw1-s03', 12],
        ['r-quiz1-s03', 15.5],
        ['r-quiz1-s01', 17],
        ['r-hw1-s05', undefined],
        ['r-hw1-s07', undefined],
      ]);
      const byDue = await h.get('lineItems?data_field=dueDate&orderBy=desc', token).expect(200);
      // Equal due dates: the sourcedId tie-breaker follows the direction.
      expect(ids(byDue.body.lineItems)).toEqual(['li-alg1-proj', 'li-alg1-quiz1', 'li-alg2-hw1', 'li-alg1-hw1']);
    });
  });

  describe('single objects', () => {
    it.each(SINGLES)('$op: key, total, fields, 404s', async ({ path, key, id }) => {
      const res = await h.get(`${path}/${id}`, token).expect(200);
      expect(Object.keys(res.body)).toEqual([key]);
      expect(res.body[key].sourcedId).toBe(id);
      expect(res.headers['x-total-count']).toBe('1');
      const slim = await h.get(`${path}/${id}?fields=sourcedId,title,score,nope&limit=abc`, token).expect(200);
      expect(Object.keys(slim.body[key]).every((k) => ['sourcedId', 'title', 'score'].includes(k))).toBe(true);
      expectImsxWarning(slim.body, 'invalid_selection_field', 'fields');
      expectImsxError(await h.get(`${path}/no-such-id`, token), 404, 'unknownobject');
    });

    it('renders a category, line items and results exactly', async () => {
      const cat = (await h.get('categories/cat-quiz', token).expect(200)).body.category;
      expect(cat).toEqual({
        sourcedId: 'cat-quiz',
        status: 'active',
        dateLastModified: expect.stringMatching(COMPACT_DATETIME),
        title: 'Quizzes',
      });

      const hw = (await h.get('lineItems/li-alg1-hw1', token).expect(200)).body.lineItem;
      expect(hw).toEqual({
        sourcedId: 'li-alg1-hw1',
        status: 'active',
        dateLastModified: expect.stringMatching(COMPACT_DATETIME),
        title: 'Homework 1',
        assignDate: '20230901T080000.000Z',
        dueDate: '20230908T235959.000Z',
        class: { href: `${HREF_ROOT}/classes/cls-alg-1`, sourcedId: 'cls-alg-1', type: 'class' },
        category: { href: `${HREF_ROOT}/categories/cat-hw`, sourcedId: 'cat-hw', type: 'category' },
        gradingPeriod: { href: `${HREF_ROOT}/academicSessions/as-gp1`, sourcedId: 'as-gp1', type: 'academicSession' },
        resultValueMin: 0,
        resultValueMax: 10,
      });
      // A line item as grade-sync clients write it: no category, no grading period, an offset in its dates.
      const proj = (await h.get('lineItems/li-alg1-proj', token).expect(200)).body.lineItem;
      expect(proj).toEqual({
        sourcedId: 'li-alg1-proj',
        status: 'active',
        dateLastModified: expect.stringMatching(COMPACT_DATETIME),
        title: 'Project',
        description: 'Bridge model',
        assignDate: '20231001T220000.000Z',
        dueDate: '20231130T070000.000Z',
        class: { href: `${HREF_ROOT}/classes/cls-alg-1`, sourcedId: 'cls-alg-1', type: 'class' },
      });

      const graded = (await h.get('results/r-hw1-s03', token).expect(200)).body.result;
      expect(graded).toEqual({
        sourcedId: 'r-hw1-s03',
        status: 'active',
        dateLastModified: expect.stringMatching(COMPACT_DATETIME),
        lineItem: { href: `${HREF_ROOT}/lineItems/li-alg1-hw1`, sourcedId: 'li-alg1-hw1', type: 'lineItem' },
        student: { href: `${HREF_ROOT}/users/usr-s-03`, sourcedId: 'usr-s-03', type: 'user' },
        scoreStatus: 'fully graded',
        score: 12,
        scoreDate: '20230909',
        comment: 'Extra credit',
      });
      const exempt = (await h.get('results/r-hw1-s05', token).expect(200)).body.result;
      expect(exempt).not.toHaveProperty('score');
      expect(exempt.scoreStatus).toBe('exempt');
    });

    it("answers 404 for deleted objects and for another tenant's ids", async () => {
      expectImsxError(await h.get('categories/cat-old', token), 404, 'unknownobject');
      expectImsxError(await h.get('results/r-quiz1-s05', token), 404, 'unknownobject');
      // The school tenant's objects, by id and through relationships.
      expectImsxError(await h.get('lineItems/li-bv-1', token), 404, 'unknownobject');
      const schoolToken = await h.token(S, [SCOPE.gradebook]);
      expect((await h.get('categories/cat-hw', schoolToken).expect(200)).body.category.title).toBe('Hausaufgaben');
      expect((await h.get('categories/cat-hw', token).expect(200)).body.category.title).toBe('Homework');
      expect((await h.get('results/r-hw1-s01', schoolToken).expect(200)).body.result.score).toBe(5);
      expectImsxError(await h.get('lineItems/li-alg1-hw1', schoolToken), 404, 'unknownobject');
      expect(ids((await h.get('results', schoolToken).expect(200)).body.results)).toEqual(['r-hw1-s01']);
      expect((await h.get('classes/cls-alg-1/results', schoolToken).expect(200)).body.results).toEqual([]);
    });

    it('prints ISO 8601 dates when the deployment says so', async () => {
      const iso = await h.otherApp(D, { onerosterDateFormat: 'iso8601' });
      const t = await h.token(iso, [SCOPE.gradebook]);
      const li = (await h.get('lineItems/li-alg1-hw1', t).expect(200)).body.lineItem;
      expect(li).toMatchObject({ assignDate: '2023-09-01T08:00:00.000Z', dueDate: '2023-09-08T23:59:59.000Z' });
      expect(li.dateLastModified).toMatch(ISO_DATETIME);
      expect((await h.get('results/r-hw1-s01', t).expect(200)).body.result.scoreDate).toBe('2023-09-09');
    });
  });

  describe('access', () => {
    it('covers the eleven gradebook reads the service serves', () => {
      const served = [...Object.keys(GRADEBOOK_COLLECTIONS), ...Object.keys(GRADEBOOK_SINGLES)].sort();
      expect(served).toHaveLength(11);
      expect([...new Set([...COLLECTIONS, ...SINGLES].map((c) => c.op))].sort()).toEqual(served);
    });

    it('refuses a request without a token (401) and every forged or expired token (401)', async () => {
      for (const path of ALL_READ_PATHS) expectImsxError(await h.get(path), 401, 'unauthorisedrequest');
      const attacks = await h.issuer.attackTokens({
        scopes: [SCOPE.gradebook],
        tenantId: D.tenantId,
        deploymentId: D.deploymentId,
        sub: D.appId,
      });
      for (const [name, bad] of Object.entries(attacks)) {
        for (const path of ['results', 'classes/cls-alg-1/results', 'lineItems/li-alg1-hw1']) {
          const res = await h.get(path, bad);
          if (res.status !== 401) throw new Error(`${name} on ${path}: ${res.status}`);
          expectImsxError(res, 401, 'unauthorisedrequest');
        }
      }
    });

    it('opens every read to gradebook.readonly and to gradebook.createput', async () => {
      for (const scope of [SCOPE.gradebook, SCOPE.gradebookPut]) {
        const t = await h.token(D, [scope]);
        for (const path of ALL_READ_PATHS) {
          const res = await h.get(path, t);
          if (res.status !== 200) throw new Error(`${scope} ${path}: ${res.status} ${res.text}`);
        }
      }
    });

    it('refuses tokens with other scopes only (403 forbidden)', async () => {
      for (const scopes of [[SCOPE.roster, SCOPE.core, SCOPE.demographics, SCOPE.resources], [SCOPE.gradebookDelete]]) {
        const t = await h.token(D, scopes);
        for (const path of ALL_READ_PATHS) expectImsxError(await h.get(path, t), 403, 'forbidden');
      }
    });

    it("refuses reads and writes on another region's host (403)", async () => {
      const sg = await h.boot({ SERVICE_REGION: 'SG' });
      try {
        const t = await h.token(D, [SCOPE.gradebook, SCOPE.gradebookPut, SCOPE.gradebookDelete], { region: 'SG' });
        expectImsxError(await h.get('classes/cls-alg-1/results', t, sg), 403, 'forbidden');
        const request = (await import('supertest')).default;
        const put = await request(sg.getHttpServer())
          .put('/ims/oneroster/v1p1/categories/cat-region')
          .set('Authorization', `Bearer ${t}`)
          .send({ category: { title: 'x' } });
        expectImsxError(put, 403, 'forbidden');
        expectImsxError(await h.get('categories/cat-region', token), 404, 'unknownobject');
      } finally {
        await sg.close();
      }
    });

    it('refuses developer tokens and tenants without the data-operations licence (403)', async () => {
      const dev = await h.issuer.mint({ scopes: [SCOPE.gradebook], developerId: D.tenantId });
      expectImsxError(await h.get('results', dev), 403, 'forbidden');
      const unlicensed = await h.tenant({ licences: [] });
      expectImsxError(await h.get('results', await h.token(unlicensed, [SCOPE.gradebook])), 403, 'forbidden');
    });
  });
});
