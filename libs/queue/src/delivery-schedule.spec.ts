import { retryDelayMs, totalAttempts } from './delivery-schedule';

describe('delivery retry schedule', () => {
  it('waits 5 s after the first failure and doubles up to 2,560 s before the tenth retry', () => {
    const delays = Array.from({ length: 10 }, (_, i) => retryDelayMs(5_000, i + 1) / 1000);
    expect(delays).toEqual([5, 10, 20, 40, 80, 160, 320, 640, 1280, 2560]);
    // The spec's "about 43 minutes" cap is the tenth delay itself.
    expect(Math.max(...delays) / 60).toBeCloseTo(42.67, 1);
    expect(delays.reduce((a, b) => a + b, 0)).toBe(5_115);
  });

  it('counts the first try among the attempts (10 retries = 11 attempts)', () => {
    expect(totalAttempts(10)).toBe(11);
  });

  it('scales with the configured base, for tests', () => {
    expect(retryDelayMs(10, 1)).toBe(10);
    expect(retryDelayMs(10, 4)).toBe(80);
  });
});
