/**
 * Reads one CSV file of a package: checks the header, validates every row (values,
 * enumerations, dates, duplicates, references, cross-field rules), and streams valid rows into
 * the file's staging table while it reads (one COPY, fed batch by batch while the file is
 * parsed). Once any error has been found nothing more is staged, but reading goes on to report
 * further errors. The work is done by:
 *
 * - `csv-header.ts` (the header → where each column's cells are),
 * - `row-layout.ts` (the one reused row array and its named slots),
 * - `record-reader.ts` (a record's cells → the row's staged values),
 * - `cross-field-rules.ts` (per file type, rules across fields and files),
 * - `reference-checks.ts` (duplicates, references, what the reference index learns, cycles),
 * - `row-output.ts` (direct load or staging, by COPY through `copy-buffer.ts`).
 */
import type { Readable } from 'node:stream';
import type { ClientBase } from 'pg';
import { CSV_BINDINGS, type CsvBinding } from './csv-bindings';
import { otherVersionColumns, readCsvHeader } from './csv-header';
import type { FileLayout, RosterFileType } from './csv-layout';
import { csvBatches, CsvSyntaxError } from './csv-records';
import { FileRules, ruleLookups, type FileRuleSet } from './cross-field-rules';
import type { IssueLog } from './import-issues';
import { MANIFEST_FILE, type FileMode } from './manifest';
import { RecordReader } from './record-reader';
import { FileReferences } from './reference-checks';
import type { ReferenceIndex } from './reference-index';
import { createStagingSql } from './roster-merge-sql';
import { RowLayout, SOURCED_ID } from './row-layout';
import { RowOutput, type DirectLoad } from './row-output';

export interface FileLoadResult {
  /** Data rows read (blank lines excluded). */
  rows: number;
  /** Rows inserted straight into the roster table (first bulk load, while in sourcedId order). */
  directRows: number;
  /** Rows staged for the merge (0 once the import has failed). */
  staged: number;
  /** Delta tombstone rows among the staged ones. */
  tombstones: number;
  /** Time spent waiting for the database while reading (ms): reading outpaced writing. */
  waitedMs: number;
}

export interface LoaderContext {
  readonly client: ClientBase;
  readonly issues: IssueLog;
  readonly refs: ReferenceIndex;
  /** Rows per staging insert. */
  readonly batchSize: number;
  /** The manifest's binding, and the line of its `oneroster.version`. */
  readonly binding: CsvBinding;
  readonly versionLine: number;
}

/** Records parsed per batch. */
const CSV_BATCH = 2000;

/**
 * Loads one file into its staging table (created here). With `direct` (a bulk file for a tenant
 * with no rows in that table yet), rows go straight into the roster table for as long as the
 * file is in sourcedId order, and to staging from the first row that is not.
 */
export async function loadRosterFile(
  ctx: LoaderContext,
  layout: FileLayout,
  mode: FileMode,
  input: Readable,
  direct?: DirectLoad,
): Promise<FileLoadResult> {
  const { issues, refs } = ctx;
  const file = layout.fileName;
  const delta = mode === 'delta';
  const result: FileLoadResult = { rows: 0, directRows: 0, staged: 0, tombstones: 0, waitedMs: 0 };
  const rl = new RowLayout(layout, direct !== undefined);
  await ctx.client.query(createStagingSql(layout));
  const out = await RowOutput.open(ctx.client, rl, ctx.batchSize, direct);
  const ids = new FileReferences(rl, refs, issues, delta);
  const rules = new FileRules(rl, refs, issues, ctx.binding.rules[layout.type] ?? []);
  const row = rl.newRow();
  let reader: RecordReader | undefined;
  try {
    for await (const { records, lines } of csvBatches(input, CSV_BATCH)) {
      let i = 0;
      if (!reader) {
        const header = readCsvHeader(records[0]!, layout, delta, issues);
        if (!header) {
          blameVersion(ctx, layout, records[0]!);
          refs.markUnreliable(layout.type);
          await out.discard();
          return result;
        }
        reader = new RecordReader(row, rl, header, delta, ids, issues, refs);
        i = 1;
      }
      for (; i < records.length; i++) {
        result.rows++;
        const line = lines[i]!;
        const ok = reader.read(records[i]!, line);
        if (typeof row[SOURCED_ID] === 'string') {
          if (ok) rules.check(row, line);
          ids.register(row);
        }
        if (ok && !issues.failed) {
          if (!out.accepts(row)) await out.toStaging();
          out.push(row);
        }
        row[SOURCED_ID] = undefined;
        if (issues.full) break;
      }
      if (issues.full) break;
      if (!issues.failed) await out.maybeFlush();
    }
  } catch (err) {
    if (!(err instanceof CsvSyntaxError)) {
      await out.discard();
      throw err;
    }
    issues.error(file, err.line, '', `malformed CSV: ${err.message}`);
  }
  if (!reader) {
    issues.error(file, 1, '', 'the file is empty (no header row)');
    refs.markUnreliable(layout.type);
  }
  ids.finish();
  if (issues.failed) await out.discard();
  else await out.finish();
  result.tombstones = reader?.tombstones ?? 0;
  result.directRows = out.directRows;
  result.staged = out.staged;
  result.waitedMs = out.waitedMs;
  return result;
}

/** A refused header with the other binding's columns: the manifest's version is the likely mistake. */
function blameVersion(ctx: LoaderContext, layout: FileLayout, cells: readonly string[]): void {
  const other = CSV_BINDINGS[ctx.binding.version === '1.1' ? '1.2' : '1.1'];
  const columns = otherVersionColumns(cells, layout, other.layouts[layout.type]);
  if (columns.length === 0) return;
  ctx.issues.error(
    MANIFEST_FILE,
    ctx.versionLine,
    'value',
    `'oneroster.version' is '${ctx.binding.version}' but ${layout.fileName} has the OneRoster ${other.version} columns ${columns.join(', ')}`,
  );
}

/** Types whose ids reading a file looks up (its references, its rules', its derived columns'): the index loads them first. */
export function lookedUpTypes(layout: FileLayout, rules: FileRuleSet): RosterFileType[] {
  return [
    ...layout.columns.flatMap((c) => (c.ref ? [c.ref] : [])),
    ...ruleLookups(layout.type, rules),
    ...(layout.derived ?? []).flatMap((d) => d.looksUp ?? []),
  ];
}
