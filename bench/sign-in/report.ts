import { quantile } from '../common/processes';
import { STEPS } from './journey';

/** What one concurrency level measured. */
export interface LevelResult {
  concurrency: number;
  seconds: number;
  signIns: number;
  errors: number;
  firstError?: string;
  perSecond: number;
  p50: number;
  p99: number;
  /** Mean milliseconds per sign-in spent in each step. */
  steps: Record<string, number>;
  /** CPU milliseconds per sign-in, per process. */
  cpuMs: Record<string, number>;
  /** Database transactions per sign-in (statements outside a transaction count one each). */
  dbTransactions: number;
  /** Identity's database round trips per sign-in (each query it sent and waited for). */
  dbRoundTrips: number;
  /** Per statement text: how often identity sent it per sign-in (the most frequent first). */
  statements: Record<string, number>;
  /** Per table: scans and written rows per sign-in (the busiest tables). */
  tables: Record<string, { scans: number; writes: number }>;
}

export function summarise(
  concurrency: number,
  seconds: number,
  durations: number[],
  steps: Map<string, number>[],
  errors: string[],
  cpuMs: Record<string, number>,
  db: {
    transactions: number;
    roundTrips: number;
    statements: Map<string, number>;
    tables: Map<string, { scans: number; writes: number }>;
  },
): LevelResult {
  const n = durations.length;
  const mean: Record<string, number> = {};
  for (const step of STEPS) mean[step] = n ? steps.reduce((sum, s) => sum + (s.get(step) ?? 0), 0) / n : Number.NaN;
  const perSignIn: Record<string, number> = {};
  for (const [k, v] of Object.entries(cpuMs)) perSignIn[k] = n ? v / n : Number.NaN;
  const busiest = [...db.tables]
    .filter(([, a]) => a.scans + a.writes > 0)
    .sort((a, b) => b[1].scans + b[1].writes - (a[1].scans + a[1].writes));
  const tables = Object.fromEntries(
    busiest.slice(0, 6).map(([t, a]) => [t, { scans: a.scans / Math.max(n, 1), writes: a.writes / Math.max(n, 1) }]),
  );
  const statements = Object.fromEntries(
    [...db.statements]
      .filter(([, c]) => c > 0)
      .sort((a, b) => b[1] - a[1])
      .map(([text, c]) => [text, c / Math.max(n, 1)]),
  );
  return {
    concurrency,
    seconds,
    signIns: n,
    errors: errors.length,
    firstError: errors[0],
    perSecond: n / seconds,
    p50: quantile(durations, 0.5),
    p99: quantile(durations, 0.99),
    steps: mean,
    cpuMs: perSignIn,
    dbTransactions: n ? db.transactions / n : Number.NaN,
    dbRoundTrips: n ? db.roundTrips / n : Number.NaN,
    statements,
    tables,
  };
}

const pad = (s: string | number, w: number) => String(s).padStart(w);

/** The closing tables: throughput and latency per level, then where the time of a sign-in goes. */
export function printReport(results: LevelResult[]): void {
  const lines = [
    '',
    'concurrency  sign-ins/s  p50 ms  p99 ms  sign-ins  errors | CPU ms per sign-in: identity  upstream  driver  postgres | per sign-in: db round trips  transactions',
  ];
  for (const r of results) {
    lines.push(
      `${pad(r.concurrency, 11)}  ${pad(r.perSecond.toFixed(1), 10)}  ${pad(r.p50.toFixed(0), 6)}  ${pad(r.p99.toFixed(0), 6)}  ${pad(r.signIns, 8)}  ${pad(r.errors, 6)} | ${pad(r.cpuMs.identity.toFixed(1), 27)}  ${pad(r.cpuMs.upstream.toFixed(1), 8)}  ${pad(r.cpuMs.driver.toFixed(1), 6)}  ${pad(r.cpuMs.postgres.toFixed(1), 8)} | ${pad(r.dbRoundTrips.toFixed(1), 27)}  ${pad(r.dbTransactions.toFixed(1), 12)}`,
    );
  }
  lines.push(
    '',
    `mean ms per sign-in, by step${' '.repeat(4)}${results.map((r) => pad(`c=${r.concurrency}`, 14)).join('')}`,
  );
  for (const step of STEPS) {
    lines.push(
      `${step.padEnd(32)}${results.map((r) => pad(`${r.steps[step].toFixed(1)} (${((100 * r.steps[step]) / Object.values(r.steps).reduce((a, b) => a + b, 0)).toFixed(0)}%)`, 14)).join('')}`,
    );
  }
  const last = results[results.length - 1];
  if (last) {
    lines.push(
      '',
      `the busiest tables at c=${last.concurrency}, per sign-in: scans (index or sequential) / rows written`,
    );
    for (const [t, a] of Object.entries(last.tables))
      lines.push(`${t.padEnd(32)}${pad(a.scans.toFixed(1), 6)} / ${a.writes.toFixed(1)}`);
    lines.push('', `identity's most frequent statements at c=${last.concurrency}, per sign-in`);
    for (const [text, c] of Object.entries(last.statements).slice(0, 12))
      lines.push(`${pad(c.toFixed(1), 5)}  ${text.length > 110 ? `${text.slice(0, 107)}...` : text}`);
  }
  for (const r of results) if (r.firstError) lines.push(`c=${r.concurrency}: first error: ${r.firstError}`);
  console.log(lines.join('\n'));
}
