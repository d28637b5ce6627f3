import { Injectable } from '@nestjs/common';
import { Counter, Gauge } from 'prom-client';
import { MetricsRegistry } from '@edu/http';
import { ResponseCache } from './response-cache';

/** How reads were answered, so an operator can size `ONEROSTER_RESPONSE_CACHE_BYTES` and see revalidation at work. */
export type ReadOutcome = 'not_modified' | 'cached' | 'rendered' | 'untagged' | 'guess_missed';

/** Metrics of the conditional reads beyond the per-route HTTP histogram. */
@Injectable()
export class CachingMetrics {
  private readonly reads: Counter<'outcome'>;

  constructor(metrics: MetricsRegistry, cache: ResponseCache) {
    const registers = [metrics.registry];
    this.reads = new Counter({
      name: 'oneroster_reads_total',
      help: "Successful OneRoster reads by outcome: not_modified (304), cached (sent from this replica's response cache), rendered (read from the database), untagged (answers with warnings: no ETag, not kept), guess_missed (rendered under the versions last seen, which had moved on: rendered again)",
      labelNames: ['outcome'],
      registers,
    });
    new Gauge({
      name: 'oneroster_response_cache_bytes',
      help: "Bytes held by this replica's response cache (bounded by ONEROSTER_RESPONSE_CACHE_BYTES)",
      registers,
      collect() {
        this.set(cache.size);
      },
    });
  }

  count(outcome: ReadOutcome): void {
    this.reads.inc({ outcome });
  }
}
