import { findCycles } from './reference-index';

describe('findCycles', () => {
  it('reports each parent cycle once and ignores chains that end', () => {
    const parents = new Map([
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'a'],
      ['d', 'a'],
      ['e', 'f'],
      ['s', 's'],
      ['x', 'outside'],
    ]);
    expect(findCycles(['d', 'a', 'b', 'c', 'e', 's', 'x'], parents)).toEqual(['a', 's']);
    expect(findCycles(['e', 'x'], parents)).toEqual([]);
  });
});
