/**
 * How the worker settles a job once the delivery service has handled it: the service decides,
 * the worker alone speaks BullMQ.
 * - `done`: the job completes (delivered, or nothing left to send).
 * - `postpone`: back to the delayed set for `ms` without spending an attempt.
 * - `retry`: the attempt failed and another is scheduled (BullMQ's backoff; at least `delayMs`
 *   later when the receiver asked for more with Retry-After).
 * - `give-up`: the attempt failed and was the last; the job fails.
 */
export type JobSettlement =
  | { kind: 'done' }
  | { kind: 'postpone'; ms: number }
  | { kind: 'retry'; reason: string; delayMs?: number }
  | { kind: 'give-up'; reason: string };

/** Shared by every job that completes, so the common path allocates nothing. */
export const DONE: JobSettlement = Object.freeze({ kind: 'done' });
