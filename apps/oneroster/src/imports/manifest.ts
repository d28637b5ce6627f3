/**
 * `manifest.csv` of a OneRoster v1.1 package (reference §11.2): which files the package holds
 * and whether each replaces (bulk) or amends (delta) the tenant's data.
 */
import type { Readable } from 'node:stream';
import { csvBatches, CsvSyntaxError } from './csv-records';
import { ROSTER_FILE_TYPES, type RosterFileType } from './csv-layout';
import { didYouMean, type IssueLog } from './import-issues';

export const MANIFEST_FILE = 'manifest.csv';

export type FileMode = 'absent' | 'bulk' | 'delta';

export interface Manifest {
  /** Mode of each file of the binding (absent when the manifest does not list it). */
  readonly files: Readonly<Record<RosterFileType, FileMode>>;
  /** Line of each key in manifest.csv. */
  readonly lines: Readonly<Record<string, number>>;
  readonly systemName?: string;
  readonly systemCode?: string;
}

const FILE_KEYS = ROSTER_FILE_TYPES.map((t) => `file.${t}`);
const KNOWN_KEYS = ['manifest.version', 'oneroster.version', ...FILE_KEYS, 'source.systemName', 'source.systemCode'];
const MODES: readonly FileMode[] = ['absent', 'bulk', 'delta'];

/**
 * Reads and validates the manifest; problems go to `issues` (file `manifest.csv`). Returns
 * undefined when the manifest cannot be used at all.
 */
export async function readManifest(input: Readable, issues: IssueLog): Promise<Manifest | undefined> {
  const rows: { line: number; cells: string[] }[] = [];
  try {
    for await (const batch of csvBatches(input, 1000)) {
      batch.records.forEach((cells, i) => rows.push({ line: batch.lines[i]!, cells }));
    }
  } catch (err) {
    if (!(err instanceof CsvSyntaxError)) throw err;
    issues.error(MANIFEST_FILE, err.line, '', `malformed CSV: ${err.message}`);
    return undefined;
  }
  const header = rows.shift();
  if (!header || header.cells.length < 2 || header.cells[0]!.trim() !== 'propertyName' || header.cells[1]!.trim() !== 'value') {
    issues.error(MANIFEST_FILE, 1, header?.cells[0] ?? '', "the header must be 'propertyName,value'");
    return undefined;
  }
  const files = Object.fromEntries(ROSTER_FILE_TYPES.map((t) => [t, 'absent'])) as Record<RosterFileType, FileMode>;
  const seen = new Map<string, number>();
  const values = new Map<string, string>();
  for (const { line, cells } of rows) {
    const key = (cells[0] ?? '').trim();
    const value = (cells[1] ?? '').trim();
    if (!KNOWN_KEYS.includes(key)) {
      issues.error(MANIFEST_FILE, line, 'propertyName', `unknown manifest key '${key}'${didYouMean(key, KNOWN_KEYS)}`);
      continue;
    }
    if (seen.has(key)) {
      issues.error(MANIFEST_FILE, line, 'propertyName', `'${key}' is repeated (first on line ${seen.get(key)})`);
      continue;
    }
    seen.set(key, line);
    values.set(key, value);
    if (key.startsWith('file.')) {
      const mode = value.toLowerCase() as FileMode;
      if (!MODES.includes(mode)) {
        issues.error(MANIFEST_FILE, line, 'value', `'${value}' is not a file mode (absent, bulk, delta) for '${key}'`);
        continue;
      }
      files[key.slice('file.'.length) as RosterFileType] = mode;
    }
  }
  const expect = (key: string, wanted: string) => {
    const value = values.get(key);
    if (value === undefined) issues.error(MANIFEST_FILE, 0, 'propertyName', `'${key}' is missing (expected '${wanted}')`);
    else if (value !== wanted) issues.error(MANIFEST_FILE, seen.get(key)!, 'value', `'${key}' is '${value}'; this importer reads '${wanted}'`);
  };
  expect('manifest.version', '1.0');
  expect('oneroster.version', '1.1');
  const systemName = values.get('source.systemName') || undefined;
  const systemCode = values.get('source.systemCode') || undefined;
  return { files, lines: Object.fromEntries(seen), ...(systemName ? { systemName } : {}), ...(systemCode ? { systemCode } : {}) };
}

/** The import's overall mode: bulk or delta when every listed file says so, else mixed. */
export function manifestMode(m: Manifest): 'bulk' | 'delta' | 'mixed' {
  const modes = new Set(Object.values(m.files).filter((mode) => mode !== 'absent'));
  if (modes.size === 1) return [...modes][0] as 'bulk' | 'delta';
  // A manifest listing no file changes nothing: reported as an (empty) delta.
  return modes.size === 0 ? 'delta' : 'mixed';
}
