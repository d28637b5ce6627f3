import type { RosterImportIssue } from '@edu/persistence/pg';

export type ImportIssue = RosterImportIssue;

/** Errors beyond this many are counted, not listed. */
export const DEFAULT_MAX_ERRORS = 1000;
const MAX_WARNINGS = 200;

/** Collects every error and warning of one import, each naming file, line and column. */
export class IssueLog {
  readonly errors: ImportIssue[] = [];
  readonly warnings: ImportIssue[] = [];
  errorCount = 0;

  constructor(readonly maxErrors = DEFAULT_MAX_ERRORS) {}

  error(file: string, line: number, column: string, message: string): void {
    this.errorCount++;
    if (this.errors.length < this.maxErrors) this.errors.push({ file, line, column, message });
  }

  warn(file: string, line: number, column: string, message: string): void {
    if (this.warnings.length < MAX_WARNINGS) this.warnings.push({ file, line, column, message });
  }

  get failed(): boolean {
    return this.errorCount > 0;
  }

  /** The cap is reached: reading further only costs time. */
  get full(): boolean {
    return this.errorCount >= this.maxErrors;
  }
}

/** Levenshtein distance, for "did you mean" hints on misspelled names. */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length]!;
}

/** The closest known name when it is a plausible misspelling (case-insensitive, distance ≤ 3). */
export function closest(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = editDistance(name.toLowerCase(), k.toLowerCase());
    if (d < bestDistance) {
      best = k;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.min(3, Math.floor(name.length / 3)) ? best : undefined;
}

export function didYouMean(name: string, known: readonly string[]): string {
  const hint = closest(name, known);
  return hint ? ` (did you mean '${hint}'?)` : '';
}
