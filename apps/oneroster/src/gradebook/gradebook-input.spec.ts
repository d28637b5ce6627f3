import type { GradebookClass } from './gradebook-classes';
import {
  checkSourcedId,
  GradebookInputError,
  MAX_POSTED_RECORDS,
  postedRecords,
  readGradebookBody,
  readRecord,
} from './gradebook-input';
import { V1P1_BODIES, V1P2_BODIES } from './gradebook-shapes';

/** The values of a v1.1 PUT body. */
const v1p1 = (kind: GradebookClass, body: unknown, id: string) => readGradebookBody(V1P1_BODIES, kind, body, id).values;
const v1p2 = (kind: GradebookClass, body: unknown, id: string) => readGradebookBody(V1P2_BODIES, kind, body, id).values;

function refusal(fn: () => unknown): GradebookInputError {
  try {
    fn();
  } catch (e) {
    if (e instanceof GradebookInputError) return e;
    throw e;
  }
  throw new Error('expected a GradebookInputError');
}
const fieldOf = (fn: () => unknown) => refusal(fn).field;

const lineItem = (over: Record<string, unknown> = {}) => ({
  lineItem: {
    title: 'Quiz',
    assignDate: '2024-01-01T00:00:00Z',
    dueDate: '2024-01-02T00:00:00Z',
    class: { sourcedId: 'c-1' },
    ...over,
  },
});
const result = (over: Record<string, unknown> = {}) => ({
  result: {
    lineItem: { sourcedId: 'li-1' },
    student: { sourcedId: 's-1' },
    scoreStatus: 'fully graded',
    score: 1,
    scoreDate: '2024-01-03',
    ...over,
  },
});

describe('gradebook PUT bodies', () => {
  it('normalises a line item: instants in UTC with milliseconds, optional references absent', () => {
    expect(v1p1('lineItem', lineItem({ dueDate: '2024-01-02T10:00:00+10:00', resultValueMax: 100 }), 'li-1')).toEqual({
      title: 'Quiz',
      description: null,
      assignDate: '2024-01-01T00:00:00.000Z',
      dueDate: '2024-01-02T00:00:00.000Z',
      class: 'c-1',
      category: null,
      gradingPeriod: null,
      resultValueMin: null,
      resultValueMax: 100,
      metadata: null,
    });
  });

  it('reads score statuses in any letter case, scores as given, dates from datetimes', () => {
    expect(
      v1p1(
        'result',
        result({ scoreStatus: 'NOT SUBMITTED', score: undefined, scoreDate: '2024-01-03T23:30:00-02:00' }),
        'r-1',
      ),
    ).toMatchObject({
      scoreStatus: 'not submitted',
      score: null,
      scoreDate: '2024-01-04',
    });
    expect(v1p1('result', result({ score: -0 }), 'r-1').score).toBe(0);
    expect(v1p1('result', result({ score: 1e21 }), 'r-1').score).toBe(1e21);
  });

  it.each([
    ['a NUL in a title', 'category', { category: { title: 'a\u0000' } }, 'category.title'],
    ['an unpaired high surrogate', 'category', { category: { title: 'a\ud800' } }, 'category.title'],
    [
      'an unpaired low surrogate in a metadata key',
      'category',
      { category: { title: 'x', metadata: { '\udc00': 1 } } },
      'category.metadata',
    ],
    [
      'a NUL deep in metadata',
      'category',
      { category: { title: 'x', metadata: { a: [{ b: 'c\u0000' }] } } },
      'category.metadata',
    ],
    [
      'a control character in a reference',
      'lineItem',
      lineItem({ class: { sourcedId: 'c\n1' } }),
      'lineItem.class.sourcedId',
    ],
    ['an empty reference id', 'lineItem', lineItem({ class: { sourcedId: '' } }), 'lineItem.class.sourcedId'],
    ['a datetime beyond year 9999', 'lineItem', lineItem({ dueDate: '9999-12-31T23:00:00-05:00' }), 'lineItem.dueDate'],
    ['a compact date alone', 'lineItem', lineItem({ assignDate: '20240101' }), 'lineItem.assignDate'],
    ['NaN smuggled as a string', 'result', result({ score: 'NaN' }), 'result.score'],
    ['a score status of another version', 'result', result({ scoreStatus: 'fully_graded' }), 'result.scoreStatus'],
    ['a prototype key as the wrapper', 'result', JSON.parse('{"__proto__": {"result": {}}}'), 'result'],
  ])('refuses %s', (_label, kind, body, field) => {
    expect(fieldOf(() => v1p1(kind as GradebookClass, body, 'id-1'))).toBe(field);
  });

  it('keeps surrogate pairs (emoji) and accepts a matching body sourcedId', () => {
    expect(v1p1('category', { category: { sourcedId: 'c-😀', title: 'Stars ⭐😀' } }, 'c-😀').title).toBe('Stars ⭐😀');
  });

  it('checks sourcedIds as the importer does', () => {
    expect(checkSourcedId('a b/c?#%')).toBeUndefined();
    expect(checkSourcedId('x'.repeat(256))).toBeUndefined();
    expect(checkSourcedId('x'.repeat(257))).toMatch(/longer than 256/);
    expect(checkSourcedId('a\tb')).toMatch(/control character/);
    expect(checkSourcedId(7)).toMatch(/string/);
  });
});

