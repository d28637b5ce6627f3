import request from 'supertest';
import { RosterHarness, SCOPE } from './support/harness';
import { SCOPE_V1P2, V1P2, expectV1p2Error, v1p2 } from './support/v1p2';
import {
  expectOasAnswer,
  idsOf,
  lineItemBody,
  ref,
  resultBody,
  rowCount,
  startV1p2World,
  type V1p2World,
} from './support/v1p2-gradebook';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A line item record of a POST to a class (no class: the path supplies it; the school stays required, as in a PUT). */
const lineItem = (sourcedId: string, over: Record<string, unknown> = {}) => {
  const { class: _c, ...rest } = lineItemBody().lineItem;
  return { sourcedId, ...rest, title: `Posted ${sourcedId}`, ...over };
};
/** A line item record of a POST to a school (no school: the path supplies it). */
const schoolLineItem = (sourcedId: string, over: Record<string, unknown> = {}) => {
  const { school: _s, ...rest } = lineItem(sourcedId);
  return { ...rest, ...over };
};
/** A result record of a POST (no line item: the path may supply it). */
const result = (sourcedId: string, student: string, over: Record<string, unknown> = {}) => {
  const { lineItem: _l, ...rest } = resultBody().result;
  return { sourcedId, ...rest, student: ref(student), ...over };
};

