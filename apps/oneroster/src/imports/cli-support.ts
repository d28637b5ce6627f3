/** Argument parsing and report formatting of the roster import CLI (kept apart to be unit tested). */
import { parseCommandLine } from '@edu/config';
import { isUuid } from '@edu/domain';
import { DEFAULT_MAX_ERRORS } from './import-issues';
import type { ImportReport } from './roster-importer';

const USAGE = `usage: roster-import --tenant <tenant uuid> [--json] [--quiet] [--max-errors N] <package.zip | package directory>`;

export interface CliArgs {
  tenantId: string;
  location: string;
  json: boolean;
  quiet: boolean;
  maxErrors: number;
}

const OPTIONS = {
  tenant: { type: 'string' },
  json: { type: 'boolean', default: false },
  quiet: { type: 'boolean', default: false },
  'max-errors': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

export function parseArgs(argv: string[]): CliArgs | string {
  const parsed = parseCommandLine({ args: argv, options: OPTIONS, allowPositionals: true });
  if (typeof parsed === 'string') return `${parsed}\n${USAGE}`;
  const { values, positionals } = parsed;
  if (values.help) return USAGE;
  if (positionals.length > 1) return `only one package may be given\n${USAGE}`;
  const [location] = positionals;
  const tenantId = values.tenant;
  const maxErrors = values['max-errors'] === undefined ? DEFAULT_MAX_ERRORS : Number(values['max-errors']);
  if (!tenantId || !isUuid(tenantId)) return `--tenant <uuid> is required\n${USAGE}`;
  if (!location) return `the package (zip or directory) is required\n${USAGE}`;
  if (!Number.isInteger(maxErrors) || maxErrors < 1) return `--max-errors must be a positive integer\n${USAGE}`;
  return { tenantId: tenantId.toLowerCase(), location, json: values.json, quiet: values.quiet, maxErrors };
}

const pad = (v: string | number, n: number) => String(v).padStart(n);

export function formatReport(r: ImportReport): string {
  const seconds = (r.finishedAt.getTime() - r.startedAt.getTime()) / 1000;
  const lines: string[] = [];
  if (r.status === 'succeeded') {
    const rate = seconds > 0 ? Math.round(r.rows / seconds) : r.rows;
    lines.push(
      `Imported ${r.source} into tenant ${r.tenantId} (${r.mode}): ${r.rows} rows in ${seconds.toFixed(2)} s (${rate} rows/s), data version ${r.dataVersion}, import ${r.id}`,
    );
    lines.push(
      `  ${'file'.padEnd(22)}${pad('inserted', 10)}${pad('updated', 10)}${pad('unchanged', 11)}${pad('tombstoned', 12)}`,
    );
    for (const [file, c] of Object.entries(r.counts)) {
      lines.push(
        `  ${file.padEnd(22)}${pad(c.inserted, 10)}${pad(c.updated, 10)}${pad(c.unchanged, 11)}${pad(c.tombstoned, 12)}`,
      );
    }
  } else {
    lines.push(
      `Import of ${r.source} into tenant ${r.tenantId} refused: ${r.errorCount} error(s); nothing was written${r.id ? ` (import ${r.id})` : ''}`,
    );
    for (const e of r.errors)
      lines.push(`  ${e.file}${e.line ? `:${e.line}` : ''}${e.column ? ` [${e.column}]` : ''}: ${e.message}`);
    if (r.errorCount > r.errors.length) lines.push(`  ... and ${r.errorCount - r.errors.length} more`);
  }
  for (const w of r.warnings)
    lines.push(`  warning: ${w.file}${w.line ? `:${w.line}` : ''}${w.column ? ` [${w.column}]` : ''}: ${w.message}`);
  return lines.join('\n');
}
