import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { OnerosterEnv } from '../config/oneroster.env';
import type { RosterResponse } from '../roster/roster.service';

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
  private readonly entries: LRUCache<string, RosterResponse> | undefined;

  constructor(env: OnerosterEnv) {
    const maxSize = env.ONEROSTER_RESPONSE_CACHE_BYTES;
    this.entries =
      maxSize > 0
        ? new LRUCache<string, RosterResponse>({
            maxSize,
            // One page never takes more than a quarter of the cache: a full sync's pages rotate through it.
            maxEntrySize: Math.max(1, Math.floor(maxSize / 4)),
            sizeCalculation: (value) => sizeOf(value),
          })
        : undefined;
  }

  get(etag: string): RosterResponse | undefined {
    return this.entries?.get(etag);
  }

  set(etag: string, response: RosterResponse): void {
    this.entries?.set(etag, response);
  }

  /** Bytes held now (for tests and metrics). */
  get size(): number {
    return this.entries?.calculatedSize ?? 0;
  }
}

function sizeOf(response: RosterResponse): number {
  let headers = 0;
  for (const [name, value] of Object.entries(response.headers)) headers += name.length + value.length;
  return Buffer.byteLength(response.body) + headers + ENTRY_OVERHEAD_BYTES;
}
