/** Readiness of the four processes: each one's `/health/ready` (PostgreSQL, and Redis where used). */
import { sleep } from '../soak/http';
import type { Stack } from '../soak/workload';

const POLL_MS = 250;

async function ready(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

export async function allReady(stack: Stack): Promise<boolean> {
  const answers = await Promise.all(
    [stack.identity, stack.oneroster, stack.alerts, stack.dispatcher].map((u) => ready(u)),
  );
  return answers.every(Boolean);
}

/** Polls until every readiness check is green at once; the time it was, or undefined after `timeoutMs`. */
export async function untilAllReady(stack: Stack, timeoutMs: number): Promise<number | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await allReady(stack)) return Date.now();
    await sleep(POLL_MS);
  }
  return undefined;
}
