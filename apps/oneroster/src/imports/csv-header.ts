/**
 * A file's header row: every column known to the binding (or an extension `metadata.<name>`),
 * none twice, every required one present (`status` and `dateLastModified` too in delta files;
 * a missing optional one is a warning and reads as empty). Gives where each column's cells are.
 */
import { standardHeaders, type FileLayout } from './csv-layout';
import { didYouMean, type IssueLog } from './import-issues';

export const METADATA_PREFIX = 'metadata.';

export interface CsvHeader {
  /** Cells in the header (every row must have as many). */
  readonly width: number;
  /** Cell index of `sourcedId`, `status`, `dateLastModified`; -1 when missing. */
  readonly sourcedId: number;
  readonly status: number;
  readonly modified: number;
  /** Extension columns: the name after `metadata.`, and the cell index. */
  readonly metadata: readonly (readonly [string, number])[];
  /** Per `layout.columns`, its cell index; -1 when missing (read as empty). */
  readonly columns: readonly number[];
}

interface Presence {
  readonly name: string;
  readonly required: boolean;
  /** Said after "missing column 'x'" when it is required. */
  readonly why: string;
}

/** The columns a header must or should have, in the order they are checked. */
export function expectedColumns(layout: FileLayout, delta: boolean): Presence[] {
  const inDelta = delta ? ' (required in delta files)' : '';
  return [
    { name: 'sourcedId', required: true, why: '' },
    { name: 'status', required: delta, why: inDelta },
    { name: 'dateLastModified', required: delta, why: inDelta },
    ...layout.columns.map((c) => ({ name: c.name, required: c.required, why: '' })),
  ];
}

const isMetadata = (name: string) => name.startsWith(METADATA_PREFIX) && name.length > METADATA_PREFIX.length;

/** Each name once, and known; fills `positions` (name → first index). False on errors. */
function checkNames(
  names: readonly string[],
  layout: FileLayout,
  positions: Map<string, number>,
  issues: IssueLog,
): boolean {
  const file = layout.fileName;
  const known = standardHeaders(layout);
  let ok = true;
  names.forEach((name, i) => {
    if (positions.has(name)) {
      issues.error(file, 1, name, `column '${name}' appears twice`);
      ok = false;
    } else positions.set(name, i);
    if (!known.includes(name) && !isMetadata(name)) {
      issues.error(
        file,
        1,
        name,
        `unknown column '${name}'${didYouMean(name, known)}; extension columns must be named 'metadata.<name>'`,
      );
      ok = false;
    }
  });
  return ok;
}

/** Every required column present; a missing optional one is a warning. False on errors. */
function checkPresence(
  expected: readonly Presence[],
  positions: ReadonlyMap<string, number>,
  file: string,
  issues: IssueLog,
): boolean {
  let ok = true;
  for (const { name, required, why } of expected) {
    if (positions.has(name)) continue;
    if (required) {
      issues.error(file, 1, name, `missing column '${name}'${why}`);
      ok = false;
    } else {
      issues.warn(file, 1, name, `column '${name}' is missing; read as empty`);
    }
  }
  return ok;
}

/**
 * Columns of a refused header that this file has in the other binding (`other`) and not in this
 * one: a package whose manifest names the wrong `oneroster.version`.
 */
export function otherVersionColumns(
  cells: readonly string[],
  layout: FileLayout,
  other: FileLayout | undefined,
): string[] {
  if (!other) return [];
  const ours = new Set(standardHeaders(layout));
  const theirs = new Set(standardHeaders(other));
  return cells.map((c) => c.trim()).filter((name) => !ours.has(name) && theirs.has(name));
}

/** Reads the header row (line 1); undefined when it has errors (reported to `issues`). */
export function readCsvHeader(
  cells: readonly string[],
  layout: FileLayout,
  delta: boolean,
  issues: IssueLog,
): CsvHeader | undefined {
  const names = cells.map((c) => c.trim());
  const positions = new Map<string, number>();
  const namesOk = checkNames(names, layout, positions, issues);
  const presentOk = checkPresence(expectedColumns(layout, delta), positions, layout.fileName, issues);
  if (!namesOk || !presentOk) return undefined;
  return {
    width: names.length,
    sourcedId: positions.get('sourcedId') ?? -1,
    status: positions.get('status') ?? -1,
    modified: positions.get('dateLastModified') ?? -1,
    metadata: [...positions]
      .filter(([n]) => n.startsWith(METADATA_PREFIX))
      .map(([n, i]) => [n.slice(METADATA_PREFIX.length), i] as const),
    columns: layout.columns.map((c) => positions.get(c.name) ?? -1),
  };
}
