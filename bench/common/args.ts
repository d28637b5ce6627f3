/** Command-line values shared by the benchmarks. */

/** A positive number given to `--flag`, or the default when the flag is absent. */
export function positive(flag: string, value: string | undefined, dflt: number): number {
  if (value === undefined) return dflt;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${flag} needs a positive number`);
  return n;
}
