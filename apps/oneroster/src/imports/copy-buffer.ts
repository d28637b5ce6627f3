/**
 * Rows on their way to `COPY ... FROM STDIN`: COPY text lines built from the loader's row array
 * and streamed into one COPY per file as they are read.
 */
import type { ClientBase } from 'pg';
import { copyValue, openCopy, type CopyStream } from './copy-in';

/**
 * One COPY for all of a file's rows, fed as the file is read: the reader sends each batch of lines
 * as soon as it has it and waits only when the connection's socket is full, so the database never
 * sits idle between batches while the reader joins the next one (one COPY per batch left it idle
 * from the end of each batch until the next was built and its COPY started).
 */
export class CopyBuffer {
  private lines: string[] = [];
  private copy: CopyStream | undefined;
  /** Rows buffered, not yet written to the COPY. */
  count = 0;
  /** Rows written to the COPY. */
  staged = 0;
  waitedMs = 0;

  constructor(
    private readonly client: ClientBase,
    private readonly sql: string,
    private readonly toLine: (row: readonly unknown[]) => string,
    private readonly batchSize: number,
  ) {}

  push(row: readonly unknown[]): void {
    this.lines.push(this.toLine(row));
    this.count++;
  }

  /** Writes the buffered lines once there are enough; waits only while the socket is full. */
  async maybeFlush(): Promise<void> {
    if (this.count >= this.batchSize) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.count === 0) return;
    const data = Buffer.from(this.lines.join(''), 'utf8');
    this.staged += this.count;
    this.lines = [];
    this.count = 0;
    this.copy ??= openCopy(this.client, this.sql);
    const t = Date.now();
    try {
      await this.copy.write(data);
    } finally {
      this.waitedMs += Date.now() - t;
    }
  }

  /** Sends the rest and ends the COPY; resolves once PostgreSQL has every row. */
  async finish(): Promise<void> {
    await this.flush();
    if (!this.copy) return;
    const t = Date.now();
    try {
      await this.copy.end();
    } finally {
      this.waitedMs += Date.now() - t;
      this.copy = undefined;
    }
  }

  /** Drops what is buffered and abandons the COPY (the import failed; its transaction rolls back). */
  async discard(): Promise<void> {
    this.lines = [];
    this.count = 0;
    const copy = this.copy;
    this.copy = undefined;
    await copy?.abort();
  }
}

/**
 * A COPY text line of `row[from..to)`, then `suffix` (already escaped), then a newline. Joined
 * from an array, the line is one flat string; appended value by value it was a chain of pieces
 * that joining the batch had to walk (about a third more CPU for a users row, line and batch).
 */
export function copyLine(row: readonly unknown[], from: number, to: number, suffix = ''): string {
  const values = new Array<string>(to - from);
  for (let i = from; i < to; i++) values[i - from] = copyValue(row[i]);
  return `${values.join('\t')}${suffix}\n`;
}
