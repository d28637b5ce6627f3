/**
 * A partner's copy of a deployment's roster, as the change feed's guide tells partners to keep
 * it: every object of every collection by sourcedId; `created` and `updated` replace the object
 * with the event's `data`, `deleted` (or an object whose status is `tobedeleted`) removes it.
 */
export type Copy = Map<string, Map<string, unknown>>;

export interface FeedEvent {
  id: string;
  type: string;
  object: string;
  sourcedId: string;
  data: Record<string, unknown> | null;
}

export function applyEvents(copy: Copy, events: readonly FeedEvent[]): Copy {
  const out: Copy = new Map([...copy].map(([k, v]) => [k, new Map(v)]));
  for (const e of events) {
    const objects = out.get(e.object) ?? new Map<string, unknown>();
    out.set(e.object, objects);
    if (e.type.endsWith('.deleted') || !e.data || e.data['status'] === 'tobedeleted') objects.delete(e.sourcedId);
    else objects.set(e.sourcedId, e.data);
  }
  return out;
}

/** Event ids (`batch.n`) in strictly increasing feed order, none twice. */
export function inFeedOrder(events: readonly FeedEvent[]): boolean {
  const key = (id: string) => id.split('.').map((p) => BigInt(p)) as [bigint, bigint];
  for (let i = 1; i < events.length; i++) {
    const [a, b] = [key(events[i - 1]!.id), key(events[i]!.id)];
    if (!(b[0] > a[0] || (b[0] === a[0] && b[1] > a[1]))) return false;
  }
  return true;
}

/** Collections whose differences are listed (first few per collection), for a readable failure. */
export function differences(a: Copy, b: Copy): string[] {
  const out: string[] = [];
  for (const name of new Set([...a.keys(), ...b.keys()])) {
    const [x, y] = [a.get(name) ?? new Map(), b.get(name) ?? new Map()];
    const diff = [...new Set([...x.keys(), ...y.keys()])].filter(
      (id) => JSON.stringify(x.get(id)) !== JSON.stringify(y.get(id)),
    );
    if (diff.length > 0)
      out.push(
        `${name}: ${diff.length} differ, e.g. ${diff
          .slice(0, 3)
          .map(
            (id) => `${id}: ${JSON.stringify(x.get(id))?.slice(0, 160)} vs ${JSON.stringify(y.get(id))?.slice(0, 160)}`,
          )
          .join('; ')}`,
      );
  }
  return out;
}
