/**
 * The bench's targets, each a ratio to a figure of the same run (the bare node+pg baseline, the
 * OneRoster 1.1 twin of a 1.2 read, PostgreSQL's own COPY), so that a shared or slower machine
 * weighs on both sides alike. `bench:oneroster` prints them last, one line each, met or MISS.
 */

export interface RunResult {
  scenario: string;
  connections: number;
  requestsPerSecond: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  requests: number;
  /** Seconds measured (autocannon's elapsed time). */
  seconds?: number;
  non2xx: number;
  errors: number;
  /** CPU time of the server answering (service or baseline process, not PostgreSQL) per request, µs. */
  serverCpuUs?: number;
  /** CPU time of the embedded PostgreSQL (every backend and background process) per request, µs. */
  databaseCpuUs?: number;
  /** Mean response size (bytes): twins whose rows differ in size differ in cost for that alone. */
  bytesPerResponse?: number;
  /** An autovacuum worker ran in the bench's database while this was measured. */
  autovacuum?: boolean;
  /** Measured in this many slices alternating with its twins' (`slices.ts`); absent: in one run. */
  slices?: number;
}

export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean;
}

/** What the import targets read of the import's figures. */
export interface ImportForTargets {
  rowsPerSecond: number;
  /** PostgreSQL's COPY of the same rows into the same indexes, same run. */
  copyReference?: { rows: number; indexedSeconds: number };
  /** The same package into a scratch database without the change feed's triggers (rows/s). */
  withoutEventsRowsPerSecond?: number;
}

const BASELINE = 'baseline';
const PAGE_1 = 'users page 1';
/** Scenarios that write; every other scenario is a read. */
const isRead = (r: RunResult) => !r.scenario.startsWith('PUT ');
const byName = (list: RunResult[], prefix: string) => list.find((r) => r.scenario.startsWith(prefix));

function ratioCheck(target: string, ratio: number, detail: string, met: boolean): TargetCheck {
  return { target, measured: `${ratio.toFixed(2)} x (${detail})`, met };
}

/** Marks the baseline's twin of page 1, measured in slices alternating with it (run.ts). */
export const BESIDE_PAGE_1 = '(beside page 1)';
/** The baseline's runs before and after a connection count's scenarios (not its twin of page 1). */
const bracketing = (list: RunResult[]) =>
  list.filter((r) => r.scenario.startsWith(BASELINE) && !r.scenario.endsWith(BESIDE_PAGE_1));

/** The baseline's p99 at a connection count: the mean of its run before and its run after the scenarios. */
export function baselineP99(results: RunResult[], connections: number): number | undefined {
  const runs = bracketing(results.filter((r) => r.connections === connections));
  return runs.length ? runs.reduce((a, r) => a + r.p99, 0) / runs.length : undefined;
}

/** The baseline's page 1: its twin measured in slices beside page 1, else the mean of its runs before and after. */
function baselineRps(list: RunResult[]): number {
  const beside = list.find((r) => r.scenario.startsWith(BASELINE) && r.scenario.endsWith(BESIDE_PAGE_1));
  if (beside) return beside.requestsPerSecond;
  const runs = bracketing(list);
  return runs.reduce((a, r) => a + r.requestsPerSecond, 0) / Math.max(1, runs.length);
}

/** Users page 1 at >= 0.9 x the bare node+pg server answering the same page. */
function pageOneTargets(list: RunResult[], connections: number): TargetCheck[] {
  const page1 = byName(list, PAGE_1);
  const base = baselineRps(list);
  if (!page1 || !base) return [];
  const ratio = page1.requestsPerSecond / base;
  const detail = `${page1.requestsPerSecond} vs ${base.toFixed(1)} req/s`;
  return [ratioCheck(`users page 1 req/s >= 0.9 x baseline @${connections}`, ratio, detail, ratio >= 0.9)];
}

/** A OneRoster 1.2 read at >= 0.95 x its 1.1 twin's req/s and <= 1.05 x its CPU per request. */
function versionTargets(list: RunResult[], connections: number): TargetCheck[] {
  const pairs: Array<[string, string, boolean]> = [
    ['v1.2 users page 1', PAGE_1, true],
    ['v1.2 /classes/{id}/students', '/classes/{id}/students', connections === 8],
  ];
  const checks: TargetCheck[] = [];
  for (const [v12, v11, applies] of pairs) {
    const a = byName(list, v12);
    const b = byName(list, v11);
    if (!applies || !a || !b) continue;
    const ratio = a.requestsPerSecond / b.requestsPerSecond;
    const detail = `${a.requestsPerSecond} vs ${b.requestsPerSecond} req/s`;
    checks.push(ratioCheck(`${v12} req/s >= 0.95 x v1.1 @${connections}`, ratio, detail, ratio >= 0.95));
    if (v11 !== PAGE_1 || !a.serverCpuUs || !b.serverCpuUs) continue;
    const cpu = a.serverCpuUs / b.serverCpuUs;
    const cpuDetail = `${a.serverCpuUs} vs ${b.serverCpuUs} µs/req`;
    checks.push(ratioCheck(`${v12} CPU/request <= 1.05 x v1.1 @${connections}`, cpu, cpuDetail, cpu <= 1.05));
  }
  return checks;
}

