import { specProblems, toSpec } from './spec-problems';
import { canonicalSpec, MAX_LIST_ENTRIES, specHash } from './sharing-spec';

describe('sharing spec validation', () => {
  it('accepts every mode with its lists and rules', () => {
    expect(specProblems({ mode: 'all' })).toEqual([]);
    expect(specProblems({ mode: 'schools', schools: ['s1'], withhold: ['contact', 'birth_date'] })).toEqual([]);
    expect(specProblems({ mode: 'classes', classes: [] })).toEqual([]);
    expect(
      specProblems({
        mode: 'rules',
        rules: [
          { object: 'class', field: 'subject', op: 'contains', value: 'math' },
          { object: 'user', field: 'role', op: 'in', value: ['student', 'teacher'] },
        ],
      }),
    ).toEqual([]);
  });

  it('names an unknown mode, object, field, op and withhold category', () => {
    const fields = (body: unknown) => specProblems(body).map((p) => p.field);
    expect(fields({ mode: 'some' })).toEqual(['mode']);
    expect(specProblems({ mode: 'some' })[0]?.problem).toContain('"some"');
    expect(fields({ mode: 'rules', rules: [{ object: 'course', field: 'title', op: 'is', value: 'x' }] })).toEqual([
      'rules[0].object',
    ]);
    expect(fields({ mode: 'rules', rules: [{ object: 'class', field: 'colour', op: 'is', value: 'x' }] })).toEqual([
      'rules[0].field',
    ]);
    expect(fields({ mode: 'rules', rules: [{ object: 'user', field: 'role', op: 'like', value: 'x' }] })).toEqual([
      'rules[0].op',
    ]);
    expect(fields({ mode: 'all', withhold: ['contact', 'shoe_size'] })).toEqual(['withhold[1]']);
    expect(fields({ mode: 'all', colour: 'red' })).toEqual(['colour']);
  });

  it('refuses values of the wrong type, empty rule sets and lists over the limit', () => {
    const fields = (body: unknown) => specProblems(body).map((p) => p.field);
    expect(fields({ mode: 'rules', rules: [{ object: 'user', field: 'role', op: 'in', value: 'student' }] })).toEqual([
      'rules[0].value',
    ]);
    expect(fields({ mode: 'rules', rules: [{ object: 'user', field: 'role', op: 'is', value: ['a'] }] })).toEqual([
      'rules[0].value',
    ]);
    expect(fields({ mode: 'rules', rules: [] })).toEqual(['rules']);
    const many = Array.from({ length: MAX_LIST_ENTRIES + 1 }, (_, i) => `c${i}`);
    expect(fields({ mode: 'classes', classes: many })).toEqual(['classes']);
    expect(fields({ mode: 'classes', classes: ['ok', 7] })).toEqual(['classes[1]']);
    expect(fields([])).toEqual(['(body)']);
  });

  it('hashes specs by meaning: order and duplicates of lists, unused lists do not matter', () => {
    const a = toSpec({ mode: 'classes', classes: ['b', 'a', 'a'], schools: ['x'], withhold: ['contact'] });
    const b = toSpec({ mode: 'classes', classes: ['a', 'b'], withhold: ['contact', 'contact'] });
    expect(canonicalSpec(a)).toEqual(canonicalSpec(b));
    expect(specHash(a)).toBe(specHash(b));
    expect(specHash(a)).not.toBe(specHash(toSpec({ mode: 'classes', classes: ['a', 'b'] })));
  });
});
