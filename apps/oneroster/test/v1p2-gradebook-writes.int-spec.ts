import request from 'supertest';
import { HREF_ROOT, RosterHarness, SCOPE, type TenantSetup } from './support/harness';
import { expectImsxError } from './support/imsx';
import { SCOPE_V1P2, V1P2, V1P2_HREF, expectV1p2Error, v1p2 } from './support/v1p2';
import { expectV1p2 } from './support/v1p2/oas-schemas';
import {
  assessmentLineItemBody,
  assessmentResultBody,
  expectOasAnswer,
  idsOf,
  lineItemBody,
  ref,
  resultBody,
  rowCount,
  scoreScaleBody,
  startV1p2World,
  V1P2_READ_SCOPES,
  V1P2_WRITE_SCOPES,
  type V1p2World,
} from './support/v1p2-gradebook';

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface Kind {
  readonly collection: string;
  readonly key: string;
  readonly table: string;
  readonly body: (over?: Record<string, unknown>) => Record<string, Record<string, unknown>>;
  /** A change a replace makes. */
  readonly change: Record<string, unknown>;
}

/** The six classes v1.2 writes, with a valid body each over the district fixture. */
const KINDS: readonly Kind[] = [
  {
    collection: 'categories',
    key: 'category',
    table: 'gradebook_categories',
    body: (o = {}) => ({ category: { title: 'Labs', weight: 0.25, ...o } }),
    change: { title: 'Laboratory work' },
  },
  {
    collection: 'lineItems',
    key: 'lineItem',
    table: 'gradebook_line_items',
    body: lineItemBody,
    change: { title: 'Worksheet, amended' },
  },
  { collection: 'results', key: 'result', table: 'gradebook_results', body: resultBody, change: { score: 9 } },
  {
    collection: 'scoreScales',
    key: 'scoreScale',
    table: 'gradebook_score_scales',
    body: scoreScaleBody,
    change: { type: 'letters' },
  },
  {
    collection: 'assessmentLineItems',
    key: 'assessmentLineItem',
    table: 'gradebook_assessment_line_items',
    body: assessmentLineItemBody,
    change: { description: 'Calculators allowed' },
  },
  {
    collection: 'assessmentResults',
    key: 'assessmentResult',
    table: 'gradebook_assessment_results',
    body: assessmentResultBody,
    change: { scorePercentile: 50 },
  },
];

/** Bodies refused as a whole: 400 invaliddata (the body is not the wrapper object). */
const MALFORMED: Array<[string, string, unknown]> = [
  ['no wrapper key', 'categories', { title: 'x' }],
  ['the wrapper of another class', 'categories', { lineItem: { title: 'x' } }],
  ['a JSON array', 'categories', [{ category: { title: 'x' } }]],
  ['a wrapper that is not an object', 'lineItems', { lineItem: 'x' }],
  ['a Set wrapper on a PUT', 'results', { results: [resultBody().result] }],
];

