import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { OnerosterEnv } from '../oneroster.env';

/** An answer kept: its body as the UTF-8 bytes sent (outside the JS heap, never encoded again). */
export interface CachedAnswer {
  readonly body: Buffer;
  readonly headers: Readonly<Record<string, string>>;
}

/** Roughly what an entry costs besides its body: key, headers, bookkeeping. */
const ENTRY_OVERHEAD_BYTES = 512;

/**
 * Answers already written by this replica, keyed by their entity tag (a hash of everything the
 * bytes depend on: data versions, visibility, path, query), least recently used first out, bounded
 * by `ONEROSTER_RESPONSE_CACHE_BYTES` (0: nothing is kept). Entries never go stale: a change of
 * data or visibility changes the key, and the old entry just ages out.
 */
@Injectable()
export class ResponseCache {
  private readonly entries: LRUCache<string, CachedAnswer> | undefined;

  constructor(env: OnerosterEnv) {
    const maxSize = env.ONEROSTER_RESPONSE_CACHE_BYTES;
    this.entries =
      maxSize > 0
        ? new LRUCache<string, CachedAnswer>({
            maxSize,
            // One page never takes more than a quarter of the cache: a full sync's pages rotate through it.
            maxEntrySize: Math.max(1, Math.floor(maxSize / 4)),
            sizeCalculation: (value) => sizeOf(value),
          })
        : undefined;
  }

  get(etag: string): CachedAnswer | undefined {
    return this.entries?.get(etag);
  }

  set(etag: string, response: CachedAnswer): void {
    this.entries?.set(etag, response);
  }

  /** Bytes held now (for tests and metrics). */
  get size(): number {
    return this.entries?.calculatedSize ?? 0;
  }
}

function sizeOf(answer: CachedAnswer): number {
  let headers = 0;
  for (const [name, value] of Object.entries(answer.headers)) headers += name.length + value.length;
  return answer.body.length + headers + ENTRY_OVERHEAD_BYTES;
}
