/**
 * `COPY ... FROM STDIN` (text format) over a `pg` client with `pg-copy-streams`, for bulk
 * loading: PostgreSQL's cheapest way in, and the values never become SQL.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ClientBase } from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';

/** Sends `data` (text-format lines) to `COPY <target> FROM STDIN`; resolves with the row count. */
export async function copyFrom(client: ClientBase, copySql: string, data: Buffer): Promise<number> {
  const stream = client.query(copyFromStdin(copySql));
  await pipeline(Readable.from(data.length > 0 ? [data] : []), stream);
  return stream.rowCount;
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