/** Field problems: 422 invaliddata naming the field by its path. */
const INVALID: Array<[string, string, unknown, string]> = [
  ['an unknown property', 'categories', { category: { title: 'x', colour: 'teal' } }, 'category.colour'],
  ['a second top-level key', 'categories', { category: { title: 'x' }, statusInfoSet: [] }, 'statusInfoSet'],
  ['title missing', 'categories', { category: { weight: 1 } }, 'category.title'],
  ['weight a string', 'categories', { category: { title: 'x', weight: '1' } }, 'category.weight'],
  ['status tobedeleted', 'categories', { category: { title: 'x', status: 'tobedeleted' } }, 'category.status'],
  ['sourcedId differs from the path', 'lineItems', lineItemBody({ sourcedId: 'other' }), 'lineItem.sourcedId'],
  ['school missing', 'lineItems', lineItemBody({ school: undefined }), 'lineItem.school'],
  ['category missing', 'lineItems', lineItemBody({ category: undefined }), 'lineItem.category'],
  ['assignDate a date only', 'lineItems', lineItemBody({ assignDate: '2024-03-01' }), 'lineItem.assignDate'],
  [
    'a GUIDRef with another key',
    'lineItems',
    lineItemBody({ class: { sourcedId: 'cls-alg-1', title: 'x' } }),
    'lineItem.class.title',
  ],
  [
    'a GUIDRef type of v1.1',
    'lineItems',
    lineItemBody({ gradingPeriod: ref('as-gp1', 'gradingPeriod') }),
    'lineItem.gradingPeriod.type',
  ],
  [
    'a GUIDRef sourcedId a number',
    'lineItems',
    lineItemBody({ category: { sourcedId: 7 } }),
    'lineItem.category.sourcedId',
  ],
  ['resultValueMin above resultValueMax', 'lineItems', lineItemBody({ resultValueMin: 11 }), 'lineItem.resultValueMin'],
  [
    'a learning objective source in capitals',
    'lineItems',
    lineItemBody({ learningObjectiveSet: [{ source: 'CASE', learningObjectiveIds: ['x'] }] }),
    'lineItem.learningObjectiveSet[0].source',
  ],
  [
    'no learning objective ids',
    'lineItems',
    lineItemBody({ learningObjectiveSet: [{ source: 'case', learningObjectiveIds: [] }] }),
    'lineItem.learningObjectiveSet[0].learningObjectiveIds',
  ],
  ['neither score nor textScore', 'results', resultBody({ score: undefined }), 'result.score'],
  ['score a string', 'results', resultBody({ score: '9' }), 'result.score'],
  ['scoreStatus not listed', 'results', resultBody({ scoreStatus: 'graded' }), 'result.scoreStatus'],
  ['scoreDate garbage', 'results', resultBody({ scoreDate: '09/03/2024' }), 'result.scoreDate'],
  ['a flag that is not true or false', 'results', resultBody({ late: 'yes' }), 'result.late'],
  [
    'a learning objective result without its id',
    'results',
    resultBody({ learningObjectiveSet: [{ source: 'case', learningObjectiveResults: [{ score: 1 }] }] }),
    'result.learningObjectiveSet[0].learningObjectiveResults[0].learningObjectiveId',
  ],
  ['no score scale values', 'scoreScales', scoreScaleBody({ scoreScaleValue: [] }), 'scoreScale.scoreScaleValue'],
  [
    'a score scale value with another key',
    'scoreScales',
    scoreScaleBody({ scoreScaleValue: [{ itemValueLHS: 'A', itemValueRHS: '4', note: 'x' }] }),
    'scoreScale.scoreScaleValue[0].note',
  ],
  ['score scale type missing', 'scoreScales', scoreScaleBody({ type: undefined }), 'scoreScale.type'],
  ['score scale class missing', 'scoreScales', scoreScaleBody({ class: undefined }), 'scoreScale.class'],
  ['assessment title blank', 'assessmentLineItems', assessmentLineItemBody({ title: ' ' }), 'assessmentLineItem.title'],
  [
    'assessment result without scoreDate',
    'assessmentResults',
    assessmentResultBody({ scoreDate: undefined }),
    'assessmentResult.scoreDate',
  ],
  [
    'assessment result percentile a string',
    'assessmentResults',
    assessmentResultBody({ scorePercentile: '50%' }),
    'assessmentResult.scorePercentile',
  ],
];

