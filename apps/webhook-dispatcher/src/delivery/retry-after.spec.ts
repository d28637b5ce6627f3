import { retryAfterDecision, retryAfterSeconds } from './retry-after';

describe('Retry-After', () => {
  const now = Date.parse('2026-03-01T10:00:00Z');
  const settings = { maxSeconds: 3_600, secondMs: 1_000 };

  it.each([
    ['120', 120],
    [' 0 ', 0],
    ['99999999999', 99_999_999_999],
    ['Sun, 01 Mar 2026 10:02:00 GMT', 120],
    ['Sunday, 01-Mar-26 10:00:30 GMT', 30],
    ['Sun, 01 Mar 2026 09:00:00 GMT', 0],
  ])('reads %j as %d seconds', (value, seconds) => {
    expect(retryAfterSeconds(value, now)).toBe(seconds);
  });

  it.each([[''], ['-5'], ['1.5'], ['soon'], ['2026-03-01T10:02:00Z'], ['Sun, 99 Foo 2026'], [null], [undefined]])(
    'ignores %j',
    (value) => {
      expect(retryAfterSeconds(value, now)).toBeUndefined();
    },
  );

  it('is honoured for 429 and 503 only, capped at the maximum', () => {
    expect(retryAfterDecision(503, '120', settings, now)).toEqual({
      askedSeconds: 120,
      honouredSeconds: 120,
      capped: false,
      ms: 120_000,
    });
    expect(retryAfterDecision(429, '86400', settings, now)).toEqual({
      askedSeconds: 86_400,
      honouredSeconds: 3_600,
      capped: true,
      ms: 3_600_000,
    });
    expect(retryAfterDecision(500, '120', settings, now)).toBeUndefined();
    expect(retryAfterDecision(null, '120', settings, now)).toBeUndefined();
    expect(retryAfterDecision(503, null, settings, now)).toBeUndefined();
  });

  it('scales asked seconds by the clock of the configuration (tests shrink it)', () => {
    expect(retryAfterDecision(503, '120', { maxSeconds: 3_600, secondMs: 10 }, now)?.ms).toBe(1_200);
  });
});