/** A class-shared deployment's reads at >= 0.95 x the same reads of an unshared one. */
function sharingTargets(list: RunResult[], connections: number): TargetCheck[] {
  const checks: TargetCheck[] = [];
  // Twins of the same kind of rows: a class-shared page 1 holds students, unshared page 1 parents.
  for (const [twin, plain] of [
    ['class-shared: users page 1', 'users page of students'],
    ['class-shared: /classes/{id}/students', '/classes/{id}/students'],
  ] as const) {
    const a = byName(list, twin);
    const b = byName(list, plain);
    if (!a || !b) continue;
    const ratio = a.requestsPerSecond / b.requestsPerSecond;
    const detail = `${a.requestsPerSecond} vs ${b.requestsPerSecond} req/s`;
    checks.push(ratioCheck(`${twin} req/s >= 0.95 x unshared @${connections}`, ratio, detail, ratio >= 0.95));
  }
  return checks;
}

/** At 8 connections every read's p99 within 1.5 x the baseline's p99; deep offsets within 2 x page 1's p50. */
function latencyTargets(list: RunResult[], connections: number, baseP99?: number): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const page1 = byName(list, PAGE_1);
  const deep = byName(list, 'users offset');
  if (page1 && deep) {
    const ratio = deep.p50 / Math.max(page1.p50, 1e-9);
    const detail = `${deep.p50} vs ${page1.p50} ms`;
    checks.push(ratioCheck(`deep-offset p50 <= 2 x page-1 p50 @${connections}`, ratio, detail, ratio <= 2));
  }
  if (connections !== 8 || !baseP99) return checks;
  for (const r of list.filter((x) => isRead(x) && !x.scenario.startsWith(BASELINE))) {
    const ratio = r.p99 / baseP99;
    const detail = `${r.p99} vs ${baseP99} ms`;
    checks.push(ratioCheck(`p99 <= 1.5 x baseline p99 @8: ${r.scenario}`, ratio, detail, ratio <= 1.5));
  }
  return checks;
}

/** Not a target: how far the baseline drifted between its run before and after the scenarios. */
function noiseLine(list: RunResult[], connections: number): TargetCheck[] {
  const runs = bracketing(list);
  if (runs.length !== 2) return [];
  const [a, b] = runs as [RunResult, RunResult];
  const spread =
    Math.abs(a.requestsPerSecond - b.requestsPerSecond) / Math.max(a.requestsPerSecond, b.requestsPerSecond);
  return [
    {
      target: `(noise) baseline before/after spread @${connections}`,
      measured: `${(spread * 100).toFixed(1)} %`,
      met: true,
    },
  ];
}

/** The first import at >= 0.95 x COPY into the same indexes; with the change feed at >= 0.9 x without; the feed read at >= 20,000 events/s. */
function importTargets(imp: ImportForTargets, feed?: { perSecond: number }): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const copy = imp.copyReference;
  if (copy && copy.indexedSeconds > 0) {
    const copyRate = Math.round(copy.rows / copy.indexedSeconds);
    const ratio = imp.rowsPerSecond / copyRate;
    const detail = `${imp.rowsPerSecond} vs ${copyRate} rows/s`;
    checks.push(
      ratioCheck('first import >= 0.95 x PostgreSQL COPY into the same indexes', ratio, detail, ratio >= 0.95),
    );
  }
  if (imp.withoutEventsRowsPerSecond) {
    const ratio = imp.rowsPerSecond / imp.withoutEventsRowsPerSecond;
    const detail = `${imp.rowsPerSecond} vs ${imp.withoutEventsRowsPerSecond} rows/s`;
    checks.push(ratioCheck('import with the change feed >= 0.9 x without', ratio, detail, ratio >= 0.9));
  }
  if (feed) {
    const measured = `${feed.perSecond} events/s`;
    checks.push({ target: 'change feed read >= 20,000 events/s', measured, met: feed.perSecond >= 20_000 });
  }
  return checks;
}

/** Every target of a run, in the order the table prints them. */
export function evaluateTargets(
  results: RunResult[],
  imp: ImportForTargets,
  feed?: { perSecond: number },
): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const counts = [...new Set(results.map((r) => r.connections))];
  for (const connections of counts) {
    const list = results.filter((r) => r.connections === connections);
    checks.push(
      ...pageOneTargets(list, connections),
      ...versionTargets(list, connections),
      ...sharingTargets(list, connections),
      ...latencyTargets(list, connections, baselineP99(results, connections)),
      ...noiseLine(list, connections),
    );
  }
  checks.push(...importTargets(imp, feed));
  return checks;
}
