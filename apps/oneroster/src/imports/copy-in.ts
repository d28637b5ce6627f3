/**
 * `COPY ... FROM STDIN` (text format) over a `pg` client with `pg-copy-streams`, for bulk
 * loading: PostgreSQL's cheapest way in, and the values never become SQL.
 */
import { finished } from 'node:stream/promises';
import type { ClientBase } from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';

/** One `COPY <target> FROM STDIN` (text format) open on a connection, written in pieces. */
export interface CopyStream {
  /** Sends `data` (whole text-format lines); resolves once the socket takes more. */
  write(data: Buffer): Promise<void>;
  /** Ends the COPY; resolves once PostgreSQL has every row. */
  end(): Promise<void>;
  /** Abandons the COPY (CopyFail); PostgreSQL's error for it is expected and dropped. */
  abort(): Promise<void>;
}

/**
 * Opens a COPY on `client`. The connection runs nothing else until `end` or `abort` settles. A
 * server error (a constraint, a bad value) fails the next `write` or `end`.
 */
export function openCopy(client: ClientBase, copySql: string): CopyStream {
  const stream = client.query(copyFromStdin(copySql));
  // Observed from the start, so an error between writes is not an unhandled 'error' event.
  const done = finished(stream);
  done.catch(() => undefined);
  return {
    async write(data) {
      if (stream.write(data)) return;
      await Promise.race([new Promise((resolve) => stream.once('drain', resolve)), done]);
    },
    async end() {
      stream.end();
      await done;
    },
    async abort() {
      stream.destroy(new Error('the import stopped sending rows'));
      await done.catch(() => undefined);
    },
  };
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

/** The items of a literal written by `textArrayLiteral` (every item quoted), for values derived from staged ones. */
export function parseTextArrayLiteral(literal: string): string[] {
  const items: string[] = [];
  let i = 1;
  while (i < literal.length - 1) {
    let item = '';
    for (i++; literal[i] !== '"'; i++) item += literal[i] === '\\' ? literal[++i] : literal[i];
    items.push(item);
    i += 2; // closing quote, then ',' or '}'
  }
  return items;
}

/** The first item of a literal written by `textArrayLiteral`, without reading the others (null for `{}`). */
export function firstOfTextArrayLiteral(literal: string): string | null {
  if (literal.length < 3) return null;
  const end = literal.indexOf('"', 2);
  const first = literal.slice(2, end);
  // Escaped quotes or backslashes: read it properly.
  return first.includes('\\') ? parseTextArrayLiteral(literal)[0]! : first;
}
