/**
 * Resolves once the wall clock reads `epochMs` or later: for a moment that the code under test
 * works out from the same clock (a token's expiry past its tolerance, the end of a rate-limit
 * window an answer announced), instead of a sleep of a guessed length.
 */
export async function untilClockReaches(epochMs: number): Promise<void> {
  while (Date.now() < epochMs) await new Promise((r) => setTimeout(r, Math.max(1, epochMs - Date.now())));
}
