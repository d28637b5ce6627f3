/**
 * `COPY ... FROM STDIN` (text format) over a `pg` client, for bulk loading: PostgreSQL's
 * cheapest way in, and the values never become SQL. A query object in `pg`'s "submittable" shape:
 * the client hands it the connection when the server asks for the data.
 */
import type { ClientBase } from 'pg';

/** The parts of pg's connection a COPY needs. */
interface CopyConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

class CopyFromStdin {
  private rowCount = 0;
  private failed = false;
  readonly done: Promise<number>;
  private resolve!: (rows: number) => void;
  private reject!: (err: Error) => void;

  constructor(
    private readonly text: string,
    private readonly data: Buffer,
  ) {
    this.done = new Promise<number>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  submit(connection: CopyConnection): null {
    connection.query(this.text);
    return null;
  }

  handleCopyInResponse(connection: CopyConnection): void {
    if (this.data.length > 0) connection.sendCopyFromChunk(this.data);
    connection.endCopyFrom();
  }

  handleCommandComplete(msg: { text?: string }): void {
    const m = /^COPY (\d+)/.exec(msg.text ?? '');
    if (m) this.rowCount = Number(m[1]);
  }

  handleReadyForQuery(): void {
    if (!this.failed) this.resolve(this.rowCount);
  }

  handleError(err: Error): void {
    this.failed = true;
    this.reject(err);
  }

  // Not part of a COPY FROM exchange.
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyData(): void {}
}

/** Sends `data` (text-format lines) to `COPY <target> FROM STDIN`; resolves with the row count. */
export function copyFrom(client: ClientBase, copySql: string, data: Buffer): Promise<number> {
  const copy = new CopyFromStdin(copySql, data);
  (client as unknown as { query(q: CopyFromStdin): unknown }).query(copy);
  return copy.done;
}

const COPY_SPECIAL = /[\\\t\n\r]/;

/** A value in COPY text format: `\N` for null, t/f for booleans, escaped text otherwise. */
export function copyValue(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'string') {
    if (!COPY_SPECIAL.test(v)) return v;
    return v.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
  }
  if (typeof v === 'boolean') return v ? 't' : 'f';
  return String(v);
}

const ARRAY_SPECIAL = /["\\]/;

/** A PostgreSQL text[] literal with every item quoted. */
export function textArrayLiteral(items: readonly string[]): string {
  if (items.length === 0) return '{}';
  let out = '{';
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    out += `${i > 0 ? ',' : ''}"${ARRAY_SPECIAL.test(item) ? item.replace(/\\/g, '\\\\').replace(/"/g, '\\"') : item}"`;
  }
  return `${out}}`;
}
