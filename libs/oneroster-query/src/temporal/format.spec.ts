import { formatDate, formatDateTime } from './format';

describe('formatDateTime', () => {
  const instant = new Date('2024-01-31T23:59:59.123Z');

  it('emits the compact form of spec 2.9', () => {
    expect(formatDateTime(instant, 'compact')).toBe('20240131T235959.123Z');
  });

  it('emits ISO 8601 with milliseconds', () => {
    expect(formatDateTime(instant, 'iso8601')).toBe('2024-01-31T23:59:59.123Z');
  });

  it('always shows milliseconds, in UTC', () => {
    expect(formatDateTime(new Date('2024-08-20T16:03:11+02:00'), 'iso8601')).toBe('2024-08-20T14:03:11.000Z');
    expect(formatDateTime(new Date('2024-08-20T16:03:11+02:00'), 'compact')).toBe('20240820T140311.000Z');
  });

  it('accepts a datetime string', () => {
    expect(formatDateTime('2024-01-31T23:59:59.123Z', 'compact')).toBe('20240131T235959.123Z');
  });

  it('rejects invalid and out-of-range instants', () => {
    expect(() => formatDateTime(new Date('nope'), 'iso8601')).toThrow(RangeError);
    expect(() => formatDateTime('garbage', 'compact')).toThrow(RangeError);
    expect(() => formatDateTime(new Date(Date.UTC(10000, 0, 1)), 'compact')).toThrow(RangeError);
  });
});

describe('formatDate', () => {
  it.each([
    ['2024-01-31', 'compact', '20240131'],
    ['2024-01-31', 'iso8601', '2024-01-31'],
    ['20240131', 'iso8601', '2024-01-31'],
    ['20240131', 'compact', '20240131'],
  ] as const)('%s as %s → %s', (input, mode, expected) => expect(formatDate(input, mode)).toBe(expected));

  it('uses the UTC calendar day of a Date', () => {
    expect(formatDate(new Date('2024-01-31T23:30:00Z'), 'compact')).toBe('20240131');
    expect(formatDate(new Date('2024-01-31T00:30:00+01:00'), 'iso8601')).toBe('2024-01-30');
  });

  it('rejects what is not a date', () => {
    expect(() => formatDate('2024-02-30', 'compact')).toThrow(RangeError);
    expect(() => formatDate('31/01/2024', 'iso8601')).toThrow(RangeError);
    expect(() => formatDate(new Date(Number.NaN), 'iso8601')).toThrow(RangeError);
  });
});
