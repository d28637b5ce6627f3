/** The soak's printed table and verdict. */
import type { Submitted } from './workload';
import type { GrowthVerdict, MinuteCounts, ProcessSample } from './stats';

const MIB = 1024 ** 2;
const mb = (bytes: number) => (Number.isFinite(bytes) ? String(Math.round(bytes / MIB)) : '?');
const pad = (s: string | number, n: number) => String(s).padStart(n);

export const TABLE_HEADER = [
  '  min  req/s  p50 ms  p99 ms   429  5xx',
  'identity rss/heap MB',
  'oneroster rss/heap MB',
  'alerts rss/heap MB',
  'dispatcher rss/heap MB',
  'lag p99 ms (max)',
  'db conns i/o/a/d',
  'load 1m',
].join(' | ');

/** One minute: answers across the workload, then each process as last scraped. */
export function minuteLine(
  index: number,
  m: MinuteCounts,
  processes: ReadonlyMap<string, ProcessSample>,
  dbConnections: readonly number[],
  load: number,
): string {
  const answers = `${pad(index, 5)} ${pad((m.requests / 60).toFixed(1), 6)} ${pad(m.p(0.5).toFixed(1), 7)} ${pad(m.p(0.99).toFixed(1), 7)} ${pad(m.limited, 5)} ${pad(m.serverErrors, 4)}`;
  const memory = [...processes.values()].map((s) => pad(`${mb(s.rssBytes)}/${mb(s.heapBytes)}`, 20));
  const lag = Math.max(...[...processes.values()].map((s) => s.lagSeconds * 1000).filter(Number.isFinite));
  return [
    answers,
    ...memory,
    pad(Number.isFinite(lag) ? lag.toFixed(1) : '?', 16),
    pad(dbConnections.join('/') || '?', 16),
    pad(load.toFixed(2), 7),
  ].join(' | ');
}

export interface Outcome {
  lines: string[];
  totals: { requests: number; limited: number; serverErrors: number; errorSamples: string[] };
  submitted: Submitted;
  deliveries: { delivered: number; lost: number };
  verdicts: GrowthVerdict[];
}

/** The closing report and whether the soak failed: a 5xx, a lost delivery, or unbounded memory growth. */
export function summary(o: Outcome): { text: string; failed: boolean } {
  const growth = o.verdicts.map(
    (v) =>
      `  ${v.process.padEnd(10)} ${v.series.padEnd(4)} mean ${mb(v.meanBytes)} MiB, fitted growth over the second half ${(v.growthBytes / MIB).toFixed(1)} MiB (${v.mibPerHour.toFixed(1)} MiB/h)${v.unbounded ? '  UNBOUNDED' : ''}`,
  );
  const problems = [
    ...(o.totals.serverErrors > 0
      ? [`${o.totals.serverErrors} answers were 5xx or never came: ${o.totals.errorSamples.join('; ')}`]
      : []),
    ...(o.deliveries.lost > 0 ? [`${o.deliveries.lost} of ${o.submitted.deliveries} deliveries did not arrive`] : []),
    ...o.verdicts
      .filter((v) => v.unbounded)
      .map((v) => `${v.process} ${v.series} grows without bound (${v.mibPerHour.toFixed(1)} MiB/h)`),
  ];
  const text = [
    '',
    `requests ${o.totals.requests}, 429 ${o.totals.limited}, 5xx ${o.totals.serverErrors}`,
    `alert messages ${o.submitted.messageIds.length}, deliveries ${o.submitted.deliveries}, delivered ${o.deliveries.delivered}, lost ${o.deliveries.lost}`,
    'memory, linear fit over the second half (unbounded: growth above 16 MiB and 10 % of the mean):',
    ...growth,
    problems.length ? `FAILED:\n  ${problems.join('\n  ')}` : 'PASSED: no 5xx, every delivery arrived, memory bounded',
  ].join('\n');
  return { text, failed: problems.length > 0 };
}
