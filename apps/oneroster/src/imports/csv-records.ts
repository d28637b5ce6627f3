/**
 * Streaming RFC 4180 reading of one CSV file with `csv-parse`: records come out in batches,
 * each with the line number it starts on (quoted cells may span lines). A UTF-8 BOM is dropped.
 */
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';

export interface CsvBatch {
  readonly records: string[][];
  /** Line on which each record starts (1 = the header). */
  readonly lines: number[];
}

/** The file is not well-formed CSV (unclosed quote, stray quote, ...). */
export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

function countNewlines(record: string[]): number {
  let n = 0;
  for (const cell of record) {
    if (cell.length > 0 && cell.includes('\n')) {
      for (let i = 0; i < cell.length; i++) if (cell.charCodeAt(i) === 10) n++;
    }
  }
  return n;
}

/**
 * Yields batches of at most `size` records. Blank lines are skipped (but counted). Throws
 * `CsvSyntaxError` naming the line where the syntax broke.
 */
export async function* csvBatches(input: Readable, size: number): AsyncGenerator<CsvBatch> {
  // Both line endings, even mixed in one file (hand-edited exports).
  const parser = parse({
    bom: true,
    relax_column_count: true,
    skip_empty_lines: false,
    record_delimiter: ['\r\n', '\n'],
  });
  input.on('error', (err) => parser.destroy(err));
  input.pipe(parser);
  let line = 1;
  let records: string[][] = [];
  let lines: number[] = [];
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      const start = line;
      line += 1 + countNewlines(record);
      if (record.length === 1 && record[0] === '') continue;
      records.push(record);
      lines.push(start);
      if (records.length >= size) {
        yield { records, lines };
        records = [];
        lines = [];
      }
    }
  } catch (err) {
    if (err instanceof CsvSyntaxError) throw err;
    // csv-parse's CsvError: a code (INVALID_OPENING_QUOTE, CSV_QUOTE_NOT_CLOSED, ...) and the line.
    const e = err as { code?: unknown; lines?: unknown; message?: string };
    if (typeof e.code === 'string' && typeof e.lines === 'number')
      throw new CsvSyntaxError(e.message ?? 'malformed CSV', e.lines);
    throw err;
  } finally {
    input.unpipe(parser);
    if (!input.destroyed) input.destroy();
    if (!parser.destroyed) parser.destroy();
  }
  if (records.length > 0) yield { records, lines };
}
