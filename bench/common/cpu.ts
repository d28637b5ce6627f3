/** CPU time of the benchmark's processes, read from Linux /proc (clock ticks of 10 ms). */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10;

/** The fields of /proc/<pid>/stat after the command name (index 0 = state). */
function statFields(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  } catch {
    return undefined;
  }
}

/** User + system CPU time of a process so far, in ms. */
export function cpuMsOf(pid: number): number {
  const f = statFields(pid);
  return f ? (Number(f[11]) + Number(f[12])) * TICK_MS : Number.NaN;
}

/**
 * CPU time so far of a PostgreSQL server on this machine, in ms: the postmaster's own and that of
 * its children that have exited, plus its live children (backends, writers). `childPid` is a
 * long-lived child's pid, e.g. the checkpointer's (`pg_stat_activity.backend_type`).
 */
export function postgresCpuMs(childPid: number): number {
  const postmaster = Number(statFields(childPid)?.[1]);
  const own = statFields(postmaster);
  if (!own) return Number.NaN;
  let ms = (Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14])) * TICK_MS;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(Number(entry));
    if (f && Number(f[1]) === postmaster) ms += (Number(f[11]) + Number(f[12])) * TICK_MS;
  }
  return ms;
}
