/** Statuses whose Retry-After the dispatcher honours (the receiver is rate limiting or down for a while). */
export const RETRY_AFTER_STATUSES: ReadonlySet<number> = new Set([429, 503]);

const HTTP_DATE = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun)/;

/**
 * The wait a Retry-After value asks for, in seconds from `now` (RFC 9110 §10.2.3: delay-seconds
 * or an HTTP-date; a date in the past asks for 0). Undefined when absent or unreadable, in which
 * case the schedule alone decides.
 */
export function retryAfterSeconds(value: string | null | undefined, now = Date.now()): number | undefined {
  const v = value?.trim();
  if (!v) return undefined;
  if (/^\d+$/.test(v)) return Number(v);
  if (!HTTP_DATE.test(v)) return undefined;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

export interface RetryAfterSettings {
  /** Longest wait honoured, in seconds; a longer one is cut to it (and logged). */
  maxSeconds: number;
  /** Milliseconds one asked second stands for: 1000, or less in tests (the scaled clock of the schedule tests). */
  secondMs: number;
}

/** How a receiver's Retry-After moves the next attempt: at least the asked wait, up to the cap. */
export interface RetryAfterDecision {
  askedSeconds: number;
  /** The wait honoured, in seconds (the asked one, or the cap). */
  honouredSeconds: number;
  capped: boolean;
  /** The honoured wait in milliseconds of this dispatcher's clock. */
  ms: number;
}

/** The wait to honour for an answer, or undefined when it asks for none (other status, no header). */
export function retryAfterDecision(
  status: number | null,
  header: string | null,
  s: RetryAfterSettings,
  now = Date.now(),
): RetryAfterDecision | undefined {
  if (status === null || !RETRY_AFTER_STATUSES.has(status)) return undefined;
  const asked = retryAfterSeconds(header, now);
  if (asked === undefined) return undefined;
  const honoured = Math.min(asked, s.maxSeconds);
  return { askedSeconds: asked, honouredSeconds: honoured, capped: asked > s.maxSeconds, ms: honoured * s.secondMs };
}
