import request from 'supertest';
import { HREF_ROOT, PREFIX, RosterHarness, SCOPE, type TenantSetup } from './support/harness';
import { districtGradebook, lineItemBody, schoolGradebook, writeGradebook } from './support/gradebook-fixture';
import { expectImsxError } from './support/imsx';
import { loadFixture } from './support/load';
import { districtFixture, schoolFixture } from './support/roster-fixture';

const COMPACT_DATETIME = /^\d{8}T\d{6}\.\d{3}Z$/;

/** A line item of cls-alg-1 as a grade-sync client writes it (no category, no grading period). */
const lineItem = (over: Record<string, unknown> = {}) => ({
  lineItem: {
    title: 'Worksheet',
    assignDate: '2024-03-01T08:00:00Z',
    dueDate: '2024-03-08T08:00:00.000Z',
    class: { sourcedId: 'cls-alg-1' },
    resultValueMin: 0,
    resultValueMax: 100,
    ...over,
  },
});
const result = (over: Record<string, unknown> = {}) => ({
  result: {
    lineItem: { sourcedId: 'li-alg1-hw1' },
    student: { sourcedId: 'usr-s-09' },
    scoreStatus: 'fully graded',
    score: 7,
    scoreDate: '2024-03-09',
    ...over,
  },
});