describe('OneRoster 1.2 gradebook bulk POSTs', () => {
  const h = new RosterHarness();
  let w: V1p2World;
  let token: string;

  beforeAll(async () => {
    w = await startV1p2World(h);
    token = await h.token(w.D, [SCOPE_V1P2.gradebookPost, SCOPE_V1P2.gradebook]);
  }, 60_000);
  afterAll(() => h.stop());

  const post = (path: string, body: unknown, t = token) => v1p2(h, 'gradebook', 'post', path, t, body);
  const lineItems = () => rowCount(h, 'gradebook_line_items', w.D.tenantId);
  const results = () => rowCount(h, 'gradebook_results', w.D.tenantId);

  /** 201 with one pair per record in request order, allocated ids UUIDs; returns supplied → allocated. */
  async function created(
    path: string,
    body: { [key: string]: Array<{ sourcedId: string } & Record<string, unknown>> },
  ): Promise<Map<string, string>> {
    const res = await post(path, body);
    if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${res.text}`);
    expectOasAnswer(res, 'POST', path);
    const records = Object.values(body)[0] as Array<{ sourcedId: string }>;
    expect(res.body.sourcedIdPairs.map((p: { suppliedSourcedId: string }) => p.suppliedSourcedId)).toEqual(
      idsOf(records),
    );
    for (const p of res.body.sourcedIdPairs) expect(p.allocatedSourcedId).toMatch(UUID);
    return new Map(
      res.body.sourcedIdPairs.map((p: { suppliedSourcedId: string; allocatedSourcedId: string }) => [
        p.suppliedSourcedId,
        p.allocatedSourcedId,
      ]),
    );
  }

  describe('postLineItemsForClass', () => {
    it('creates every record under a new id, in the path class', async () => {
      const ids = await created('classes/cls-alg-1/lineItems', {
        lineItems: [lineItem('tmp-1'), lineItem('tmp-2', { class: ref('cls-alg-1'), gradingPeriod: ref('as-gp2') })],
      });
      for (const [supplied, allocated] of ids) {
        const li = (await v1p2(h, 'gradebook', 'get', `lineItems/${allocated}`, token).expect(200)).body.lineItem;
        expect(li).toMatchObject({
          sourcedId: allocated,
          status: 'active',
          title: `Posted ${supplied}`,
          class: { sourcedId: 'cls-alg-1' },
          school: { sourcedId: 'org-s1' },
        });
      }
      expect(
        idsOf((await v1p2(h, 'gradebook', 'get', 'classes/cls-alg-1/lineItems', token).expect(200)).body.lineItems),
      ).toEqual(expect.arrayContaining([...ids.values()]));
    });

    it('answers an empty list with no pairs', async () => {
      const res = await post('classes/cls-alg-1/lineItems', { lineItems: [] }).expect(201);
      expect(res.body).toEqual({ sourcedIdPairs: [] });
    });

    it('refuses a record naming another class (422, nothing written)', async () => {
      const before = await lineItems();
      const res = await post('classes/cls-alg-1/lineItems', {
        lineItems: [lineItem('a'), lineItem('b', { class: ref('cls-alg-2') })],
      });
      expectV1p2Error(res, 'gradebook', 422, 'invaliddata', 'lineItems[1].class');
      expectOasAnswer(res, 'POST', 'classes/cls-alg-1/lineItems');
      expect(await lineItems()).toBe(before);
    });

    it("answers 404 for an unknown class and another tenant's", async () => {
      for (const cls of ['cls-nope', 'bv-cls-1']) {
        const res = await post(`classes/${cls}/lineItems`, { lineItems: [lineItem('a')] });
        expectV1p2Error(res, 'gradebook', 404, 'unknownobject');
        expectOasAnswer(res, 'POST', `classes/${cls}/lineItems`);
      }
    });

    it('is all or nothing: a bad record after good ones writes none of them', async () => {
      const before = await lineItems();
      const records = [lineItem('ok-1'), lineItem('ok-2'), lineItem('bad', { category: ref('cat-old') })];
      expectV1p2Error(
        await post('classes/cls-alg-1/lineItems', { lineItems: records }),
        'gradebook',
        422,
        'invaliddata',
        'lineItems[2].category',
      );
      expect(await lineItems()).toBe(before);
    });

    it('takes 1000 records in one request, and refuses 1001', async () => {
      const before = await lineItems();
      const many = (n: number) => Array.from({ length: n }, (_, i) => lineItem(`bulk-${i}`, { title: `Bulk ${i}` }));
      const ids = await created('classes/cls-alg-2/lineItems', { lineItems: many(1000) });
      expect(new Set(ids.values()).size).toBe(1000);
      expect(await lineItems()).toBe(before + 1000);
      const res = await post('classes/cls-alg-2/lineItems', { lineItems: many(1001) });
      expectV1p2Error(res, 'gradebook', 422, 'invaliddata', 'lineItems');
      expect(await lineItems()).toBe(before + 1000);
    }, 60_000);
  });

  describe('postLineItemsForSchool', () => {
    it("creates line items of the school's classes", async () => {
      const ids = await created('schools/org-s1/lineItems', {
        lineItems: [
          schoolLineItem('s-1', { class: ref('cls-alg-2') }),
          schoolLineItem('s-2', { class: ref('cls-bio-1'), school: ref('org-s1') }),
        ],
      });
      const li = (await v1p2(h, 'gradebook', 'get', `lineItems/${ids.get('s-2')}`, token).expect(200)).body.lineItem;
      expect(li).toMatchObject({ class: { sourcedId: 'cls-bio-1' }, school: { sourcedId: 'org-s1' } });
    });

    it('refuses a class of another school and a record naming another school (422)', async () => {
      const before = await lineItems();
      expectV1p2Error(
        await post('schools/org-s1/lineItems', { lineItems: [schoolLineItem('x', { class: ref('cls-hr-7') })] }),
        'gradebook',
        422,
        'invaliddata',
        'lineItems[0].school',
      );
      expectV1p2Error(
        await post('schools/org-s1/lineItems', {
          lineItems: [schoolLineItem('x', { class: ref('cls-alg-1'), school: ref('org-s2') })],
        }),
        'gradebook',
        422,
        'invaliddata',
        'lineItems[0].school',
      );
      expectV1p2Error(
        await post('schools/org-s1/lineItems', { lineItems: [schoolLineItem('x')] }),
        'gradebook',
        422,
        'invaliddata',
        'lineItems[0].class',
      );
      expect(await lineItems()).toBe(before);
    });

    it("answers 404 for an unknown school, an org that is not a school and another tenant's school", async () => {
      for (const school of ['org-nope', 'org-d1', 'org-b1']) {
        expectV1p2Error(
          await post(`schools/${school}/lineItems`, { lineItems: [schoolLineItem('x', { class: ref('cls-alg-1') })] }),
          'gradebook',
          404,
          'unknownobject',
        );
      }
    });
  });

  describe('postResultsForLineItem', () => {
    it('creates results of the path line item', async () => {
      const ids = await created('lineItems/li-alg1-quiz1/results', {
        results: [
          result('t-1', 'usr-s-05'),
          result('t-2', 'usr-s-07', { lineItem: ref('li-alg1-quiz1'), score: 12.5 }),
        ],
      });
      const listed = await v1p2(
        h,
        'gradebook',
        'get',
        'classes/cls-alg-1/lineItems/li-alg1-quiz1/results',
        token,
      ).expect(200);
      expect(idsOf(listed.body.results)).toEqual(expect.arrayContaining([...ids.values()]));
      expect(
        (await v1p2(h, 'gradebook', 'get', `results/${ids.get('t-2')}`, token).expect(200)).body.result,
      ).toMatchObject({ score: 12.5, class: { sourcedId: 'cls-alg-1' } });
    });

    it('refuses records naming another line item or a student not in its class (422, nothing written)', async () => {
      const before = await results();
      expectV1p2Error(
        await post('lineItems/li-alg1-quiz1/results', {
          results: [result('a', 'usr-s-05', { lineItem: ref('li-alg1-hw1') })],
        }),
        'gradebook',
        422,
        'invaliddata',
        'results[0].lineItem',
      );
      expectV1p2Error(
        await post('lineItems/li-alg1-quiz1/results', { results: [result('a', 'usr-s-05'), result('b', 'usr-s-02')] }),
        'gradebook',
        422,
        'invaliddata',
        'results[1].student',
      );
      expect(await results()).toBe(before);
    });

    it("answers 404 for an unknown, a deleted and another tenant's line item", async () => {
      for (const li of ['li-nope', 'li-alg1-old', 'li-bv-1']) {
        expectV1p2Error(
          await post(`lineItems/${li}/results`, { results: [result('a', 'usr-s-05')] }),
          'gradebook',
          404,
          'unknownobject',
        );
      }
    });
  });

  describe('postResultsForAcademicSessionForClass', () => {
    it("creates results on the class's line items graded in that session (academicSession or gradingPeriod)", async () => {
      await created('classes/cls-alg-1/academicSessions/as-gp1/results', {
        results: [{ ...result('g-1', 'usr-s-09'), lineItem: ref('li-alg1-hw1') }],
      });
      await created('classes/cls-alg-1/academicSessions/as-gp2/results', {
        results: [{ ...result('g-2', 'usr-s-09'), lineItem: ref('li-alg1-quiz1'), class: ref('cls-alg-1') }],
      });
    });

    it('refuses line items of another class or session, and another class (422, nothing written)', async () => {
      const before = await results();
      const path = 'classes/cls-alg-1/academicSessions/as-gp1/results';
      expectV1p2Error(
        await post(path, { results: [{ ...result('a', 'usr-s-09'), lineItem: ref('li-alg1-quiz1') }] }),
        'gradebook',
        422,
        'invaliddata',
        'results[0].lineItem',
      );
      expectV1p2Error(
        await post(path, { results: [{ ...result('a', 'usr-s-02'), lineItem: ref('li-alg2-hw1') }] }),
        'gradebook',
        422,
        'invaliddata',
        'results[0].lineItem',
      );
      expectV1p2Error(
        await post(path, {
          results: [{ ...result('a', 'usr-s-09'), lineItem: ref('li-alg1-hw1'), class: ref('cls-alg-2') }],
        }),
        'gradebook',
        422,
        'invaliddata',
        'results[0].class',
      );
      expectV1p2Error(
        await post(path, { results: [{ ...result('a', 'usr-s-09') }] }),
        'gradebook',
        422,
        'invaliddata',
        'results[0].lineItem',
      );
      expect(await results()).toBe(before);
    });

    it('answers 404 for an unknown class or session', async () => {
      for (const path of [
        'classes/cls-nope/academicSessions/as-gp1/results',
        'classes/cls-alg-1/academicSessions/as-nope/results',
        'classes/cls-alg-1/academicSessions/bv-t1/results',
      ]) {
        expectV1p2Error(await post(path, { results: [] }), 'gradebook', 404, 'unknownobject');
      }
    });
  });

  describe('bodies and scopes', () => {
    it('400 for malformed JSON, a missing Set wrapper or a wrapper that is not a list', async () => {
      const raw = (text: string) =>
        request(h.app.getHttpServer())
          .post(`${V1P2.gradebook}/classes/cls-alg-1/lineItems`)
          .set('Authorization', `Bearer ${token}`)
          .set('Content-Type', 'application/json')
          .send(text);
      expectV1p2Error(await raw('{"lineItems": ['), 'gradebook', 400, 'invaliddata');
      for (const body of [{ lineItem: lineItem('a') }, { lineItems: lineItem('a') }, [lineItem('a')]])
        expectV1p2Error(await post('classes/cls-alg-1/lineItems', body), 'gradebook', 400, 'invaliddata');
    });

    it('422 for records without their temporary id, repeated ids, unknown properties', async () => {
      const path = 'classes/cls-alg-1/lineItems';
      const { sourcedId: _id, ...noId } = lineItem('x');
      expectV1p2Error(
        await post(path, { lineItems: [noId] }),
        'gradebook',
        422,
        'invaliddata',
        'lineItems[0].sourcedId',
      );
      expectV1p2Error(
        await post(path, { lineItems: [lineItem('x'), lineItem('x')] }),
        'gradebook',
        422,
        'invaliddata',
        'lineItems[1].sourcedId',
      );
      expectV1p2Error(
        await post(path, { lineItems: [lineItem('x', { points: 3 })] }),
        'gradebook',
        422,
        'invaliddata',
        'lineItems[0].points',
      );
    });

    it('needs gradebook.createpost: 401 without a token, 403 with createput, v1.1 or assessment scopes', async () => {
      const before = await lineItems();
      const path = 'classes/cls-alg-1/lineItems';
      expectV1p2Error(
        await v1p2(h, 'gradebook', 'post', path, undefined, { lineItems: [lineItem('a')] }),
        'gradebook',
        401,
        'unauthorisedrequest',
      );
      for (const scopes of [
        [SCOPE_V1P2.gradebookPut, SCOPE_V1P2.gradebook],
        [SCOPE.gradebookPut, SCOPE.gradebook],
        [SCOPE_V1P2.assessmentPut],
      ]) {
        const res = await post(path, { lineItems: [lineItem('a')] }, await h.token(w.D, scopes));
        expectV1p2Error(res, 'gradebook', 403, 'forbidden');
        expectOasAnswer(res, 'POST', path);
      }
      expect(await lineItems()).toBe(before);
    });
  });
});
