/** What the soak measures: answers per minute, and each process's memory, lag and connections. */
import { quantile } from '../common/processes';

/** What a client saw besides the status: for the chaos bench, which judges each answer. */
export interface AnswerDetail {
  readonly url: string;
  readonly retryAfter: string | null;
  /** The answer's body text, when there was one. */
  readonly body?: string;
  /** Why there was no answer (status 0): ECONNREFUSED, ECONNRESET, timeout, ... */
  readonly error?: string;
  /** The client id the request was made as. */
  readonly client?: string;
}

/** Where the HTTP client reports each answer. */
export interface AnswerRecorder {
  record(status: number, ms: number, what: string, detail: AnswerDetail): void;
}

/** One minute's answers across the workload. */
export class MinuteCounts implements AnswerRecorder {
  readonly latencies: number[] = [];
  requests = 0;
  limited = 0;
  serverErrors = 0;
  readonly errorSamples: string[] = [];

  record(status: number, ms: number, what: string): void {
    this.requests++;
    this.latencies.push(ms);
    if (status === 429) this.limited++;
    if (status >= 500 || status === 0) {
      this.serverErrors++;
      if (this.errorSamples.length < 5) this.errorSamples.push(`${what} -> ${status || 'no answer'}`);
    }
  }

  p(q: number): number {
    return quantile(this.latencies, q);
  }

  /** The whole run's counts (latencies are not kept: they are per minute). */
  static sum(minutes: readonly MinuteCounts[]): {
    requests: number;
    limited: number;
    serverErrors: number;
    errorSamples: string[];
  } {
    return {
      requests: minutes.reduce((n, m) => n + m.requests, 0),
      limited: minutes.reduce((n, m) => n + m.limited, 0),
      serverErrors: minutes.reduce((n, m) => n + m.serverErrors, 0),
      errorSamples: minutes.flatMap((m) => m.errorSamples).slice(0, 10),
    };
  }
}

/** One scrape of a process's `/metrics`. */
export interface ProcessSample {
  readonly at: number;
  readonly rssBytes: number;
  readonly heapBytes: number;
  /** Event-loop lag p99 since the previous scrape (prom-client's monitorEventLoopDelay). */
  readonly lagSeconds: number;
}

/** A Prometheus text sample's value (the first line of that name, labels ignored). */
export function metricValue(text: string, name: string): number {
  const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(text);
  return m ? Number(m[1]) : Number.NaN;
}

export async function scrapeProcess(url: string): Promise<ProcessSample> {
  const text = await (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5_000) })).text();
  return {
    at: Date.now(),
    rssBytes: metricValue(text, 'process_resident_memory_bytes'),
    heapBytes: metricValue(text, 'nodejs_heap_size_used_bytes'),
    lagSeconds: metricValue(text, 'nodejs_eventloop_lag_p99_seconds'),
  };
}

/** Least-squares slope (per ms) and mean of samples (x = time). */
export function linearFit(points: readonly { x: number; y: number }[]): { slope: number; mean: number } {
  const n = points.length;
  const mx = points.reduce((s, p) => s + p.x, 0) / n;
  const my = points.reduce((s, p) => s + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - mx) * (p.y - my);
    den += (p.x - mx) ** 2;
  }
  return { slope: den === 0 ? 0 : num / den, mean: my };
}

export interface GrowthVerdict {
  readonly process: string;
  readonly series: 'rss' | 'heap';
  /** Growth the fitted line predicts over the second half, in bytes. */
  readonly growthBytes: number;
  readonly meanBytes: number;
  readonly mibPerHour: number;
  readonly unbounded: boolean;
}

/** Growth over the second half above both 10 % of that half's mean and this many bytes means a leak, not noise. */
export const GROWTH_FLOOR_BYTES = 16 * 1024 * 1024;
export const GROWTH_SHARE = 0.1;

/** Fits a line to each process's RSS and heap over the second half of the run. */
export function memoryVerdicts(samples: ReadonlyMap<string, readonly ProcessSample[]>): GrowthVerdict[] {
  const out: GrowthVerdict[] = [];
  for (const [process, all] of samples) {
    const half = all.slice(Math.floor(all.length / 2));
    if (half.length < 3) continue;
    const span = (half[half.length - 1] as ProcessSample).at - (half[0] as ProcessSample).at;
    for (const series of ['rss', 'heap'] as const) {
      const fit = linearFit(half.map((s) => ({ x: s.at, y: series === 'rss' ? s.rssBytes : s.heapBytes })));
      const growthBytes = fit.slope * span;
      out.push({
        process,
        series,
        growthBytes,
        meanBytes: fit.mean,
        mibPerHour: (fit.slope * 3_600_000) / 1024 ** 2,
        unbounded: growthBytes > GROWTH_FLOOR_BYTES && growthBytes > GROWTH_SHARE * fit.mean,
      });
    }
  }
  return out;
}
