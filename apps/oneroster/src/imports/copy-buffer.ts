/**
 * Rows on their way to `COPY ... FROM STDIN`: COPY text lines built from the loader's row array,
 * batched, with one batch in flight while the next is read.
 */
import type { ClientBase } from 'pg';
import { copyFrom, copyValue } from './copy-in';

/**
 * Rows waiting to be sent, as COPY text lines; one COPY in flight while the next batch is read
 * (the database ingests one batch while the file's next rows are parsed and checked).
 */
export class CopyBuffer {
  private lines: string[] = [];
  private inflight: Promise<unknown> | undefined;
  count = 0;
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

  /** Sends the buffer when full; waits only for the previous batch. */
  async maybeFlush(): Promise<void> {
    if (this.count >= this.batchSize) await this.flush();
  }

  private async wait(): Promise<void> {
    if (!this.inflight) return;
    const t = Date.now();
    try {
      await this.inflight;
    } finally {
      this.waitedMs += Date.now() - t;
      this.inflight = undefined;
    }
  }

  private async flush(): Promise<void> {
    await this.wait();
    if (this.count === 0) return;
    const data = Buffer.from(this.lines.join(''), 'utf8');
    this.staged += this.count;
    this.lines = [];
    this.count = 0;
    const pending = copyFrom(this.client, this.sql, data);
    pending.catch(() => undefined); // observed when awaited
    this.inflight = pending;
  }

  async finish(): Promise<void> {
    await this.flush();
    await this.wait();
  }

  /** Drops what is buffered (the import failed). */
  async discard(): Promise<void> {
    this.lines = [];
    this.count = 0;
    await this.wait().catch(() => undefined);
  }
}

/** A COPY text line of `row[from..to)`, then `suffix` (already escaped), then a newline. */
export function copyLine(row: readonly unknown[], from: number, to: number, suffix = ''): string {
  let line = copyValue(row[from]);
  for (let i = from + 1; i < to; i++) line += `\t${copyValue(row[i])}`;
  return `${line}${suffix}\n`;
}
