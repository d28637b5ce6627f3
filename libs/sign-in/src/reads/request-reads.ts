import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A request's memo of the rows sign-in reads. One sign-in step reads the same app, tenant,
 * deployment and interaction several times (the provider, the portal's use cases, the checks);
 * inside one HTTP request they are read once, or primed by one batched read at its start. Nothing
 * outlives the request, so no change made between two requests is ever missed; a write through
 * sign-in forgets what it changed.
 */
const store = new AsyncLocalStorage<Map<string, Promise<unknown>>>();

/** Runs `fn` (one HTTP request's handling) with a memo of its own. */
export function withRequestReads<T>(fn: () => T): T {
  return store.run(new Map(), fn);
}

/** The value read under `key` in this request, else `load()`'s (remembered; a failed read is not). */
export function memoRead<T>(key: string, load: () => Promise<T>): Promise<T> {
  const memo = store.getStore();
  if (!memo) return load();
  const known = memo.get(key) as Promise<T> | undefined;
  if (known) return known;
  const read = load();
  memo.set(key, read);
  read.catch(() => memo.delete(key));
  return read;
}

/** Remembers a value a batched read already has, for the reads of this request to come. */
export function primeRead(key: string, value: unknown): void {
  const memo = store.getStore();
  if (memo && !memo.has(key)) memo.set(key, Promise.resolve(value));
}

/** Forgets what this request read under these keys (after writing those rows). */
export function forgetReads(...keys: string[]): void {
  const memo = store.getStore();
  if (memo) for (const key of keys) memo.delete(key);
}

/** Forgets what this request read under keys starting with `prefix` ('' for everything). */
export function forgetReadsUnder(prefix: string): void {
  const memo = store.getStore();
  if (memo) for (const key of [...memo.keys()]) if (key.startsWith(prefix)) memo.delete(key);
}

/** True inside a request with a memo (a batched read is only worth it there). */
export function hasRequestReads(): boolean {
  return store.getStore() !== undefined;
}
