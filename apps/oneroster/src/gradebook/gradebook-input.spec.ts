import { checkSourcedId, GradebookInputError, readGradebookBody } from './gradebook-input';

function fieldOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof GradebookInputError) return e.field;
    throw e;
  }
  throw new Error('expected a GradebookInputError');
}

const lineItem = (over: Record<string, unknown> = {}) => ({
  lineItem: { title: 'Quiz', assignDate: '2024-01-01T00:00:00Z', dueDate: '2024-01-02T00:00:00Z', class: { sourcedId: 'c-1' }, ...over },
});
const result = (over: Record<string, unknown> = {}) => ({
  result: { lineItem: { sourcedId: 'li-1' }, student: { sourcedId: 's-1' }, scoreStatus: 'fully graded', score: 1, scoreDate: '2024-01-03', ...over },
});

describe('gradebook PUT bodies', () => {
  it('normalises a line item: instants in UTC with milliseconds, optional references absent', () => {
    expect(readGradebookBody('lineItem', lineItem({ dueDate: '2024-01-02T10:00:00+10:00', resultValueMax: 100 }), 'li-1')).toEqual({
      title: 'Quiz',
      description: null,
      assignDate: '2024-01-01T00:00:00.000Z',
      dueDate: '2024-01-02T00:00:00.000Z',
      classId: 'c-1',
      categoryId: null,
      gradingPeriodId: null,
      resultValueMin: null,
      resultValueMax: 100,
      metadata: null,
    });
  });

  it('reads score statuses in any letter case, scores as given, dates from datetimes', () => {
    expect(readGradebookBody('result', result({ scoreStatus: 'NOT SUBMITTED', score: undefined, scoreDate: '2024-01-03T23:30:00-02:00' }), 'r-1')).toMatchObject({
      scoreStatus: 'not submitted',
      score: null,
      scoreDate: '2024-01-04',
    });
    expect(readGradebookBody('result', result({ score: -0 }), 'r-1').score).toBe(0);
    expect(readGradebookBody('result', result({ score: 1e21 }), 'r-1').score).toBe(1e21);
  });

  it.each([
    ['a NUL in a title', 'category', { category: { title: 'a\u0000' } }, 'category.title'],
    ['an unpaired high surrogate', 'category', { category: { title: 'a\ud800' } }, 'category.title'],
    ['an unpaired low surrogate in a metadata key', 'category', { category: { title: 'x', metadata: { '\udc00': 1 } } }, 'category.metadata'],
    ['a NUL deep in metadata', 'category', { category: { title: 'x', metadata: { a: [{ b: 'c\u0000' }] } } }, 'category.metadata'],
    ['a control character in a reference', 'lineItem', lineItem({ class: { sourcedId: 'c\n1' } }), 'lineItem.class.sourcedId'],
    ['an empty reference id', 'lineItem', lineItem({ class: { sourcedId: '' } }), 'lineItem.class.sourcedId'],
    ['a datetime beyond year 9999', 'lineItem', lineItem({ dueDate: '9999-12-31T23:00:00-05:00' }), 'lineItem.dueDate'],
    ['a compact date alone', 'lineItem', lineItem({ assignDate: '20240101' }), 'lineItem.assignDate'],
    ['NaN smuggled as a string', 'result', result({ score: 'NaN' }), 'result.score'],
    ['a score status of another version', 'result', result({ scoreStatus: 'fully_graded' }), 'result.scoreStatus'],
    ['a prototype key as the wrapper', 'result', JSON.parse('{"__proto__": {"result": {}}}'), 'result'],
  ])('refuses %s', (_label, kind, body, field) => {
    expect(fieldOf(() => readGradebookBody(kind as 'category' | 'lineItem' | 'result', body, 'id-1'))).toBe(field);
  });

  it('keeps surrogate pairs (emoji) and accepts a matching body sourcedId', () => {
    expect(readGradebookBody('category', { category: { sourcedId: 'c-😀', title: 'Stars ⭐😀' } }, 'c-😀').title).toBe('Stars ⭐😀');
  });

  it('checks sourcedIds as the importer does', () => {
    expect(checkSourcedId('a b/c?#%')).toBeUndefined();
    expect(checkSourcedId('x'.repeat(256))).toBeUndefined();
    expect(checkSourcedId('x'.repeat(257))).toMatch(/longer than 256/);
    expect(checkSourcedId('a\tb')).toMatch(/control character/);
    expect(checkSourcedId(7)).toMatch(/string/);
  });
});