describe('OneRoster gradebook writes', () => {
  const h = new RosterHarness();
  let D: TenantSetup;
  let S: TenantSetup;
  let other: TenantSetup;
  /** App A of the district: create/replace and delete. */
  let rw: string;
  let readOnly: string;
  let putOnly: string;
  let deleteOnly: string;
  /** Another app of the district, with every gradebook scope. */
  let otherRw: string;
  let schoolRw: string;

  beforeAll(async () => {
    await h.start();
    D = await h.tenant({ rootOrg: 'org-d1' });
    S = await h.tenant({ rootOrg: 'org-b1' });
    await loadFixture(h, D, districtFixture());
    await loadFixture(h, S, schoolFixture());
    rw = await h.token(D, [SCOPE.gradebookPut, SCOPE.gradebookDelete]);
    readOnly = await h.token(D, [SCOPE.gradebook]);
    putOnly = await h.token(D, [SCOPE.gradebookPut]);
    deleteOnly = await h.token(D, [SCOPE.gradebookDelete]);
    other = await h.otherApp(D);
    otherRw = await h.token(other, [SCOPE.gradebook, SCOPE.gradebookPut, SCOPE.gradebookDelete]);
    schoolRw = await h.token(S, [SCOPE.gradebook, SCOPE.gradebookPut, SCOPE.gradebookDelete]);
    await writeGradebook(h, districtGradebook(), rw);
    await writeGradebook(h, schoolGradebook(), schoolRw);
    await h.put('categories/cat-bv', { category: { title: 'Reading' } }, schoolRw).expect(201);
  });

  afterAll(() => h.stop());

  const read = async (path: string, token = readOnly) => {
    const res = await h.get(path, token);
    return res.status === 200 ? (Object.values(res.body)[0] as Record<string, unknown>) : undefined;
  };
  const rowCount = async (table: string) =>
    Number((await h.ds.query(`SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = $1`, [D.tenantId]))[0].n);

  describe('PUT creates (201) and replaces (200)', () => {
    it('creates a category, answers the stored object under its wrapper key, then replaces it', async () => {
      const created = await h
        .put(
          'categories/cat-new',
          {
            category: {
              sourcedId: 'cat-new',
              title: 'Labs',
              dateLastModified: '2001-01-01T00:00:00Z',
              status: 'active',
            },
          },
          rw,
        )
        .expect(201);
      expect(created.headers['content-type']).toMatch(/^application\/json; charset=utf-8/);
      expect(created.headers['location']).toBe(`${HREF_ROOT}/categories/cat-new`);
      expect(created.body).toEqual({
        category: {
          sourcedId: 'cat-new',
          status: 'active',
          dateLastModified: expect.stringMatching(COMPACT_DATETIME),
          title: 'Labs',
        },
      });
      expect(created.body.category.dateLastModified.startsWith('2001')).toBe(false);
      expect(await read('categories/cat-new')).toEqual(created.body.category);

      const replaced = await h
        .put('categories/cat-new', { category: { title: 'Laboratory work', metadata: { 'lms.colour': 'teal' } } }, rw)
        .expect(200);
      expect(replaced.headers['location']).toBeUndefined();
      expect(replaced.body.category).toMatchObject({ title: 'Laboratory work', metadata: { 'lms.colour': 'teal' } });
      expect(replaced.body.category.dateLastModified > created.body.category.dateLastModified).toBe(true);
      expect(await read('categories/cat-new')).toEqual(replaced.body.category);
    });

    it('leaves dateLastModified alone when a PUT changes nothing', async () => {
      const first = await h.put('lineItems/li-same', lineItem(), rw).expect(201);
      const again = await h
        .put(
          'lineItems/li-same',
          lineItem({
            sourcedId: 'li-same',
            class: { sourcedId: 'cls-alg-1', type: 'class', href: 'https://elsewhere.example/x' },
          }),
          rw,
        )
        .expect(200);
      expect(again.body).toEqual(first.body);
      const changed = await h.put('lineItems/li-same', lineItem({ resultValueMax: 50 }), rw).expect(200);
      expect(changed.body.lineItem.dateLastModified > first.body.lineItem.dateLastModified).toBe(true);
    });

    it('creates and renames a line item, keeping long titles and exact numbers', async () => {
      const created = await h
        .put(
          'lineItems/li-essay',
          lineItem({
            description: 'First draft',
            category: { sourcedId: 'cat-hw', type: 'category' },
            gradingPeriod: { sourcedId: 'as-t2', type: 'term' },
          }),
          rw,
        )
        .expect(201);
      expect(created.body.lineItem).toEqual({
        sourcedId: 'li-essay',
        status: 'active',
        dateLastModified: expect.stringMatching(COMPACT_DATETIME),
        title: 'Worksheet',
        description: 'First draft',
        assignDate: '20240301T080000.000Z',
        dueDate: '20240308T080000.000Z',
        class: { href: `${HREF_ROOT}/classes/cls-alg-1`, sourcedId: 'cls-alg-1', type: 'class' },
        category: { href: `${HREF_ROOT}/categories/cat-hw`, sourcedId: 'cat-hw', type: 'category' },
        gradingPeriod: { href: `${HREF_ROOT}/academicSessions/as-t2`, sourcedId: 'as-t2', type: 'academicSession' },
        resultValueMin: 0,
        resultValueMax: 100,
      });
      const long = `${'Reflective essay on the history of algebra, with sources — '.repeat(60)}Ω 😀`;
      const renamed = await h
        .put(
          'lineItems/li-essay',
          lineItem({ title: long, resultValueMin: -2.5, resultValueMax: 87.33333333333333 }),
          rw,
        )
        .expect(200);
      expect(renamed.body.lineItem.title).toBe(long);
      expect(renamed.body.lineItem).toMatchObject({ resultValueMin: -2.5, resultValueMax: 87.33333333333333 });
      // Replacing drops what the new body leaves out (PUT replaces the whole object).
      expect(renamed.body.lineItem).not.toHaveProperty('description');
      expect(renamed.body.lineItem).not.toHaveProperty('category');
      expect((await read('lineItems/li-essay'))?.title).toBe(long);
    });

    it('accepts ISO 8601 datetimes with or without milliseconds, offsets and the compact form', async () => {
      const cases: Array<[string, string]> = [
        ['2024-03-01T08:00:00Z', '20240301T080000.000Z'],
        ['2024-03-01T08:00:00.250Z', '20240301T080000.250Z'],
        ['2024-03-01T08:00Z', '20240301T080000.000Z'],
        ['2024-03-01T18:30:00+10:30', '20240301T080000.000Z'],
        ['2024-03-01T08:00:00.123456Z', '20240301T080000.123Z'],
        ['2024-03-01T08:00:00', '20240301T080000.000Z'],
        ['20240301T080000.000Z', '20240301T080000.000Z'],
      ];
      for (const [input, printed] of cases) {
        const res = await h.put('lineItems/li-dates', lineItem({ assignDate: input, dueDate: input }), rw);
        expect([200, 201]).toContain(res.status);
        expect(res.body.lineItem.assignDate).toBe(printed);
      }
    });

    it('creates results with extra credit kept exactly, exempt without a score, and edits them', async () => {
      const extra = await h
        .put('results/r-extra', result({ score: 104.75, comment: 'Bonus question' }), rw)
        .expect(201);
      expect(extra.body.result).toEqual({
        sourcedId: 'r-extra',
        status: 'active',
        dateLastModified: expect.stringMatching(COMPACT_DATETIME),
        lineItem: { href: `${HREF_ROOT}/lineItems/li-alg1-hw1`, sourcedId: 'li-alg1-hw1', type: 'lineItem' },
        student: { href: `${HREF_ROOT}/users/usr-s-09`, sourcedId: 'usr-s-09', type: 'user' },
        scoreStatus: 'fully graded',
        score: 104.75,
        scoreDate: '20240309',
        comment: 'Bonus question',
      });
      for (const score of [0.1, 1e-7, 123456789.123456, 1e21, -3]) {
        const res = await h.put('results/r-extra', result({ score }), rw).expect(200);
        expect(res.body.result.score).toBe(score);
        expect(JSON.parse((await h.get('results/r-extra', readOnly)).text).result.score).toBe(score);
      }
      const exempt = await h
        .put(
          'results/r-extra',
          result({ scoreStatus: 'exempt', score: undefined, scoreDate: '2024-03-10T09:00:00Z' }),
          rw,
        )
        .expect(200);
      expect(exempt.body.result.scoreStatus).toBe('exempt');
      expect(exempt.body.result).not.toHaveProperty('score');
      expect(exempt.body.result.scoreDate).toBe('20240310');
      expect(await read('results/r-extra')).toEqual(exempt.body.result);
      const back = await h
        .put('results/r-extra', result({ scoreStatus: 'Partially Graded', score: 55 }), rw)
        .expect(200);
      expect(back.body.result).toMatchObject({ scoreStatus: 'partially graded', score: 55 });
      const notSubmitted = await h
        .put(
          'results/r-missing',
          result({ scoreStatus: 'not submitted', score: null, student: { sourcedId: 'usr-s-11', type: 'student' } }),
          rw,
        )
        .expect(201);
      expect(notSubmitted.body.result).not.toHaveProperty('score');
    });

    it("moves a line item's results to the class the line item is moved to", async () => {
      const ids = async (path: string) =>
        ((await h.get(path, readOnly).expect(200)).body.results as Array<{ sourcedId: string }>).map(
          (r) => r.sourcedId,
        );
      await h.put('lineItems/li-move', lineItem(), rw).expect(201);
      const lineItemRef = { sourcedId: 'li-move' };
      await h
        .put('results/r-move-5', result({ lineItem: lineItemRef, student: { sourcedId: 'usr-s-05' } }), rw)
        .expect(201);
      await h
        .put('results/r-move-7', result({ lineItem: lineItemRef, student: { sourcedId: 'usr-s-07' } }), rw)
        .expect(201);
      expect(await ids('classes/cls-alg-1/results')).toEqual(expect.arrayContaining(['r-move-5', 'r-move-7']));
      expect(await ids('classes/cls-bio-1/results')).not.toContain('r-move-5');

      await h.put('lineItems/li-move', lineItem({ class: { sourcedId: 'cls-bio-1' } }), rw).expect(200);
      expect(await ids('classes/cls-bio-1/results')).toEqual(expect.arrayContaining(['r-move-5', 'r-move-7']));
      expect(await ids('classes/cls-alg-1/results')).not.toContain('r-move-5');
      expect(await ids('classes/cls-bio-1/students/usr-s-05/results')).toContain('r-move-5');
      expect(await ids('classes/cls-alg-1/students/usr-s-05/results')).not.toContain('r-move-5');
    });

    it('makes concurrent creations of one id a single 201', async () => {
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => h.put('categories/cat-race', { category: { title: 'Race' } }, rw)),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
      const mixed = await Promise.all([
        h.put('categories/cat-race-2', { category: { title: 'A' } }, rw),
        h.put('categories/cat-race-2', { category: { title: 'B' } }, otherRw),
      ]);
      expect(mixed.map((a) => a.status).sort()).toEqual([201, 403]);
    });
  });

  describe('malformed bodies: 400 naming the field, nothing written', () => {
    const CASES: Array<[string, string, unknown, string]> = [
      ['no wrapper', 'categories', { title: 'x' }, 'category'],
      ['wrapper of another class', 'categories', { lineItem: { title: 'x' } }, 'category'],
      ['a JSON array', 'categories', [{ category: { title: 'x' } }], 'category'],
      ['wrapper not an object', 'categories', { category: 'x' }, 'category'],
      ['title missing', 'categories', { category: {} }, 'category.title'],
      ['title blank', 'categories', { category: { title: '   ' } }, 'category.title'],
      ['title not a string', 'categories', { category: { title: 42 } }, 'category.title'],
      ['title too long', 'categories', { category: { title: 'x'.repeat(10_001) } }, 'category.title'],
      ['status tobedeleted', 'categories', { category: { title: 'x', status: 'tobedeleted' } }, 'category.status'],
      [
        'sourcedId differs from the path',
        'categories',
        { category: { sourcedId: 'other', title: 'x' } },
        'category.sourcedId',
      ],
      ['metadata an array', 'categories', { category: { title: 'x', metadata: ['a'] } }, 'category.metadata'],
      ['assignDate missing', 'lineItems', lineItem({ assignDate: undefined }), 'lineItem.assignDate'],
      ['assignDate a date only', 'lineItems', lineItem({ assignDate: '2024-03-01' }), 'lineItem.assignDate'],
      ['assignDate garbage', 'lineItems', lineItem({ assignDate: 'next Tuesday' }), 'lineItem.assignDate'],
      ['dueDate not a real day', 'lineItems', lineItem({ dueDate: '2024-02-30T00:00:00Z' }), 'lineItem.dueDate'],
      ['dueDate a number', 'lineItems', lineItem({ dueDate: 1709280000000 }), 'lineItem.dueDate'],
      ['class missing', 'lineItems', lineItem({ class: undefined }), 'lineItem.class'],
      ['class a string', 'lineItems', lineItem({ class: 'cls-alg-1' }), 'lineItem.class'],
      [
        'class without sourcedId',
        'lineItems',
        lineItem({ class: { href: `${HREF_ROOT}/classes/cls-alg-1` } }),
        'lineItem.class.sourcedId',
      ],
      ['class sourcedId a number', 'lineItems', lineItem({ class: { sourcedId: 7 } }), 'lineItem.class.sourcedId'],
      [
        'class of the wrong type',
        'lineItems',
        lineItem({ class: { sourcedId: 'cls-alg-1', type: 'course' } }),
        'lineItem.class.type',
      ],
      [
        'category of the wrong type',
        'lineItems',
        lineItem({ category: { sourcedId: 'cat-hw', type: 'lineItem' } }),
        'lineItem.category.type',
      ],
      ['resultValueMin a string', 'lineItems', lineItem({ resultValueMin: '0' }), 'lineItem.resultValueMin'],
      [
        'resultValueMin above resultValueMax',
        'lineItems',
        lineItem({ resultValueMin: 10, resultValueMax: 5 }),
        'lineItem.resultValueMin',
      ],
      ['description an object', 'lineItems', lineItem({ description: { text: 'x' } }), 'lineItem.description'],
      ['score a string', 'results', result({ score: '9.5' }), 'result.score'],
      ['score missing when graded', 'results', result({ score: undefined }), 'result.score'],
      ['scoreStatus without its space', 'results', result({ scoreStatus: 'fullygraded' }), 'result.scoreStatus'],
      ['scoreStatus with a dash', 'results', result({ scoreStatus: 'fully-graded' }), 'result.scoreStatus'],
      ['scoreStatus missing', 'results', result({ scoreStatus: undefined }), 'result.scoreStatus'],
      ['scoreDate garbage', 'results', result({ scoreDate: '09/03/2024' }), 'result.scoreDate'],
      ['lineItem missing', 'results', result({ lineItem: undefined }), 'result.lineItem'],
      [
        'student of the wrong type',
        'results',
        result({ student: { sourcedId: 'usr-s-09', type: 'class' } }),
        'result.student.type',
      ],
      ['comment a number', 'results', result({ comment: 3 }), 'result.comment'],
    ];

    it.each(CASES)('%s', async (_label, collection, body, field) => {
      const before = await rowCount(`gradebook_${collection === 'lineItems' ? 'line_items' : collection}`);
      expectImsxError(await h.put(`${collection}/bad-new`, body, rw), 400, 'invaliddata', field);
      expect(await rowCount(`gradebook_${collection === 'lineItems' ? 'line_items' : collection}`)).toBe(before);
      expect(await read(`${collection}/bad-new`)).toBeUndefined();
    });

    it('refuses NUL characters anywhere in the body (400 before parsing, nothing written)', async () => {
      // Every JSON body of the platform is refused with U+0000 (libs/http); the gradebook's own check stays behind it.
      for (const body of [
        { category: { title: 'a\u0000b' } },
        { category: { title: 'x', metadata: { k: { deep: 'a\u0000' } } } },
      ]) {
        expectImsxError(await h.put('categories/nul-new', body, rw), 400, 'invaliddata');
      }
      expect(await read('categories/nul-new')).toBeUndefined();
    });

    it('changes nothing when a replacing PUT is refused', async () => {
      const before = await read('lineItems/li-alg1-quiz1');
      expectImsxError(
        await h.put('lineItems/li-alg1-quiz1', lineItem({ title: '', resultValueMax: 1 }), rw),
        400,
        'invaliddata',
        'lineItem.title',
      );
      expectImsxError(
        await h.put('lineItems/li-alg1-quiz1', lineItem({ title: 'x', class: { sourcedId: 'nope' } }), rw),
        400,
        'invaliddata',
        'lineItem.class',
      );
      expect(await read('lineItems/li-alg1-quiz1')).toEqual(before);
    });

    it('refuses bodies that are not JSON objects, unpaired surrogates and oversized ids', async () => {
      const raw = (path: string, text: string, type = 'application/json') =>
        request(h.app.getHttpServer())
          .put(`${PREFIX}/${path}`)
          .set('Authorization', `Bearer ${rw}`)
          .set('Content-Type', type)
          .send(text);
      expectImsxError(await raw('categories/raw-1', '{"category": {"title": "x"'), 400, 'invaliddata');
      expectImsxError(
        await raw('categories/raw-1', 'title=x', 'application/x-www-form-urlencoded'),
        400,
        'invaliddata',
        'category',
      );
      expectImsxError(
        await raw('categories/raw-1', '{"category": {"title": "x"}}', 'text/plain'),
        400,
        'invaliddata',
        'category',
      );
      expectImsxError(
        await raw('categories/raw-1', '{"category": {"title": "a\\ud800b"}}'),
        400,
        'invaliddata',
        'category.title',
      );
      expectImsxError(
        await raw('categories/raw-1', '{"category": {"title": "x", "metadata": {"\\udc00": 1}}}'),
        400,
        'invaliddata',
        'category.metadata',
      );
      expectImsxError(await raw('categories/raw-1', 'null'), 400, 'invaliddata');
      expectImsxError(
        await h.put(`categories/${'x'.repeat(257)}`, { category: { title: 'x' } }, rw),
        400,
        'invaliddata',
        'sourcedId',
      );
      expectImsxError(
        await h.put(`categories/a%09b`, { category: { title: 'x' } }, rw),
        400,
        'invaliddata',
        'sourcedId',
      );
      const big = await h.put('categories/raw-1', { category: { title: 'x'.repeat(2 * 1024 * 1024) } }, rw);
      expect(big.status).toBe(413);
      expect(await read('categories/raw-1')).toBeUndefined();
    });

    it('stores odd but valid sourcedIds and hands them back escaped in hrefs', async () => {
      const id = 'cat 1/2?#%é';
      const res = await h.put(`categories/${encodeURIComponent(id)}`, { category: { title: 'Odd' } }, rw).expect(201);
      expect(res.body.category.sourcedId).toBe(id);
      expect(res.headers['location']).toBe(`${HREF_ROOT}/categories/cat%201%2F2%3F%23%25%C3%A9`);
      const listed = await h.get(`categories?filter=${encodeURIComponent("title='Odd'")}`, readOnly).expect(200);
      expect(listed.body.categories.map((c: { sourcedId: string }) => c.sourcedId)).toEqual([id]);
      expect((await read(`categories/${encodeURIComponent(id)}`))?.title).toBe('Odd');
    });
  });

  describe('references must name active objects of the tenant', () => {
    const REFUSED: Array<[string, string, unknown, string]> = [
      ['an unknown class', 'lineItems', lineItem({ class: { sourcedId: 'cls-nope' } }), 'lineItem.class'],
      ['a tombstoned class', 'lineItems', lineItem({ class: { sourcedId: 'cls-old' } }), 'lineItem.class'],
      ["another tenant's class", 'lineItems', lineItem({ class: { sourcedId: 'bv-cls-1' } }), 'lineItem.class'],
      ['an unknown category', 'lineItems', lineItem({ category: { sourcedId: 'cat-nope' } }), 'lineItem.category'],
      ['a deleted category', 'lineItems', lineItem({ category: { sourcedId: 'cat-old' } }), 'lineItem.category'],
      ["another tenant's category", 'lineItems', lineItem({ category: { sourcedId: 'cat-bv' } }), 'lineItem.category'],
      [
        'an unknown grading period',
        'lineItems',
        lineItem({ gradingPeriod: { sourcedId: 'as-nope' } }),
        'lineItem.gradingPeriod',
      ],
      [
        "another tenant's grading period",
        'lineItems',
        lineItem({ gradingPeriod: { sourcedId: 'bv-t1' } }),
        'lineItem.gradingPeriod',
      ],
      ['an unknown line item', 'results', result({ lineItem: { sourcedId: 'li-nope' } }), 'result.lineItem'],
      ["another tenant's line item", 'results', result({ lineItem: { sourcedId: 'li-bv-1' } }), 'result.lineItem'],
      ['an unknown student', 'results', result({ student: { sourcedId: 'usr-nope' } }), 'result.student'],
      ['a tombstoned student', 'results', result({ student: { sourcedId: 'usr-s-24' } }), 'result.student'],
      ['a teacher as the student', 'results', result({ student: { sourcedId: 'usr-t-01' } }), 'result.student'],
      ['a student of another class', 'results', result({ student: { sourcedId: 'usr-s-02' } }), 'result.student'],
      ["another tenant's student", 'results', result({ student: { sourcedId: 'bv-s-02' } }), 'result.student'],
    ];

    it.each(REFUSED)('refuses %s (400, field named, nothing written)', async (_label, collection, body, field) => {
      const res = await h.put(`${collection}/ref-new`, body, rw);
      expectImsxError(res, 400, 'invaliddata', field);
      expect(await read(`${collection}/ref-new`)).toBeUndefined();
    });

    it('refuses a student whose enrollment in the class was tombstoned, and results for a deleted line item', async () => {
      await h.put('lineItems/li-bio-lab', lineItem({ class: { sourcedId: 'cls-bio-1' } }), rw).expect(201);
      await h
        .put(
          'results/r-bio-s01',
          result({ lineItem: { sourcedId: 'li-bio-lab' }, student: { sourcedId: 'usr-s-01' } }),
          rw,
        )
        .expect(201);
      expectImsxError(
        await h.put(
          'results/r-bio-s03',
          result({ lineItem: { sourcedId: 'li-bio-lab' }, student: { sourcedId: 'usr-s-03' } }),
          rw,
        ),
        400,
        'invaliddata',
        'result.student',
      );
      await h.delete('lineItems/li-bio-lab', rw).expect(204);
      expectImsxError(
        await h.put(
          'results/r-bio-s01',
          result({ lineItem: { sourcedId: 'li-bio-lab' }, student: { sourcedId: 'usr-s-01' } }),
          rw,
        ),
        400,
        'invaliddata',
        'result.lineItem',
      );
    });

    it('accepts any active academic session as the grading period', async () => {
      for (const session of ['as-gp2', 'as-t1', 'as-sem1']) {
        const res = await h.put('lineItems/li-gp', lineItem({ gradingPeriod: { sourcedId: session } }), rw);
        expect([200, 201]).toContain(res.status);
        expect(res.body.lineItem.gradingPeriod.sourcedId).toBe(session);
      }
    });
  });

  describe('ownership and deletion', () => {
    it("lets another app read but not replace or delete an app's objects (403 unauthorisedrequest)", async () => {
      const before = await read('lineItems/li-alg1-hw1');
      expect(await read('lineItems/li-alg1-hw1', otherRw)).toEqual(before);
      const replaced = await h.put('lineItems/li-alg1-hw1', lineItemBody(districtGradebook().lineItems[0]!), otherRw);
      expectImsxError(replaced, 403, 'unauthorisedrequest');
      expect(replaced.body.statusInfoSet[0].imsx_description).toMatch(/another app/);
      expectImsxError(await h.delete('lineItems/li-alg1-hw1', otherRw), 403, 'unauthorisedrequest');
      expectImsxError(await h.delete('results/r-hw1-s01', otherRw), 403, 'unauthorisedrequest');
      expectImsxError(
        await h.put('categories/cat-hw', { category: { title: 'Mine now' } }, otherRw),
        403,
        'unauthorisedrequest',
      );
      expect(await read('lineItems/li-alg1-hw1')).toEqual(before);
      expect((await read('categories/cat-hw'))?.title).toBe('Homework');
      // The other app may write results against this app's line item: it owns those results.
      await h.put('results/r-other-s09', result({ student: { sourcedId: 'usr-s-11' } }), otherRw).expect(201);
      expectImsxError(
        await h.put('results/r-other-s09', result({ student: { sourcedId: 'usr-s-11' }, score: 1 }), rw),
        403,
        'unauthorisedrequest',
      );
    });

    it('deletes with 204; the object then reads as 404 and shows as tobedeleted to delta readers', async () => {
      await h.put('results/r-del', result({ student: { sourcedId: 'usr-s-13' } }), rw).expect(201);
      const since = (await read('results/r-del'))?.dateLastModified as string;
      const res = await h.delete('results/r-del', rw).expect(204);
      expect(res.text).toBe('');
      expectImsxError(await h.get('results/r-del', readOnly), 404, 'unknownobject');
      expectImsxError(await h.delete('results/r-del', rw), 404, 'unknownobject');
      const delta = await h
        .get(`results?filter=${encodeURIComponent(`dateLastModified>'${since}'`)}`, readOnly)
        .expect(200);
      const tomb = delta.body.results.find((r: { sourcedId: string }) => r.sourcedId === 'r-del');
      expect(tomb).toMatchObject({ sourcedId: 'r-del', status: 'tobedeleted', score: 7 });
      expect(tomb.dateLastModified > since).toBe(true);
      const classFeed = await h
        .get(
          `classes/cls-alg-1/results?filter=${encodeURIComponent(`dateLastModified>'${since}' AND status='tobedeleted'`)}`,
          readOnly,
        )
        .expect(200);
      expect(classFeed.body.results.map((r: { sourcedId: string }) => r.sourcedId)).toContain('r-del');
      // Its owner may create it again (201); another app may not.
      expectImsxError(
        await h.put('results/r-del', result({ student: { sourcedId: 'usr-s-13' } }), otherRw),
        403,
        'unauthorisedrequest',
      );
      const again = await h.put('results/r-del', result({ student: { sourcedId: 'usr-s-13' } }), rw).expect(201);
      expect(again.body.result.status).toBe('active');
    });

    it("deleting a line item deletes its results, other apps' results included", async () => {
      await h.put('lineItems/li-cascade', lineItem(), rw).expect(201);
      await h
        .put(
          'results/r-cascade-1',
          result({ lineItem: { sourcedId: 'li-cascade' }, student: { sourcedId: 'usr-s-01' } }),
          rw,
        )
        .expect(201);
      await h
        .put(
          'results/r-cascade-2',
          result({ lineItem: { sourcedId: 'li-cascade' }, student: { sourcedId: 'usr-s-03' } }),
          otherRw,
        )
        .expect(201);
      const untouched = await read('results/r-hw1-s01');
      const since = (await read('results/r-cascade-2'))?.dateLastModified as string;
      await h.delete('lineItems/li-cascade', rw).expect(204);
      expectImsxError(await h.get('lineItems/li-cascade', readOnly), 404, 'unknownobject');
      for (const id of ['r-cascade-1', 'r-cascade-2'])
        expectImsxError(await h.get(`results/${id}`, readOnly), 404, 'unknownobject');
      const delta = await h
        .get(`classes/cls-alg-1/results?filter=${encodeURIComponent(`dateLastModified>'${since}'`)}`, readOnly)
        .expect(200);
      expect(
        delta.body.results
          .filter((r: { status: string }) => r.status === 'tobedeleted')
          .map((r: { sourcedId: string }) => r.sourcedId),
      ).toEqual(['r-cascade-1', 'r-cascade-2']);
      const items = await h
        .get(`classes/cls-alg-1/lineItems?filter=${encodeURIComponent("status='tobedeleted'")}`, readOnly)
        .expect(200);
      expect(items.body.lineItems.map((l: { sourcedId: string }) => l.sourcedId)).toContain('li-cascade');
      expect(await read('results/r-hw1-s01')).toEqual(untouched);
    });

    it("answers 404 for another tenant's ids and unknown ids, and keeps tenants apart on PUT", async () => {
      expectImsxError(await h.delete('lineItems/li-bv-1', rw), 404, 'unknownobject');
      expectImsxError(await h.delete('categories/cat-bv', rw), 404, 'unknownobject');
      expectImsxError(await h.delete('results/no-such-result', rw), 404, 'unknownobject');
      expectImsxError(await h.delete(`results/${'x'.repeat(300)}`, rw), 404, 'unknownobject');
      // The same id in two tenants is two objects: the district's PUT creates its own.
      await h.put('categories/cat-bv', { category: { title: 'District reading' } }, rw).expect(201);
      expect((await read('categories/cat-bv', schoolRw))?.title).toBe('Reading');
      expect((await read('categories/cat-bv'))?.title).toBe('District reading');
    });
  });

  describe('scopes and tokens', () => {
    const WRITES = [
      ['categories/cat-scope', { category: { title: 'x' } }],
      ['lineItems/li-scope', lineItem()],
      ['results/r-scope', result()],
    ] as const;

    it('refuses PUT and DELETE without a token or with a forged one (401)', async () => {
      const attacks = await h.issuer.attackTokens({
        scopes: [SCOPE.gradebookPut, SCOPE.gradebookDelete],
        tenantId: D.tenantId,
        deploymentId: D.deploymentId,
        sub: D.appId,
      });
      for (const [path, body] of WRITES) {
        expectImsxError(await h.put(path, body), 401, 'unauthorisedrequest');
        expectImsxError(await h.delete('categories/cat-hw'), 401, 'unauthorisedrequest');
        for (const [name, bad] of Object.entries(attacks)) {
          const res = await h.put(path, body, bad);
          if (res.status !== 401) throw new Error(`${name}: ${res.status}`);
        }
      }
      expect(await read('categories/cat-scope')).toBeUndefined();
    });

    it('needs gradebook.createput to PUT and gradebook.delete to DELETE (403 forbidden)', async () => {
      for (const [path, body] of WRITES) {
        expectImsxError(await h.put(path, body, readOnly), 403, 'forbidden');
        expectImsxError(await h.put(path, body, deleteOnly), 403, 'forbidden');
        expect(await read(path)).toBeUndefined();
      }
      for (const path of ['categories/cat-quiz', 'lineItems/li-alg1-quiz1', 'results/r-quiz1-s01']) {
        expectImsxError(await h.delete(path, putOnly), 403, 'forbidden');
        expectImsxError(await h.delete(path, readOnly), 403, 'forbidden');
        expect(await read(path)).toBeDefined();
      }
      await h.put('categories/cat-scope', { category: { title: 'x' } }, putOnly).expect(201);
      await h.delete('categories/cat-scope', deleteOnly).expect(204);
      const rosterOnly = await h.token(D, [SCOPE.roster, SCOPE.core]);
      expectImsxError(await h.put('categories/cat-scope', { category: { title: 'x' } }, rosterOnly), 403, 'forbidden');
    });

    it('answers 405 with Allow for methods the gradebook paths do not take', async () => {
      const server = h.app.getHttpServer();
      for (const [method, path, allow] of [
        ['patch', 'results/r-hw1-s01', 'GET, HEAD, PUT, DELETE'],
        ['post', 'results/r-hw1-s01', 'GET, HEAD, PUT, DELETE'],
        ['post', 'results', 'GET, HEAD'],
        ['put', 'results', 'GET, HEAD'],
        ['delete', 'categories', 'GET, HEAD'],
        ['put', 'classes/cls-alg-1/results', 'GET, HEAD'],
      ] as const) {
        const res = await request(server)[method](`${PREFIX}/${path}`).set('Authorization', `Bearer ${rw}`).send({});
        expectImsxError(res, 405, 'unsupportedoperation');
        expect(res.headers['allow']).toBe(allow);
      }
    });
  });

  it('keeps the school tenant untouched by every district write', async () => {
    const schoolItems = await h.get('lineItems', schoolRw).expect(200);
    expect(schoolItems.body.lineItems.map((l: { sourcedId: string }) => l.sourcedId)).toEqual(['li-bv-1']);
    expect((await h.get('results/r-hw1-s01', schoolRw).expect(200)).body.result.score).toBe(5);
  });
});
