/**
 * Lost and duplicated alert deliveries, counted at the bench's receiver (not in the platform's
 * own delivery log): every message the alerts API accepted must reach each of the district's
 * webhooks at least once; a delivery (`jti`) that arrives more than once is a duplicate.
 */
import { sleep } from '../soak/http';

interface Received {
  jti: string;
  message: string | undefined;
  times: number;
}

export interface DeliveryCount {
  messages: number;
  expected: number;
  lost: number;
  duplicated: number;
}

/** Distinct deliveries and extra arrivals per message, over every webhook path. */
async function received(receiverUrl: string, paths: readonly string[]) {
  const distinct = new Map<string, number>();
  const extra = new Map<string, number>();
  for (const p of paths) {
    const list = (await (await fetch(`${receiverUrl}/received?path=${encodeURIComponent(p)}`)).json()) as Received[];
    for (const r of list) {
      if (!r.message) continue;
      distinct.set(r.message, (distinct.get(r.message) ?? 0) + 1);
      extra.set(r.message, (extra.get(r.message) ?? 0) + r.times - 1);
    }
  }
  return { distinct, extra };
}

export function countDeliveries(
  seen: Awaited<ReturnType<typeof received>>,
  messageIds: readonly string[],
  perMessage: number,
): DeliveryCount {
  let lost = 0;
  let duplicated = 0;
  for (const id of messageIds) {
    lost += Math.max(0, perMessage - (seen.distinct.get(id) ?? 0));
    duplicated += seen.extra.get(id) ?? 0;
  }
  return { messages: messageIds.length, expected: messageIds.length * perMessage, lost, duplicated };
}

/**
 * Waits until every accepted message arrived at every webhook (or `timeoutMs` passed), then
 * counts per segment of the run (the messages accepted between one fault's start and the next's).
 */
export async function drainAndCount(
  receiverUrl: string,
  paths: readonly string[],
  segments: readonly (readonly string[])[],
  timeoutMs: number,
): Promise<DeliveryCount[]> {
  const all = segments.flat();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seen = await received(receiverUrl, paths);
    const done = countDeliveries(seen, all, paths.length).lost === 0;
    if (done || Date.now() > deadline) return segments.map((ids) => countDeliveries(seen, ids, paths.length));
    await sleep(2_000);
  }
}
