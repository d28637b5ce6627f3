/**
 * `manifest.csv` of a OneRoster package (reference §11.2, v1.2 §10.1): which binding it follows
 * (`oneroster.version` 1.1 or 1.2), which files it holds and whether each replaces (bulk) or
 * amends (delta) the tenant's data.
 */
import type { Readable } from 'node:stream';
import { CSV_BINDINGS, CSV_VERSIONS, type CsvBinding, type CsvVersion } from './csv-bindings';
import { csvBatches, CsvSyntaxError } from './csv-records';
import { V1P2_FILE_TYPES, type RosterFileType } from './csv-layout';
import { didYouMean, type IssueLog } from './import-issues';

export const MANIFEST_FILE = 'manifest.csv';

export type FileMode = 'absent' | 'bulk' | 'delta';

export interface Manifest {
  /** The binding of `oneroster.version` (1.1 when it is missing or unknown: an error). */
  readonly binding: CsvBinding;
  /** Mode of each file (absent when the manifest does not list it, and for files of the other binding). */
  readonly files: Readonly<Record<RosterFileType, FileMode>>;
  /** Line of each key in manifest.csv. */
  readonly lines: Readonly<Record<string, number>>;
  readonly systemName?: string;
  readonly systemCode?: string;
}

const MODES: readonly FileMode[] = ['absent', 'bulk', 'delta'];

/** The manifest keys of a binding. */
function knownKeys(binding: CsvBinding): string[] {
  return [
    'manifest.version',
    'oneroster.version',
    ...binding.files.map((t) => `file.${t}`),
    'source.systemName',
    'source.systemCode',
  ];
}

/** The binding the manifest names (its `oneroster.version` row, read first: it decides which keys are known). */
function bindingOf(rows: readonly ManifestRow[]): CsvBinding {
  const version = rows.find((r) => (r.cells[0] ?? '').trim() === 'oneroster.version')?.cells[1]?.trim();
  return CSV_VERSIONS.includes(version as CsvVersion) ? CSV_BINDINGS[version as CsvVersion] : CSV_BINDINGS['1.1'];
}

/** A key as written, or a starred one (`file.roles*`) as the binding names it. */
function canonicalKey(key: string, binding: CsvBinding): string {
  return key.endsWith('*') && binding.starredKeys.includes(key.slice(0, -1)) ? key.slice(0, -1) : key;
}

interface ManifestRow {
  readonly line: number;
  readonly cells: string[];
}

/** The rows after a valid `propertyName,value` header; undefined (reported) when there is none. */
async function readRows(input: Readable, issues: IssueLog): Promise<ManifestRow[] | undefined> {
  const rows: ManifestRow[] = [];
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
  if (
    !header ||
    header.cells.length < 2 ||
    header.cells[0]!.trim() !== 'propertyName' ||
    header.cells[1]!.trim() !== 'value'
  ) {
    issues.error(MANIFEST_FILE, 1, header?.cells[0] ?? '', "the header must be 'propertyName,value'");
    return undefined;
  }
  return rows;
}

/** Why a key is unknown: a file of the other binding, or a misspelling. */
function unknownKey(key: string, binding: CsvBinding, known: readonly string[]): string {
  const v1p2 = CSV_BINDINGS['1.2'];
  if (binding.version === '1.1' && knownKeys(v1p2).includes(canonicalKey(key, v1p2)))
    return `unknown manifest key '${key}' (a file of the OneRoster 1.2 binding; this manifest says 1.1)`;
  return `unknown manifest key '${key}'${didYouMean(key, known)}`;
}

/**
 * Reads and validates the manifest; problems go to `issues` (file `manifest.csv`). Returns
 * undefined when the manifest cannot be used at all.
 */
export async function readManifest(input: Readable, issues: IssueLog): Promise<Manifest | undefined> {
  const rows = await readRows(input, issues);
  if (!rows) return undefined;
  const binding = bindingOf(rows);
  const known = knownKeys(binding);
  const files = Object.fromEntries(V1P2_FILE_TYPES.map((t) => [t, 'absent'])) as Record<RosterFileType, FileMode>;
  const seen = new Map<string, number>();
  const values = new Map<string, string>();
  for (const { line, cells } of rows) {
    const key = canonicalKey((cells[0] ?? '').trim(), binding);
    const value = (cells[1] ?? '').trim();
    let problem: string | undefined;
    if (!known.includes(key)) problem = unknownKey(key, binding, known);
    else if (seen.has(key)) problem = `'${key}' is repeated (first on line ${seen.get(key)})`;
    if (problem) {
      issues.error(MANIFEST_FILE, line, 'propertyName', problem);
      continue;
    }
    seen.set(key, line);
    values.set(key, value);
    if (!key.startsWith('file.')) continue;
    const mode = value.toLowerCase() as FileMode;
    if (MODES.includes(mode)) files[key.slice('file.'.length) as RosterFileType] = mode;
    else issues.error(MANIFEST_FILE, line, 'value', `'${value}' is not a file mode (absent, bulk, delta) for '${key}'`);
  }
  const expect = (key: string, wanted: readonly string[]) => {
    const value = values.get(key);
    const list = wanted.map((w) => `'${w}'`).join(' or ');
    if (value === undefined) issues.error(MANIFEST_FILE, 0, 'propertyName', `'${key}' is missing (expected ${list})`);
    else if (!wanted.includes(value))
      issues.error(MANIFEST_FILE, seen.get(key)!, 'value', `'${key}' is '${value}'; this importer reads ${list}`);
  };
  expect('manifest.version', ['1.0']);
  expect('oneroster.version', CSV_VERSIONS);
  const systemName = values.get('source.systemName') || undefined;
  const systemCode = values.get('source.systemCode') || undefined;
  return {
    binding,
    files,
    lines: Object.fromEntries(seen),
    ...(systemName ? { systemName } : {}),
    ...(systemCode ? { systemCode } : {}),
  };
}

/** The import's overall mode: bulk or delta when every listed file says so, else mixed. */
export function manifestMode(m: Manifest): 'bulk' | 'delta' | 'mixed' {
  const modes = new Set(Object.values(m.files).filter((mode) => mode !== 'absent'));
  if (modes.size === 1) return [...modes][0] as 'bulk' | 'delta';
  // A manifest listing no file changes nothing: reported as an (empty) delta.
  return modes.size === 0 ? 'delta' : 'mixed';
}
