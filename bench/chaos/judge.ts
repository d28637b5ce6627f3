/**
 * What clients may see while something is broken: 429, 503 with Retry-After, and a refused or
 * reset connection to a process while it is down. Everything else in a window (a 500, a 503
 * without Retry-After, a 4xx other than 429, no answer from a process that was up, an answer
 * that changed) fails it, except a 4xx that follows a setback of the same client within a minute:
 * the soak's clients go on after a failed request (a result PUT for the line item whose PUT was
 * refused answers 400, and rightly so).
 */
import type { RecordedAnswer, WrongAnswer } from './recorder';
import type { ChaosService } from './service';

/** How long after a setback (no answer, 503, 429) a client's 4xx is taken for a consequence of it. */
const SETBACK_WINDOW_MS = 60_000;

/** Socket errors of a connection to a process that is gone or going (undici's names included). */
const DOWN_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'other side closed']);

export interface WindowVerdict {
  /** Answers by kind: `200`, `429`, `503+Retry-After`, `refused (down)`, `500`, ... */
  byStatus: Record<string, number>;
  failures: number;
  /** A few of the failing answers, to say what went wrong. */
  samples: string[];
  /** Every answer other than 2xx, 3xx and 429 (at most 40), in order: what the clients went through. */
  timeline: string[];
}

function kindOf(a: RecordedAnswer): string {
  if (a.status === 0) return a.error ?? 'no answer';
  if (a.status === 503 && a.retryAfter) return '503+Retry-After';
  return String(a.status);
}

/** When each client had a setback: a request that got no answer, a 503 or a 429. */
export function setbacksOf(answers: readonly RecordedAnswer[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const a of answers)
    if (a.client && (a.status === 0 || a.status === 503 || a.status === 429))
      out.set(a.client, [...(out.get(a.client) ?? []), a.at]);
  return out;
}

function afterSetback(a: RecordedAnswer, setbacks: ReadonlyMap<string, readonly number[]>): boolean {
  const times = a.client ? setbacks.get(a.client) : undefined;
  return times?.some((t) => t < a.at && a.at - t <= SETBACK_WINDOW_MS) ?? false;
}

function allowed(a: RecordedAnswer, services: readonly ChaosService[]): boolean {
  if (a.status === 0) {
    const target = services.find((s) => new URL(s.url).origin === a.origin);
    return DOWN_ERRORS.has(a.error ?? '') && target !== undefined && target.wasDownAt(a.at);
  }
  if (a.status === 503) return a.retryAfter;
  return a.status < 400 || a.status === 429;
}

export function judgeWindow(
  answers: readonly RecordedAnswer[],
  wrong: readonly WrongAnswer[],
  services: readonly ChaosService[],
  setbacks: ReadonlyMap<string, readonly number[]>,
): WindowVerdict {
  const byStatus: Record<string, number> = {};
  const samples: string[] = [];
  const timeline: string[] = [];
  let failures = 0;
  for (const a of answers) {
    const consequence = a.status >= 400 && a.status < 500 && a.status !== 429 && afterSetback(a, setbacks);
    const ok = consequence || allowed(a, services);
    const kind = consequence
      ? `${a.status} (after a setback)`
      : a.status === 0 && ok
        ? `${kindOf(a)} (down)`
        : kindOf(a);
    byStatus[kind] = (byStatus[kind] ?? 0) + 1;
    if ((a.status === 0 || a.status >= 400) && a.status !== 429 && timeline.length < 40)
      timeline.push(
        `${new Date(a.at).toISOString().slice(11, 23)} ${a.what} -> ${kind}${a.excerpt ? ` ${a.excerpt}` : ''}`,
      );
    if (ok) continue;
    failures++;
    if (samples.length < 8) samples.push(`${a.what} -> ${kind}${a.excerpt ? ` ${a.excerpt}` : ''}`);
  }
  for (const w of wrong) {
    failures++;
    byStatus['wrong answer'] = (byStatus['wrong answer'] ?? 0) + 1;
    if (samples.length < 8) samples.push(`${w.what}: ${w.detail}`);
  }
  return { byStatus, failures, samples, timeline };
}
