/**
 * What clients may see while something is broken: 429, 503 with Retry-After, and a refused or
 * reset connection to a process while it is down. Everything else in a window (a 500, a 503
 * without Retry-After, a 4xx other than 429, no answer from a process that was up, an answer
 * that changed) fails it.
 */
import type { RecordedAnswer, WrongAnswer } from './recorder';
import type { ChaosService } from './service';

/** Socket errors of a connection to a process that is gone or going (undici's names included). */
const DOWN_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE', 'other side closed']);

export interface WindowVerdict {
  /** Answers by kind: `200`, `429`, `503+Retry-After`, `refused (down)`, `500`, ... */
  byStatus: Record<string, number>;
  failures: number;
  /** A few of the failing answers, to say what went wrong. */
  samples: string[];
}

function kindOf(a: RecordedAnswer): string {
  if (a.status === 0) return a.error ?? 'no answer';
  if (a.status === 503 && a.retryAfter) return '503+Retry-After';
  return String(a.status);
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
): WindowVerdict {
  const byStatus: Record<string, number> = {};
  const samples: string[] = [];
  let failures = 0;
  for (const a of answers) {
    const ok = allowed(a, services);
    const kind = a.status === 0 && ok ? `${kindOf(a)} (down)` : kindOf(a);
    byStatus[kind] = (byStatus[kind] ?? 0) + 1;
    if (ok) continue;
    failures++;
    if (samples.length < 8) samples.push(`${a.what} -> ${kind}${a.excerpt ? ` ${a.excerpt}` : ''}`);
  }
  for (const w of wrong) {
    failures++;
    byStatus['wrong answer'] = (byStatus['wrong answer'] ?? 0) + 1;
    if (samples.length < 8) samples.push(`${w.what}: ${w.detail}`);
  }
  return { byStatus, failures, samples };
}