/** References that are not active objects of the tenant, or break a rule: 422 naming the field. */
const BAD_REFERENCES: Array<[string, string, unknown, string]> = [
  ['an unknown class', 'lineItems', lineItemBody({ class: ref('cls-nope') }), 'lineItem.class'],
  ["another tenant's class", 'lineItems', lineItemBody({ class: ref('bv-cls-1') }), 'lineItem.class'],
  ['a tombstoned class', 'lineItems', lineItemBody({ class: ref('cls-old') }), 'lineItem.class'],
  ['a school that is not the class school', 'lineItems', lineItemBody({ school: ref('org-s2') }), 'lineItem.school'],
  ['a deleted category', 'lineItems', lineItemBody({ category: ref('cat-old') }), 'lineItem.category'],
  [
    'an unknown academic session',
    'lineItems',
    lineItemBody({ academicSession: ref('as-nope') }),
    'lineItem.academicSession',
  ],
  ['a deleted score scale', 'lineItems', lineItemBody({ scoreScale: ref('ss-old') }), 'lineItem.scoreScale'],
  ['a deleted line item', 'results', resultBody({ lineItem: ref('li-alg1-old') }), 'result.lineItem'],
  ['a student of another class', 'results', resultBody({ student: ref('usr-s-02') }), 'result.student'],
  ['a teacher as the student', 'results', resultBody({ student: ref('usr-t-01') }), 'result.student'],
  ['a class other than the line item class', 'results', resultBody({ class: ref('cls-alg-2') }), 'result.class'],
  ['an unknown score scale', 'results', resultBody({ scoreScale: ref('ss-nope') }), 'result.scoreScale'],
  ['an unknown course', 'scoreScales', scoreScaleBody({ course: ref('crs-nope') }), 'scoreScale.course'],
  [
    'an unknown parent',
    'assessmentLineItems',
    assessmentLineItemBody({ parentAssessmentLineItem: ref('ali-nope') }),
    'assessmentLineItem.parentAssessmentLineItem',
  ],
  [
    'a deleted parent',
    'assessmentLineItems',
    assessmentLineItemBody({ parentAssessmentLineItem: ref('ali-old') }),
    'assessmentLineItem.parentAssessmentLineItem',
  ],
  [
    'itself as the parent',
    'assessmentLineItems',
    assessmentLineItemBody({ parentAssessmentLineItem: ref('ref-new') }),
    'assessmentLineItem.parentAssessmentLineItem',
  ],
  [
    'a deleted assessment line item',
    'assessmentResults',
    assessmentResultBody({ assessmentLineItem: ref('ali-old') }),
    'assessmentResult.assessmentLineItem',
  ],
  [
    'a parent as the student',
    'assessmentResults',
    assessmentResultBody({ student: ref('usr-p-01') }),
    'assessmentResult.student',
  ],
  [
    'a tombstoned student',
    'assessmentResults',
    assessmentResultBody({ student: ref('usr-s-24') }),
    'assessmentResult.student',
  ],
];

const TABLE: Record<string, string> = Object.fromEntries(KINDS.map((k) => [k.collection, k.table]));

