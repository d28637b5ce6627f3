import { RosterHarness, SCOPE } from './support/harness';
import { SCOPE_V1P2, V1P2_HREF, expectV1p2Error, v1p2 } from './support/v1p2';
import { expectOasAnswer, idsOf, startV1p2World, type V1p2World } from './support/v1p2-gradebook';

interface Read {
  readonly op: string;
  readonly path: string;
  readonly key: string;
  /** Expected sourcedIds (collections, default order) or the one id (singles). */
  readonly ids: readonly string[];
}

/** The 19 reads of the v1.2 gradebook service (reference v1.2 §9.2) over the district fixture. */
const READS: readonly Read[] = [
  { op: 'getAllCategories', path: 'categories', key: 'categories', ids: ['cat-hw', 'cat-quiz'] },
  { op: 'getCategory', path: 'categories/cat-quiz', key: 'category', ids: ['cat-quiz'] },
  { op: 'getAllLineItems', path: 'lineItems', key: 'lineItems', ids: ['li-alg1-hw1', 'li-alg1-quiz1', 'li-alg2-hw1'] },
  { op: 'getLineItem', path: 'lineItems/li-alg1-hw1', key: 'lineItem', ids: ['li-alg1-hw1'] },
  {
    op: 'getAllResults',
    path: 'results',
    key: 'results',
    ids: ['r-alg2-s02', 'r-hw1-s01', 'r-hw1-s03', 'r-hw1-s05', 'r-quiz1-s01'],
  },
  { op: 'getResult', path: 'results/r-hw1-s01', key: 'result', ids: ['r-hw1-s01'] },
  { op: 'getAllScoreScales', path: 'scoreScales', key: 'scoreScales', ids: ['ss-letter', 'ss-pass'] },
  { op: 'getScoreScale', path: 'scoreScales/ss-letter', key: 'scoreScale', ids: ['ss-letter'] },
  {
    op: 'getAllAssessmentLineItems',
    path: 'assessmentLineItems',
    key: 'assessmentLineItems',
    ids: ['ali-unit1', 'ali-unit1-a'],
  },
  {
    op: 'getAssessmentLineItem',
    path: 'assessmentLineItems/ali-unit1-a',
    key: 'assessmentLineItem',
    ids: ['ali-unit1-a'],
  },
  {
    op: 'getAllAssessmentResults',
    path: 'assessmentResults',
    key: 'assessmentResults',
    ids: ['ar-a-s01', 'ar-unit1-s01', 'ar-unit1-s02'],
  },
  { op: 'getAssessmentResult', path: 'assessmentResults/ar-unit1-s01', key: 'assessmentResult', ids: ['ar-unit1-s01'] },
  { op: 'getCategoriesForClass', path: 'classes/cls-alg-1/categories', key: 'categories', ids: ['cat-hw', 'cat-quiz'] },
  {
    op: 'getLineItemsForClass',
    path: 'classes/cls-alg-1/lineItems',
    key: 'lineItems',
    ids: ['li-alg1-hw1', 'li-alg1-quiz1'],
  },
  {
    op: 'getResultsForClass',
    path: 'classes/cls-alg-1/results',
    key: 'results',
    ids: ['r-hw1-s01', 'r-hw1-s03', 'r-hw1-s05', 'r-quiz1-s01'],
  },
  {
    op: 'getResultsForLineItemForClass',
    path: 'classes/cls-alg-1/lineItems/li-alg1-hw1/results',
    key: 'results',
    ids: ['r-hw1-s01', 'r-hw1-s03', 'r-hw1-s05'],
  },
  {
    op: 'getResultsForStudentForClass',
    path: 'classes/cls-alg-1/students/usr-s-01/results',
    key: 'results',
    ids: ['r-hw1-s01', 'r-quiz1-s01'],
  },
  { op: 'getScoreScalesForClass', path: 'classes/cls-alg-1/scoreScales', key: 'scoreScales', ids: ['ss-letter'] },
  { op: 'getScoreScalesForSchool', path: 'schools/org-s2/scoreScales', key: 'scoreScales', ids: ['ss-pass'] },
];
const COLLECTIONS = READS.filter((r) => r.key.endsWith('s') && r.key !== 'class');
const SINGLES = READS.filter((r) => !COLLECTIONS.includes(r));
const ASSESSMENT = (r: Read) => r.op.includes('Assessment');
/** Reads whose scope is gradebook.readonly alone (the relationship reads). */
const RELATED = (r: Read) => r.path.startsWith('classes/') || r.path.startsWith('schools/');

