import type { AuthOutcome } from './rate-limits';

/** Where the guard leaves a request's pending budgets (the same object in Express and in oidc-provider's `ctx.req`). */
const SETTLE = Symbol('rate-limit.settle-client-authentication');

type Settle = (outcome: AuthOutcome) => Promise<void>;

/** Called by the guard for a request whose budgets depend on whether its client authenticates. */
export function awaitClientAuthentication(req: object, settle: Settle): void {
  (req as Record<symbol, unknown>)[SETTLE] = settle;
}

/**
 * Tells the rate limits whether the client of this request authenticated: a failure spends the
 * failure budgets (per address and per client id at that address), a success the client's own
 * token budget. Once per request; nothing when rate limits are off or the route has no such budgets.
 */
export async function settleClientAuthentication(req: object, outcome: AuthOutcome): Promise<void> {
  const holder = req as Record<symbol, unknown>;
  const settle = holder[SETTLE] as Settle | undefined;
  if (!settle) return;
  delete holder[SETTLE];
  await settle(outcome);
}
