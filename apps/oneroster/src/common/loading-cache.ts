import { LRUCache } from 'lru-cache';

/**
 * A per-process LRU (`lru-cache`) whose misses are loaded once: concurrent callers asking for the
 * same missing key share one load (no stampede of identical count queries after an import).
 * Nothing is shared between replicas: callers put the tenant's data version into keys when an
 * entry depends on data. Values are boxed so `null` can be cached too.
 */
export class LoadingCache<K extends string, V> {
  private readonly cache: LRUCache<K, { value: V }, () => Promise<V>>;

  /** @param ttlMs lifetime of an entry (0 = no expiry by time) */
  constructor(maxEntries: number, ttlMs = 0) {
    this.cache = new LRUCache<K, { value: V }, () => Promise<V>>({
      max: maxEntries,
      ttl: ttlMs > 0 && Number.isFinite(ttlMs) ? ttlMs : 0,
      fetchMethod: async (_key, _stale, { context }) => ({ value: await context() }),
    });
  }

  peek(key: K): V | undefined {
    return this.cache.get(key)?.value;
  }

  async get(key: K, load: () => Promise<V>): Promise<V> {
    const boxed = await this.cache.fetch(key, { context: load });
    return (boxed as { value: V }).value;
  }

  clear(): void {
    this.cache.clear();
  }
}