/** Unknown, deleted and other tenant's ids (404 unknownobject), for singles and relationship parents. */
const NOT_FOUND: readonly string[] = [
  'categories/cat-old',
  'categories/cat-nope',
  'lineItems/li-alg1-old',
  'lineItems/li-bv-1',
  'results/r-quiz1-s03',
  'scoreScales/ss-old',
  'scoreScales/ss-nope',
  'assessmentLineItems/ali-old',
  'assessmentResults/ar-old',
  'assessmentResults/ar-nope',
  'classes/cls-nope/lineItems',
  'classes/bv-cls-1/lineItems',
  'classes/cls-nope/results',
  'classes/cls-nope/categories',
  'classes/cls-alg-1/lineItems/li-nope/results',
  'classes/cls-alg-1/students/usr-nope/results',
  'classes/bv-cls-1/scoreScales',
  'schools/org-b1/scoreScales',
  'schools/org-d1/scoreScales',
  'schools/org-nope/scoreScales',
];

describe('OneRoster 1.2 gradebook reads', () => {
  const h = new RosterHarness();
  let w: V1p2World;
  let token: string;

  beforeAll(async () => {
    w = await startV1p2World(h);
    token = await h.token(w.D, [SCOPE_V1P2.gradebook, SCOPE_V1P2.assessment]);
  }, 60_000);
  afterAll(() => h.stop());

  const get = (path: string, t: string = token) => v1p2(h, 'gradebook', 'get', path, t);

  it.each(READS)('$op answers its records in the 1.2 shape: $path', async ({ path, key, ids }) => {
    const res = await get(path).expect(200);
    expectOasAnswer(res, 'GET', path);
    expect(Object.keys(res.body)).toEqual([key]);
    const records = Array.isArray(res.body[key]) ? res.body[key] : [res.body[key]];
    expect(idsOf(records)).toEqual(ids);
    expect(res.headers['x-total-count']).toBe(String(ids.length));
    for (const r of records) expect(r.status).toBe('active');
  });

  it('writes the v1.2 fields as stored, GUIDRefs on the service roots, dates as ISO 8601', async () => {
    const li = (await get('lineItems/li-alg1-hw1').expect(200)).body.lineItem;
    expect(li).toMatchObject({
      title: 'Homework 1',
      assignDate: '2023-09-01T08:00:00.000Z',
      school: { href: `${V1P2_HREF.rostering}/orgs/org-s1`, sourcedId: 'org-s1', type: 'org' },
      category: { href: `${V1P2_HREF.gradebook}/categories/cat-hw`, sourcedId: 'cat-hw', type: 'category' },
      gradingPeriod: { sourcedId: 'as-gp1', type: 'academicSession' },
      academicSession: { sourcedId: 'as-t1', type: 'academicSession' },
      scoreScale: { href: `${V1P2_HREF.gradebook}/scoreScales/ss-letter`, type: 'scoreScale' },
      learningObjectiveSet: [{ source: 'case', learningObjectiveIds: ['6b9bca2a-8cd6-11e9-a8f4-0242ac120002'] }],
    });
    const r = (await get('results/r-hw1-s01').expect(200)).body.result;
    expect(r).toMatchObject({
      class: { sourcedId: 'cls-alg-1', type: 'class' },
      student: { type: 'user' },
      score: 9.5,
      scoreDate: '2023-09-09',
      late: 'true',
      missing: 'false',
    });
    expect(r).not.toHaveProperty('inProgress');
    expect((await get('results/r-hw1-s03').expect(200)).body.result).toMatchObject({
      textScore: 'B',
      scoreStatus: 'partially graded',
    });
    expect((await get('results/r-alg2-s02').expect(200)).body.result.scoreStatus).toBe('ext:regraded');
    const ss = (await get('scoreScales/ss-letter').expect(200)).body.scoreScale;
    expect(ss).toMatchObject({
      type: 'letter',
      course: { sourcedId: 'crs-alg', type: 'course' },
      class: { sourcedId: 'cls-alg-1' },
    });
    expect(ss.scoreScaleValue).toHaveLength(3);
    expect(
      (await get('assessmentLineItems/ali-unit1-a').expect(200)).body.assessmentLineItem.parentAssessmentLineItem,
    ).toMatchObject({ sourcedId: 'ali-unit1', type: 'assessmentLineItem' });
    expect((await get('assessmentResults/ar-unit1-s01').expect(200)).body.assessmentResult).toMatchObject({
      score: 88,
      scorePercentile: 75.5,
      scoreDate: '2023-10-02',
    });
    expect((await get('categories/cat-hw').expect(200)).body.category.weight).toBe(0.4);
  });

  it('answers 200 and empty for known parents without members, deleted line items and a line item of another class', async () => {
    for (const [path, key] of [
      ['classes/cls-bio-1/lineItems', 'lineItems'],
      ['classes/cls-old/categories', 'categories'],
      ['classes/cls-alg-1/lineItems/li-alg1-old/results', 'results'],
      ['classes/cls-alg-2/lineItems/li-alg1-hw1/results', 'results'],
      ['classes/cls-alg-1/students/usr-s-02/results', 'results'],
      ['schools/org-s1/scoreScales?filter=' + encodeURIComponent("title='none'"), 'scoreScales'],
    ] as const) {
      const res = await get(path).expect(200);
      expect(res.body).toEqual({ [key]: [] });
      expectOasAnswer(res, 'GET', path.split('?')[0] as string);
    }
  });

  it('answers a school score scale listing from the scales of its classes', async () => {
    expect(idsOf((await get('schools/org-s1/scoreScales').expect(200)).body.scoreScales)).toEqual(['ss-letter']);
  });

  it.each(COLLECTIONS)(
    'deleted objects show only to status and dateLastModified filters: $path',
    async ({ path, key, ids }) => {
      const q = async (filter: string) => {
        const res = await get(`${path}?filter=${encodeURIComponent(filter)}`).expect(200);
        expectOasAnswer(res, 'GET', path);
        return res.body[key] as Array<{ sourcedId: string; status: string }>;
      };
      expect(idsOf(await q("sourcedId!=''"))).toEqual(ids);
      const all = await q("dateLastModified>'2000-01-01'");
      expect(all.filter((r) => r.status === 'active').map((r) => r.sourcedId)).toEqual(ids);
      expect((await q("status='tobedeleted'")).every((r) => r.status === 'tobedeleted')).toBe(true);
    },
  );

  it('shows the tombstones of the deleted fixture objects to delta readers', async () => {
    const tomb = async (path: string, key: string) =>
      idsOf((await get(`${path}?filter=${encodeURIComponent("status='tobedeleted'")}`).expect(200)).body[key]);
    expect(await tomb('categories', 'categories')).toEqual(['cat-old']);
    expect(await tomb('lineItems', 'lineItems')).toEqual(['li-alg1-old']);
    expect(await tomb('results', 'results')).toEqual(['r-quiz1-s03']);
    expect(await tomb('scoreScales', 'scoreScales')).toEqual(['ss-old']);
    expect(await tomb('assessmentLineItems', 'assessmentLineItems')).toEqual(['ali-old']);
    expect(await tomb('assessmentResults', 'assessmentResults')).toEqual(['ar-old']);
  });

  it.each(READS)('trims $op with fields and still matches the schema (fields relaxed)', async ({ path, key }) => {
    const res = await get(`${path}?fields=sourcedId,status`).expect(200);
    expectOasAnswer(res, 'GET', path, { fields: ['sourcedId', 'status'] });
    const first = Array.isArray(res.body[key]) ? res.body[key][0] : res.body[key];
    expect(Object.keys(first).sort()).toEqual(['sourcedId', 'status']);
  });

  it.each(NOT_FOUND)('answers 404 unknownobject for %s', async (path) => {
    const res = await get(path);
    expectV1p2Error(res, 'gradebook', 404, 'unknownobject');
    expectOasAnswer(res, 'GET', path);
  });

  it("keeps tenants apart: the school tenant reads its own objects under the district's ids", async () => {
    const school = await h.token(w.S, [SCOPE_V1P2.gradebook, SCOPE_V1P2.assessment]);
    expect((await get('categories/cat-hw', school).expect(200)).body.category.title).toBe('Hausaufgaben');
    expect(idsOf((await get('scoreScales', school).expect(200)).body.scoreScales)).toEqual(['ss-letter']);
    expect(idsOf((await get('classes/bv-cls-1/lineItems/li-bv-1/results', school).expect(200)).body.results)).toEqual([
      'r-hw1-s01',
    ]);
    expect(idsOf((await get('schools/org-b1/scoreScales', school).expect(200)).body.scoreScales)).toEqual([
      'ss-letter',
    ]);
    expect(idsOf((await get('assessmentResults', school).expect(200)).body.assessmentResults)).toEqual([
      'ar-unit1-s01',
    ]);
  });

  describe('refusals', () => {
    it.each(READS)('$op: 401 without a token or with a forged one', async ({ path }) => {
      expectV1p2Error(await v1p2(h, 'gradebook', 'get', path), 'gradebook', 401, 'unauthorisedrequest');
      const forged = await h.issuer.attackTokens({
        scopes: [SCOPE_V1P2.gradebook, SCOPE_V1P2.assessment],
        tenantId: w.D.tenantId,
        deploymentId: w.D.deploymentId,
        sub: w.D.appId,
      });
      for (const name of ['expired', 'alg none', 'tampered payload', 'wrong aud']) {
        const res = await get(path, forged[name]);
        expectV1p2Error(res, 'gradebook', 401, 'unauthorisedrequest');
        expectOasAnswer(res, 'GET', path);
      }
    });

    it.each(READS)('$op: 403 forbidden with v1.1 scopes or v1.2 scopes that do not open it', async (read) => {
      const v1p1 = await h.token(w.D, [SCOPE.gradebook, SCOPE.gradebookPut, SCOPE.gradebookDelete, SCOPE.roster]);
      const others = ASSESSMENT(read)
        ? [SCOPE_V1P2.gradebook, SCOPE_V1P2.gradebookCore, SCOPE_V1P2.assessmentPut, SCOPE_V1P2.assessmentDelete]
        : [
            SCOPE_V1P2.assessment,
            SCOPE_V1P2.gradebookPut,
            SCOPE_V1P2.gradebookDelete,
            SCOPE_V1P2.gradebookPost,
            SCOPE_V1P2.roster,
            ...(RELATED(read) ? [SCOPE_V1P2.gradebookCore] : []),
          ];
      for (const t of [v1p1, await h.token(w.D, others)]) {
        const res = await get(read.path, t);
        expectV1p2Error(res, 'gradebook', 403, 'forbidden');
        expectOasAnswer(res, 'GET', read.path);
      }
    });

    it('opens the base reads to gradebook-core.readonly', async () => {
      const core = await h.token(w.D, [SCOPE_V1P2.gradebookCore]);
      for (const read of READS.filter((r) => !ASSESSMENT(r) && !RELATED(r))) await get(read.path, core).expect(200);
    });

    it.each(COLLECTIONS)('$op: 400 for a malformed query', async ({ path }) => {
      for (const query of [
        'limit=0',
        'offset=-1',
        `filter=${encodeURIComponent('nosuchfield=1')}`,
        `filter=${encodeURIComponent("title='x' AND")}`,
        'fields=nosuchfield',
      ]) {
        const res = await get(`${path}?${query}`);
        expect(res.status).toBe(400);
        expectV1p2Error(res, 'gradebook', 400, res.body.imsx_CodeMinor.imsx_codeMinorField[0].imsx_codeMinorFieldValue);
        expect(['invaliddata', 'invalid_filter_field', 'invalid_selection_field']).toContain(
          res.body.imsx_CodeMinor.imsx_codeMinorField[0].imsx_codeMinorFieldValue,
        );
        expectOasAnswer(res, 'GET', path);
      }
    });

    it.each(SINGLES)('$op: 400 for an unknown field selection', async ({ path }) => {
      const res = await get(`${path}?fields=nosuchfield`);
      expectV1p2Error(res, 'gradebook', 400, 'invalid_selection_field');
    });
  });
});
