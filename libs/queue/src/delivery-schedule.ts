/**
 * The retry schedule (spec §3, §8): the retry after failed attempt n waits base × 2^(n−1)
 * (5, 10, 20 ... 2,560 s with the spec's 5 s base), without jitter.
 */
export function retryDelayMs(baseMs: number, failedAttemptNumber: number): number {
  return Math.round(baseMs * 2 ** (failedAttemptNumber - 1));
}

/** Attempts in all: the first try plus the retries. */
export function totalAttempts(maxRetries: number): number {
  return maxRetries + 1;
}
