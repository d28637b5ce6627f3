/**
 * Twins, the scenarios a target compares (a 1.2 read and its 1.1 twin, a class-shared read and
 * its unshared twin, users page 1 and the bare baseline's), are measured in alternating slices:
 * after each has warmed up, A, B, A, B, ... until each has had the run's duration. On a shared
 * machine whose speed drifts within minutes, a twin measured whole after the other meets another
 * machine; slices spread the drift over both alike. Each twin's figures are then combined over its slices (`mergeSlices`).
 */
import type { RunResult } from './targets';

/** One slice of a scenario: what autocannon measured, and the CPU spent while it ran. */
export interface Slice {
  result: RunResult;
  serverCpuMs: number;
  /** NaN when PostgreSQL's processes are not this machine's. */
  databaseCpuMs: number;
  autovacuum: boolean;
}

/** Scenarios in the order they run: each group of twins at its first member's place, together. */
export function inRunOrder<T extends { twins?: string }>(scenarios: readonly T[]): T[][] {
  const runs: T[][] = [];
  const groups = new Map<string, T[]>();
  for (const s of scenarios) {
    if (!s.twins) {
      runs.push([s]);
      continue;
    }
    const group = groups.get(s.twins);
    if (group) group.push(s);
    else {
      const fresh = [s];
      groups.set(s.twins, fresh);
      runs.push(fresh);
    }
  }
  return runs;
}

const weighted = (slices: readonly Slice[], pick: (r: RunResult) => number, total: number) =>
  Math.round(slices.reduce((a, s) => a + pick(s.result) * s.result.requests, 0) / Math.max(1, total));

/** One scenario's figures from its slices, with the CPU per request of all of them. */
export function mergeSlices(slices: readonly Slice[]): RunResult {
  const first = slices[0];
  if (!first) throw new Error('no slice to merge');
  const requests = slices.reduce((a, s) => a + s.result.requests, 0);
  const perRequest = (ms: number) => Math.round((ms * 1000) / Math.max(1, requests));
  const databaseMs = slices.reduce((a, s) => a + s.databaseCpuMs, 0);
  // A scenario measured whole keeps autocannon's own figures.
  const merged: RunResult = slices.length === 1 ? { ...first.result } : mergedFigures(slices, requests);
  merged.serverCpuUs = perRequest(slices.reduce((a, s) => a + s.serverCpuMs, 0));
  if (Number.isFinite(databaseMs)) merged.databaseCpuUs = perRequest(databaseMs);
  if (slices.some((s) => s.autovacuum)) merged.autovacuum = true;
  return merged;
}

/**
 * Rates over all the slices' requests and time; percentiles as the request-weighted mean of the
 * slices' (autocannon gives percentiles, not histograms); the maximum as the largest.
 */
function mergedFigures(slices: readonly Slice[], requests: number): RunResult {
  const first = slices[0]!;
  const seconds = slices.reduce((a, s) => a + (s.result.seconds ?? 0), 0);
  return {
    scenario: first.result.scenario,
    connections: first.result.connections,
    requestsPerSecond: Math.round((requests / Math.max(seconds, 1e-9)) * 10) / 10,
    p50: weighted(slices, (r) => r.p50, requests),
    p90: weighted(slices, (r) => r.p90, requests),
    p99: weighted(slices, (r) => r.p99, requests),
    max: Math.max(...slices.map((s) => s.result.max)),
    requests,
    seconds: Math.round(seconds * 100) / 100,
    non2xx: slices.reduce((a, s) => a + s.result.non2xx, 0),
    errors: slices.reduce((a, s) => a + s.result.errors, 0),
    bytesPerResponse: weighted(slices, (r) => r.bytesPerResponse ?? 0, requests),
    slices: slices.length,
  };
}
