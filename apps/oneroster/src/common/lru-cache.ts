/**
 * A small per-process LRU map with an optional time-to-live. Nothing here is shared between
 * replicas: callers put the tenant's data version into keys when an entry depends on data.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();

  /**
   * @param maxEntries entries kept (0 disables the cache)
   * @param ttlMs lifetime of an entry (0 or Infinity = no expiry by time)
   */
  constructor(
    private readonly maxEntries: number,
    private readonly ttlMs = 0,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    // Refresh recency: re-insert at the end of the Map's order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: K, value: V): void {
    if (this.maxEntries <= 0) return;
    this.entries.delete(key);
    const expiresAt = this.ttlMs > 0 && Number.isFinite(this.ttlMs) ? this.now() + this.ttlMs : Number.POSITIVE_INFINITY;
    this.entries.set(key, { value, expiresAt });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * An LRU whose misses are loaded once: concurrent callers asking for the same missing key share
 * one load (no stampede of identical count queries after an import).
 */
export class LoadingCache<K, V> {
  private readonly cache: LruCache<K, V>;
  private readonly inflight = new Map<K, Promise<V>>();

  constructor(maxEntries: number, ttlMs = 0, now: () => number = Date.now) {
    this.cache = new LruCache<K, V>(maxEntries, ttlMs, now);
  }

  peek(key: K): V | undefined {
    return this.cache.get(key);
  }

  async get(key: K, load: () => Promise<V>): Promise<V> {
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const pending = this.inflight.get(key);
    if (pending) return pending;
    const promise = load().then(
      (value) => {
        this.cache.set(key, value);
        this.inflight.delete(key);
        return value;
      },
      (err: unknown) => {
        this.inflight.delete(key);
        throw err;
      },
    );
    this.inflight.set(key, promise);
    return promise;
  }

  clear(): void {
    this.cache.clear();
  }
}
