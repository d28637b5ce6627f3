import { OneRosterQueryError } from '../errors';
import { parseLimit, parseOffset } from './paging-params';

function invalid(fn: () => unknown): OneRosterQueryError {
  try {
    fn();
  } catch (e) {
    if (e instanceof OneRosterQueryError) return e;
    throw e;
  }
  throw new Error('expected an error');
}

describe('parseLimit', () => {
  it('defaults to 100', () => expect(parseLimit(undefined)).toBe(100));

  it.each([
    ['1', 1],
    ['100', 100],
    ['1000', 1000],
    ['05', 5],
    [' 20 ', 20],
  ])('accepts %p', (text, value) => expect(parseLimit(text)).toBe(value));

  it.each([
    '0',
    '-1',
    '1001',
    '5000',
    'abc',
    '1.5',
    '',
    ' ',
    '1e2',
    '+5',
    '0x10',
    '99999999999999999999',
    'Infinity',
    'NaN',
    '10abc',
  ])('rejects %p with invaliddata on limit', (text) => {
    expect(invalid(() => parseLimit(text))).toMatchObject({ code: 'invaliddata', parameter: 'limit', httpStatus: 400 });
  });

  it('names the allowed range', () => {
    expect(invalid(() => parseLimit('1001')).message).toMatch(/between 1 and 1000/);
    expect(invalid(() => parseLimit('abc')).message).toMatch(/whole number/);
  });

  it('honours a configured default and maximum', () => {
    expect(parseLimit(undefined, 25, 50)).toBe(25);
    expect(parseLimit('50', 25, 50)).toBe(50);
    expect(invalid(() => parseLimit('51', 25, 50)).code).toBe('invaliddata');
  });

  it('serves a well-formed limit above the maximum as the maximum when asked to clamp', () => {
    expect(parseLimit('10000', 100, 1000, 'clamp')).toBe(1000);
    expect(parseLimit('5000', 100, 1000, 'clamp')).toBe(1000);
    expect(parseLimit('1000', 100, 1000, 'clamp')).toBe(1000);
    expect(parseLimit('7', 100, 1000, 'clamp')).toBe(7);
    expect(parseLimit(undefined, 100, 1000, 'clamp')).toBe(100);
    // Clamping is for large well-formed values only: garbage, zero and negatives stay errors.
    for (const text of ['0', '-1', 'abc', '1.5', '99999999999999999999', '']) {
      expect(invalid(() => parseLimit(text, 100, 1000, 'clamp'))).toMatchObject({
        code: 'invaliddata',
        parameter: 'limit',
      });
    }
  });
});

describe('parseOffset', () => {
  it('defaults to 0', () => expect(parseOffset(undefined)).toBe(0));

  it.each([
    ['0', 0],
    ['10', 10],
    ['1000000', 1000000],
    [' 7', 7],
  ])('accepts %p', (text, value) => expect(parseOffset(text)).toBe(value));

  it.each(['-1', 'abc', '1.5', '', '1e3', '99999999999999999999'])('rejects %p with invaliddata on offset', (text) => {
    expect(invalid(() => parseOffset(text))).toMatchObject({ code: 'invaliddata', parameter: 'offset' });
  });
});
