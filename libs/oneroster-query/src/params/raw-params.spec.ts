import { OneRosterQueryError } from '../errors';
import { paramValues, singleParam } from './raw-params';

describe('reading raw query parameters', () => {
  it('matches names case-insensitively but does not trim them', () => {
    expect(singleParam({ orderby: 'desc' }, 'orderBy')).toBe('desc');
    expect(singleParam({ ORDERBY: 'desc' }, 'orderBy')).toBe('desc');
    expect(singleParam({ 'limit ': 'abc' }, 'limit')).toBeUndefined();
  });

  it('treats undefined as absent', () => {
    expect(singleParam({ limit: undefined }, 'limit')).toBeUndefined();
    expect(paramValues({}, 'fields')).toEqual([]);
  });

  it('accepts a repeated parameter whose values agree', () => {
    expect(singleParam({ limit: ['10', '10'] }, 'limit')).toBe('10');
    expect(singleParam({ orderBy: 'desc', orderby: 'desc' }, 'orderBy')).toBe('desc');
  });

  it('rejects a repeated parameter whose values differ', () => {
    expect(() => singleParam({ limit: ['10', '20'] }, 'limit')).toThrow(OneRosterQueryError);
    expect(() => singleParam({ orderBy: 'asc', orderby: 'desc' }, 'orderBy')).toThrow(/2 times with different values/);
  });

  it('rejects values that are not strings', () => {
    expect(() => singleParam({ filter: { a: 'b' } }, 'filter')).toThrow(/plain string/);
    expect(() => paramValues({ fields: ['a', { b: 'c' }] }, 'fields')).toThrow(OneRosterQueryError);
    expect(() => singleParam({ limit: 5 }, 'limit')).toThrow(OneRosterQueryError);
  });

  it('collects every value in order', () => {
    expect(paramValues({ fields: ['a', 'b'], Fields: 'c' }, 'fields')).toEqual(['a', 'b', 'c']);
  });
});
