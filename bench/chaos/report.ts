/** The chaos run's verdict per fault: printed, and written to bench/results/chaos-<time>.json. */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { DeliveryCount } from './deliveries';
import type { ImportOutcome } from './import-fault';
import type { WindowVerdict } from './judge';

export interface FaultResult {
  fault: string;
  startedAt: string;
  /** Seconds from the start of the fault until it was lifted (restart begun, process resumed). */
  faultSeconds: number;
  /** Seconds from then until every readiness check was green; null: not within the limit. */
  recoverySeconds: number | null;
  clients: WindowVerdict;
  deliveries: DeliveryCount;
  import?: ImportOutcome;
  problems: string[];
  passed: boolean;
}

/** What fails a fault: a bad answer, a readiness that never came back, a lost delivery, a half import. */
export function problemsOf(r: Omit<FaultResult, 'problems' | 'passed'>): string[] {
  return [
    ...(r.clients.failures > 0 ? [`${r.clients.failures} answers not allowed: ${r.clients.samples.join('; ')}`] : []),
    ...(r.recoverySeconds === null ? ['readiness did not come back'] : []),
    ...(r.deliveries.lost > 0 ? [`${r.deliveries.lost} of ${r.deliveries.expected} deliveries never arrived`] : []),
    ...(r.import && !r.import.passed ? [`import: ${JSON.stringify(r.import)}`] : []),
  ];
}

const statuses = (by: Record<string, number>) =>
  Object.entries(by)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, n]) => `${k}:${n}`)
    .join(' ');

export function faultLine(r: FaultResult): string {
  const imp = r.import
    ? ` | import after kill: ${r.import.afterKill} (${r.import.rowsAfterKill} rows)` +
      (r.import.logRow ? `, log row ${r.import.logRow.status} after ${r.import.logRow.seconds.toFixed(0)} s` : '') +
      `, re-run ${r.import.rerunExitCode === 0 ? 'ok' : `exit ${r.import.rerunExitCode}`}, ${r.import.rerunComplete ? 'complete' : 'INCOMPLETE'}`
    : '';
  return [
    `${r.passed ? 'PASS' : 'FAIL'} ${r.fault}`,
    `  answers: ${statuses(r.clients.byStatus)}`,
    `  fault ${r.faultSeconds.toFixed(1)} s, ready again after ${r.recoverySeconds === null ? 'never' : `${r.recoverySeconds.toFixed(1)} s`}` +
      ` | deliveries ${r.deliveries.expected}, lost ${r.deliveries.lost}, duplicated ${r.deliveries.duplicated}${imp}`,
    ...r.problems.map((p) => `  ! ${p}`),
  ].join('\n');
}

/** Writes the run's results; the file's path. */
export function writeResults(root: string, results: object): string {
  const dir = path.join(root, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `chaos-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return file;
}