describe('OneRoster 1.2 gradebook writes', () => {
  const h = new RosterHarness();
  let w: V1p2World;
  let D: TenantSetup;
  let all: string;
  let other: TenantSetup;
  let otherAll: string;

  beforeAll(async () => {
    w = await startV1p2World(h);
    ({ D, all } = w);
    other = await h.otherApp(D);
    otherAll = await h.token(other, [...V1P2_READ_SCOPES, ...V1P2_WRITE_SCOPES]);
  }, 60_000);
  afterAll(() => h.stop());

  const put = (path: string, body: unknown, token = all) => v1p2(h, 'gradebook', 'put', path, token, body);
  const del = (path: string, token = all) => v1p2(h, 'gradebook', 'delete', path, token);
  const get = (path: string, token = all) => v1p2(h, 'gradebook', 'get', path, token);
  const read = async (path: string) => {
    const res = await get(path);
    return res.status === 200 ? (Object.values(res.body)[0] as Record<string, unknown>) : undefined;
  };

  describe('PUT creates (201, no body), replaces (200, the stored object); DELETE 204', () => {
    it.each(KINDS)('$collection', async ({ collection, key, body, change }) => {
      const path = `${collection}/new-${key}`;
      const created = await put(path, body()).expect(201);
      expectOasAnswer(created, 'PUT', path);
      expect(created.text).toBe('');
      expect(created.headers['location']).toBe(`${V1P2_HREF.gradebook}/${path}`);
      const stored = await get(path).expect(200);
      expectOasAnswer(stored, 'GET', path);
      expect(stored.body[key]).toMatchObject({
        sourcedId: `new-${key}`,
        status: 'active',
        dateLastModified: expect.stringMatching(ISO_DATETIME),
      });

      const replaced = await put(path, { [key]: { ...body()[key], ...change } }).expect(200);
      expect(replaced.headers['location']).toBeUndefined();
      expectOasAnswer(replaced, 'PUT', path);
      expectV1p2('gradebook', `Single${key.charAt(0).toUpperCase()}${key.slice(1)}DType`, replaced.body);
      expect(Object.keys(replaced.body)).toEqual([key]);
      expect(replaced.body[key]).toMatchObject(change);
      expect(replaced.body[key].dateLastModified > stored.body[key].dateLastModified).toBe(true);
      expect(await read(path)).toEqual(replaced.body[key]);
      // The same content again: 200, nothing changes.
      expect((await put(path, { [key]: { ...body()[key], ...change } }).expect(200)).body).toEqual(replaced.body);

      const deleted = await del(path).expect(204);
      expectOasAnswer(deleted, 'DELETE', path);
      expectV1p2Error(await get(path), 'gradebook', 404, 'unknownobject');
      const again = await del(path);
      expectV1p2Error(again, 'gradebook', 404, 'unknownobject');
      expectOasAnswer(again, 'DELETE', path);
      // Its owner may create it again.
      await put(path, body()).expect(201);
    });

    it("answers 404 on DELETE for unknown ids and another tenant's, and keeps tenants apart on PUT", async () => {
      for (const path of [
        'lineItems/li-bv-1',
        'lineItems/li-nope',
        'categories/cat-nope',
        'scoreScales/ss-nope',
        'assessmentLineItems/ali-nope',
        'assessmentResults/ar-nope',
        `results/${'x'.repeat(300)}`,
      ]) {
        expectV1p2Error(await del(path), 'gradebook', 404, 'unknownobject');
      }
      // The school tenant's ali-unit1 is untouched by the district's replace of its own.
      await put(
        'assessmentLineItems/ali-unit1',
        assessmentLineItemBody({ title: 'District unit 1', class: ref('cls-alg-1') }),
      ).expect(200);
      expect((await get('assessmentLineItems/ali-unit1', w.schoolAll).expect(200)).body.assessmentLineItem.title).toBe(
        'Unit test',
      );
    });
  });

  describe("Google Classroom's bodies (reference v1.2 §11) are accepted and stored canonically", () => {
    it('takes a line item without status or dateLastModified, {sourcedId}-only refs, and a 112-character title', async () => {
      const body = (title: string) => ({
        lineItem: {
          sourcedId: 'gc-li',
          title,
          description: 'x',
          resultValueMin: 0,
          resultValueMax: 100,
          assignDate: '2025-09-01T10:00:00.123Z',
          dueDate: '2025-09-01T10:01:00.123Z',
          class: ref('cls-alg-1'),
          category: ref('cat-hw'),
          school: ref('org-s1'),
        },
      });
      await put('lineItems/gc-li', body('New test item')).expect(201);
      const long = `[Amended] Real${'l'.repeat(80)}y Long Google Test Line Item Title`;
      expect(long.length).toBeGreaterThanOrEqual(112);
      const edited = await put('lineItems/gc-li', body(long)).expect(200);
      expect(edited.body.lineItem).toMatchObject({
        title: long,
        status: 'active',
        assignDate: '2025-09-01T10:00:00.123Z',
      });
    });

    it('takes a result with a DateTime scoreDate, an empty comment, extra credit, exempt, and extension statuses', async () => {
      const body = (over: Record<string, unknown>) => ({
        result: {
          sourcedId: 'gc-r',
          score: 80,
          comment: '',
          scoreStatus: 'fully graded',
          scoreDate: '2025-09-02T10:00:00.000Z',
          lineItem: ref('gc-li'),
          student: ref('usr-s-01'),
          ...over,
        },
      });
      await put('results/gc-r', body({})).expect(201);
      expect(await read('results/gc-r')).toMatchObject({
        scoreDate: '2025-09-02',
        score: 80,
        class: { sourcedId: 'cls-alg-1' },
      });
      expect(await read('results/gc-r')).not.toHaveProperty('comment');
      expect((await put('results/gc-r', body({ score: 300 })).expect(200)).body.result.score).toBe(300);
      expect((await put('results/gc-r', body({ scoreStatus: 'exempt' })).expect(200)).body.result.scoreStatus).toBe(
        'exempt',
      );
      expect(
        (
          await put(
            'results/gc-r',
            body({ scoreStatus: 'ext:late-penalty', inProgress: 'false', incomplete: true }),
          ).expect(200)
        ).body.result,
      ).toMatchObject({
        scoreStatus: 'ext:late-penalty',
        inProgress: 'false',
        incomplete: 'true',
      });
      // A result naming its line item's class is fine; the class is never stored, always derived.
      await put('results/gc-r', body({ class: ref('cls-alg-1', 'class') })).expect(200);
    });
  });

  describe('refused bodies: nothing written', () => {
    it.each(MALFORMED)('400 invaliddata for %s', async (_label, collection, body) => {
      const before = await rowCount(h, TABLE[collection] as string, D.tenantId);
      const res = await put(`${collection}/bad-new`, body);
      expectV1p2Error(res, 'gradebook', 400, 'invaliddata');
      expect(await rowCount(h, TABLE[collection] as string, D.tenantId)).toBe(before);
    });

    it('400 for malformed JSON and bodies that are not JSON objects', async () => {
      const raw = (text: string, type = 'application/json') =>
        request(h.app.getHttpServer())
          .put(`${V1P2.gradebook}/categories/raw-1`)
          .set('Authorization', `Bearer ${all}`)
          .set('Content-Type', type)
          .send(text);
      for (const res of [
        await raw('{"category": {"title": "x"'),
        await raw('null'),
        await raw('"category"'),
        await raw('title=x', 'application/x-www-form-urlencoded'),
      ]) {
        expectV1p2Error(res, 'gradebook', 400, 'invaliddata');
      }
      expect(await read('categories/raw-1')).toBeUndefined();
    });

    it.each(INVALID)('422 invaliddata for %s, naming the field', async (_label, collection, body, field) => {
      const before = await rowCount(h, TABLE[collection] as string, D.tenantId);
      const res = await put(`${collection}/bad-new`, body);
      expectV1p2Error(res, 'gradebook', 422, 'invaliddata', field);
      expectOasAnswer(res, 'PUT', `${collection}/bad-new`);
      expect(await rowCount(h, TABLE[collection] as string, D.tenantId)).toBe(before);
    });

    it.each(BAD_REFERENCES)('422 invaliddata for %s', async (_label, collection, body, field) => {
      expectV1p2Error(await put(`${collection}/ref-new`, body), 'gradebook', 422, 'invaliddata', field);
      expect(await read(`${collection}/ref-new`)).toBeUndefined();
    });

    it('refuses a parent that would close a cycle, and leaves the replaced object as it was', async () => {
      await put('assessmentLineItems/ali-x', assessmentLineItemBody({ title: 'X' })).expect(201);
      await put(
        'assessmentLineItems/ali-y',
        assessmentLineItemBody({ title: 'Y', parentAssessmentLineItem: ref('ali-x') }),
      ).expect(201);
      await put(
        'assessmentLineItems/ali-z',
        assessmentLineItemBody({ title: 'Z', parentAssessmentLineItem: ref('ali-y') }),
      ).expect(201);
      const before = await read('assessmentLineItems/ali-x');
      const res = await put(
        'assessmentLineItems/ali-x',
        assessmentLineItemBody({ title: 'X2', parentAssessmentLineItem: ref('ali-z') }),
      );
      expectV1p2Error(res, 'gradebook', 422, 'invaliddata', 'assessmentLineItem.parentAssessmentLineItem');
      expect(await read('assessmentLineItems/ali-x')).toEqual(before);
    });

    it('400 invaliddata for a sourcedId in the path that cannot be one', async () => {
      expectV1p2Error(
        await put(`categories/${'x'.repeat(257)}`, { category: { title: 'x' } }),
        'gradebook',
        400,
        'invaliddata',
        'sourcedId',
      );
    });
  });

  describe('ownership, tombstones, cascades', () => {
    it("lets another app read but not replace or delete an app's objects (403 forbidden)", async () => {
      for (const [path, body] of [
        ['lineItems/li-alg1-hw1', lineItemBody()],
        ['scoreScales/ss-letter', scoreScaleBody()],
        ['assessmentResults/ar-unit1-s01', assessmentResultBody()],
      ] as const) {
        const before = await read(path);
        expect((await get(path, otherAll).expect(200)).body).toBeDefined();
        const replaced = await put(path, body, otherAll);
        expectV1p2Error(replaced, 'gradebook', 403, 'forbidden');
        expect(replaced.body.imsx_description).toMatch(/another app/);
        expectV1p2Error(await del(path, otherAll), 'gradebook', 403, 'forbidden');
        expect(await read(path)).toEqual(before);
      }
    });

    it("deleting a line item tombstones its results, other apps' included; delta readers see them", async () => {
      await put('lineItems/li-cascade', lineItemBody()).expect(201);
      await put('results/r-cascade-1', resultBody({ lineItem: ref('li-cascade'), student: ref('usr-s-01') })).expect(
        201,
      );
      await put(
        'results/r-cascade-2',
        resultBody({ lineItem: ref('li-cascade'), student: ref('usr-s-03') }),
        otherAll,
      ).expect(201);
      const since = (await read('results/r-cascade-2'))?.dateLastModified as string;
      await del('lineItems/li-cascade').expect(204);
      for (const id of ['r-cascade-1', 'r-cascade-2'])
        expectV1p2Error(await get(`results/${id}`), 'gradebook', 404, 'unknownobject');
      expect(idsOf((await get('classes/cls-alg-1/lineItems/li-cascade/results').expect(200)).body.results)).toEqual([]);
      const delta = await get(
        `classes/cls-alg-1/results?filter=${encodeURIComponent(`dateLastModified>'${since}'`)}`,
      ).expect(200);
      expect(
        delta.body.results
          .filter((r: { status: string }) => r.status === 'tobedeleted')
          .map((r: { sourcedId: string }) => r.sourcedId),
      ).toEqual(['r-cascade-1', 'r-cascade-2']);
      expect((await read('results/r-hw1-s01'))?.status).toBe('active');
    });

    it('deleting an assessment line item tombstones its assessment results', async () => {
      await put('assessmentLineItems/ali-cascade', assessmentLineItemBody()).expect(201);
      await put(
        'assessmentResults/ar-cascade',
        assessmentResultBody({ assessmentLineItem: ref('ali-cascade') }),
        otherAll,
      ).expect(201);
      await del('assessmentLineItems/ali-cascade').expect(204);
      expectV1p2Error(await get('assessmentResults/ar-cascade'), 'gradebook', 404, 'unknownobject');
      const tomb = await get(`assessmentResults?filter=${encodeURIComponent("status='tobedeleted'")}`).expect(200);
      expect(idsOf(tomb.body.assessmentResults)).toContain('ar-cascade');
      expectOasAnswer(tomb, 'GET', 'assessmentResults');
    });

    it("stores a score scale with its class's school, so the school lists it", async () => {
      await put('scoreScales/ss-eng', scoreScaleBody({ class: ref('cls-hr-7') })).expect(201);
      expect(idsOf((await get('schools/org-s2/scoreScales').expect(200)).body.scoreScales)).toEqual([
        'ss-eng',
        'ss-pass',
      ]);
    });
  });

  describe('v1.1 and v1.2 share the objects', () => {
    let v11: string;
    beforeAll(async () => {
      v11 = await h.token(D, [SCOPE.gradebook, SCOPE.gradebookPut, SCOPE.gradebookDelete]);
    });

    it('reads through v1.2 what v1.1 wrote, with the school and class it derives', async () => {
      await h
        .put(
          'lineItems/x11-li',
          {
            lineItem: {
              title: 'From 1.1',
              assignDate: '2024-03-01T08:00:00Z',
              dueDate: '2024-03-08T08:00:00Z',
              class: { sourcedId: 'cls-alg-1' },
              category: { sourcedId: 'cat-hw' },
            },
          },
          v11,
        )
        .expect(201);
      await h
        .put(
          'results/x11-r',
          {
            result: {
              lineItem: { sourcedId: 'x11-li' },
              student: { sourcedId: 'usr-s-07' },
              scoreStatus: 'fully graded',
              score: 4,
              scoreDate: '2024-03-09',
            },
          },
          v11,
        )
        .expect(201);
      const li = await get('lineItems/x11-li').expect(200);
      expectOasAnswer(li, 'GET', 'lineItems/x11-li');
      expect(li.body.lineItem.school).toEqual({
        href: `${V1P2_HREF.rostering}/orgs/org-s1`,
        sourcedId: 'org-s1',
        type: 'org',
      });
      const r = await get('results/x11-r').expect(200);
      expectOasAnswer(r, 'GET', 'results/x11-r');
      expect(r.body.result.class.sourcedId).toBe('cls-alg-1');
      // ... and v1.2 may replace it (its owner is the same app).
      expect(
        (
          await put(
            'results/x11-r',
            resultBody({ lineItem: ref('x11-li'), student: ref('usr-s-07'), textScore: 'C' }),
          ).expect(200)
        ).body.result.textScore,
      ).toBe('C');
    });

    it('reads through v1.1 what v1.2 wrote, in the v1.1 shape', async () => {
      const li = (await h.get('lineItems/li-alg1-hw1', v11).expect(200)).body.lineItem;
      expect(li).toMatchObject({
        title: 'Homework 1',
        class: { href: `${HREF_ROOT}/classes/cls-alg-1` },
        gradingPeriod: { sourcedId: 'as-gp1' },
      });
      for (const field of ['school', 'academicSession', 'scoreScale', 'learningObjectiveSet'])
        expect(li).not.toHaveProperty(field);
      const r = (await h.get('results/r-hw1-s01', v11).expect(200)).body.result;
      expect(r).toMatchObject({ score: 9.5, scoreDate: '20230909' });
      for (const field of ['class', 'scoreScale', 'late', 'learningObjectiveSet']) expect(r).not.toHaveProperty(field);
      expect((await h.get('categories/cat-hw', v11).expect(200)).body.category).not.toHaveProperty('weight');
      // v1.2-only classes are not v1.1 routes.
      expectImsxError(await h.get('scoreScales', v11), 404, 'unknownobject');
    });

    it('a v1.1 replace writes only v1.1 columns; a v1.2 replace writes them all', async () => {
      await put(
        'lineItems/x12-li',
        lineItemBody({
          academicSession: ref('as-t1'),
          scoreScale: ref('ss-letter'),
          learningObjectiveSet: [{ source: 'unknown', learningObjectiveIds: ['u-1'] }],
        }),
      ).expect(201);
      await put(
        'results/x12-r',
        resultBody({ lineItem: ref('x12-li'), textScore: 'A', late: 'true', scoreScale: ref('ss-letter') }),
      ).expect(201);
      await h
        .put(
          'lineItems/x12-li',
          {
            lineItem: {
              title: 'Renamed in 1.1',
              assignDate: '2024-03-01T08:00:00Z',
              dueDate: '2024-03-08T08:00:00Z',
              class: { sourcedId: 'cls-alg-1' },
            },
          },
          v11,
        )
        .expect(200);
      await h
        .put(
          'results/x12-r',
          {
            result: {
              lineItem: { sourcedId: 'x12-li' },
              student: { sourcedId: 'usr-s-09' },
              scoreStatus: 'fully graded',
              score: 3,
              scoreDate: '2024-03-09',
            },
          },
          v11,
        )
        .expect(200);
      const li = await read('lineItems/x12-li');
      expect(li).toMatchObject({
        title: 'Renamed in 1.1',
        school: { sourcedId: 'org-s1' },
        academicSession: { sourcedId: 'as-t1' },
        scoreScale: { sourcedId: 'ss-letter' },
        learningObjectiveSet: [{ source: 'unknown' }],
      });
      expect(li).not.toHaveProperty('category');
      expect(await read('results/x12-r')).toMatchObject({
        score: 3,
        textScore: 'A',
        late: 'true',
        scoreScale: { sourcedId: 'ss-letter' },
      });

      const replaced = await put('lineItems/x12-li', lineItemBody({ title: 'Back in 1.2' })).expect(200);
      for (const field of ['academicSession', 'scoreScale', 'learningObjectiveSet'])
        expect(replaced.body.lineItem).not.toHaveProperty(field);
      const r = await put('results/x12-r', resultBody({ lineItem: ref('x12-li') })).expect(200);
      for (const field of ['textScore', 'late', 'scoreScale']) expect(r.body.result).not.toHaveProperty(field);
    });
  });

  describe('scopes', () => {
    it('needs the write scope of its family: gradebook.createput/delete or assessment.createput/delete (403 forbidden)', async () => {
      const gradebookOnly = await h.token(D, [
        SCOPE_V1P2.gradebookPut,
        SCOPE_V1P2.gradebookDelete,
        SCOPE_V1P2.gradebook,
      ]);
      const assessmentOnly = await h.token(D, [
        SCOPE_V1P2.assessmentPut,
        SCOPE_V1P2.assessmentDelete,
        SCOPE_V1P2.assessment,
      ]);
      const postOnly = await h.token(D, [SCOPE_V1P2.gradebookPost]);
      for (const k of KINDS) {
        const assessment = k.collection.startsWith('assessment');
        const wrong = assessment ? gradebookOnly : assessmentOnly;
        for (const t of [wrong, postOnly]) {
          const res = await put(`${k.collection}/scope-new`, k.body(), t);
          expectV1p2Error(res, 'gradebook', 403, 'forbidden');
          expectOasAnswer(res, 'PUT', `${k.collection}/scope-new`);
          expectV1p2Error(await del(`${k.collection}/scope-new`, t), 'gradebook', 403, 'forbidden');
        }
      }
      expect(await read('categories/scope-new')).toBeUndefined();
    });

    it('refuses v1.1 scopes on v1.2 writes and v1.2 scopes on v1.1 writes', async () => {
      const v11 = await h.token(D, [SCOPE.gradebookPut, SCOPE.gradebookDelete]);
      expectV1p2Error(
        await put('categories/cross-scope', { category: { title: 'x' } }, v11),
        'gradebook',
        403,
        'forbidden',
      );
      expectV1p2Error(await del('categories/cat-quiz', v11), 'gradebook', 403, 'forbidden');
      expectImsxError(await h.put('categories/cross-scope', { category: { title: 'x' } }, all), 403, 'forbidden');
      expectImsxError(await h.delete('categories/cat-quiz', all), 403, 'forbidden');
      expectImsxError(await h.get('categories', all), 403, 'forbidden');
      expect(await read('categories/cross-scope')).toBeUndefined();
    });
  });
});