const ref = (sourcedId: string, type?: string) => ({ sourcedId, ...(type ? { type } : {}) });
const lineItem12 = (over: Record<string, unknown> = {}) => ({
  lineItem: {
    title: 'Quiz',
    assignDate: '2024-01-01T00:00:00Z',
    dueDate: '2024-01-02T00:00:00Z',
    class: ref('c-1'),
    school: ref('s-1'),
    category: ref('cat-1'),
    ...over,
  },
});
const result12 = (over: Record<string, unknown> = {}) => ({
  result: {
    lineItem: ref('li-1'),
    student: ref('u-1'),
    scoreStatus: 'fully graded',
    score: 1,
    scoreDate: '2024-01-03',
    ...over,
  },
});

describe('v1.2 write bodies', () => {
  it('reads the new fields: extension statuses, text scores, flags as strings or booleans, learning objectives', () => {
    const values = v1p2(
      'result',
      result12({
        scoreStatus: 'ext:regraded',
        score: undefined,
        textScore: 'B+',
        comment: '',
        inProgress: 'true',
        late: false,
        learningObjectiveSet: [
          {
            source: 'state',
            learningObjectiveResults: [
              { learningObjectiveId: 'lo-1', score: 3 },
              { learningObjectiveId: 'lo-2', textScore: 'met' },
            ],
          },
        ],
      }),
      'r-1',
    );
    expect(values).toMatchObject({
      scoreStatus: 'ext:regraded',
      score: null,
      textScore: 'B+',
      comment: null,
      inProgress: true,
      late: false,
      incomplete: null,
    });
    expect(values.learningObjectiveSet).toEqual([
      {
        source: '/state',
        learningObjectiveResults: [
          { learningObjectiveId: 'lo-1', score: 3 },
          { learningObjectiveId: 'lo-2', textScore: 'met' },
        ],
      },
    ]);
    expect(
      v1p2(
        'lineItem',
        lineItem12({
          learningObjectiveSet: [
            { source: 'case', learningObjectiveIds: ['x'] },
            { source: '/unknown', learningObjectiveIds: ['y'] },
          ],
        }),
        'li-1',
      ).learningObjectiveSet,
    ).toEqual([
      { source: 'case', learningObjectiveIds: ['x'] },
      { source: 'unknown', learningObjectiveIds: ['y'] },
    ]);
    expect(v1p2('lineItem', lineItem12({ learningObjectiveSet: [] }), 'li-1').learningObjectiveSet).toBeNull();
  });

  it.each([
    ['an unknown property', 'category', { category: { title: 'x', colour: 'red' } }, 'category.colour'],
    ['another top-level key', 'category', { category: { title: 'x' }, extra: 1 }, 'extra'],
    [
      'an unknown GUIDRef key',
      'lineItem',
      lineItem12({ class: { sourcedId: 'c-1', name: 'x' } }),
      'lineItem.class.name',
    ],
    [
      'a subtype as GUIDRef type',
      'lineItem',
      lineItem12({ gradingPeriod: ref('gp-1', 'gradingPeriod') }),
      'lineItem.gradingPeriod.type',
    ],
    ['a missing school', 'lineItem', lineItem12({ school: undefined }), 'lineItem.school'],
    ['a missing category', 'lineItem', lineItem12({ category: undefined }), 'lineItem.category'],
    ['neither score nor textScore', 'result', result12({ score: undefined }), 'result.score'],
    ['a malformed extension status', 'result', result12({ scoreStatus: 'ext:' }), 'result.scoreStatus'],
    ['a flag of another spelling', 'result', result12({ missing: 'yes' }), 'result.missing'],
    [
      'an objective source with capitals',
      'lineItem',
      lineItem12({ learningObjectiveSet: [{ source: 'State', learningObjectiveIds: ['x'] }] }),
      'lineItem.learningObjectiveSet[0].source',
    ],
    [
      'an objective set without ids',
      'lineItem',
      lineItem12({ learningObjectiveSet: [{ source: 'case', learningObjectiveIds: [] }] }),
      'lineItem.learningObjectiveSet[0].learningObjectiveIds',
    ],
    [
      'an empty objective id',
      'lineItem',
      lineItem12({ learningObjectiveSet: [{ source: 'case', learningObjectiveIds: [''] }] }),
      'lineItem.learningObjectiveSet[0].learningObjectiveIds[0]',
    ],
    [
      'no score scale values',
      'scoreScale',
      { scoreScale: { title: 'A-F', type: 'letter', class: ref('c-1'), scoreScaleValue: [] } },
      'scoreScale.scoreScaleValue',
    ],
    [
      'a score scale value not a string',
      'scoreScale',
      {
        scoreScale: {
          title: 'A-F',
          type: 'letter',
          class: ref('c-1'),
          scoreScaleValue: [{ itemValueLHS: 'A', itemValueRHS: 90 }],
        },
      },
      'scoreScale.scoreScaleValue[0].itemValueRHS',
    ],
  ])('refuses %s, naming the field', (_label, kind, body, field) => {
    const e = refusal(() => v1p2(kind as GradebookClass, body, 'id-1'));
    expect([e.field, e.problem]).toEqual([field, 'field']);
  });

  it('refuses what is not the wrapper as an envelope problem', () => {
    for (const body of [null, [], 'x', { lineItems: [] }, { lineItem: 'x' }])
      expect(refusal(() => v1p2('lineItem', body, 'li-1')).problem).toBe('envelope');
  });

  it('reads POST records with their supplied ids, refusing missing, repeated and too many', () => {
    const records = postedRecords(
      'category',
      {
        categories: [
          { sourcedId: 'tmp-1', title: 'A' },
          { sourcedId: 'tmp-2', title: 'B' },
        ],
      },
      true,
    );
    expect(records.map((r) => [r.suppliedId, readRecord(V1P2_BODIES, 'category', r.reader).title])).toEqual([
      ['tmp-1', 'A'],
      ['tmp-2', 'B'],
    ]);
    expect(fieldOf(() => postedRecords('category', { categories: [{ title: 'A' }] }, true))).toBe(
      'categories[0].sourcedId',
    );
    expect(
      fieldOf(() => postedRecords('category', { categories: [{ sourcedId: 'a' }, { sourcedId: 'a' }] }, true)),
    ).toBe('categories[1].sourcedId');
    expect(fieldOf(() => postedRecords('category', { categories: [7] }, true))).toBe('categories[0]');
    const many = Array.from({ length: MAX_POSTED_RECORDS + 1 }, (_, i) => ({ sourcedId: `t-${i}` }));
    expect(refusal(() => postedRecords('category', { categories: many }, true))).toMatchObject({
      field: 'categories',
      problem: 'field',
    });
    expect(refusal(() => postedRecords('category', { categories: {} }, true)).problem).toBe('envelope');
  });
});
