/**
 * OneRoster JSON records (v1.1 or v1.2, this service's output formats or the standard's) to the
 * cells of the CSV binding's files, column by column from the importer's own layouts, so a pulled
 * record goes in exactly as a CSV row of the same data would.
 */
import type { CsvColumn, FileLayout } from '../../../imports/csv-layout';
import { SourceError } from './guarded-http';

type Json = Record<string, unknown>;

/** CSV column → JSON property where the names differ (v1.2 users). */
const RENAMED: Record<string, string> = {
  preferredGivenName: 'preferredFirstName',
  preferredFamilyName: 'preferredLastName',
};

/** The JSON property a CSV column comes from. */
export function jsonName(c: CsvColumn): string {
  if (RENAMED[c.name]) return RENAMED[c.name]!;
  if (c.kind === 'ref') return c.name.replace(/SourcedId$/, '');
  if (c.kind === 'refs') return c.name.replace(/SourcedIds$/, 's');
  return c.name;
}

/** `20240131` → `2024-01-31`; ISO dates as they are. */
export function isoDate(v: string): string {
  return /^\d{8}$/.test(v) ? `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}` : v;
}

/** `20240131T235959.123Z` → `2024-01-31T23:59:59.123Z`; ISO datetimes as they are. */
export function isoDateTime(v: string): string {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})$/.exec(v);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7] ?? ''}${m[8]}` : v;
}

/** Where a problem was found: the page's URL and the record. */
export interface RecordContext {
  url: string;
  sourcedId: string;
}

function problem(ctx: RecordContext, field: string, what: string): SourceError {
  return new SourceError(`record ${JSON.stringify(ctx.sourcedId)}: ${field} ${what}`, ctx.url.split('?')[0], field);
}

function scalar(v: unknown, field: string, ctx: RecordContext): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  throw problem(ctx, field, 'is not a single value');
}

function joined(items: string[], field: string, ctx: RecordContext): string {
  for (const item of items)
    if (item.includes(','))
      throw problem(ctx, field, `holds ${JSON.stringify(item)}, which a CSV list cannot carry (a comma)`);
  return items.join(',');
}

function refId(v: unknown, field: string, ctx: RecordContext): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'object' && typeof (v as Json).sourcedId === 'string') return (v as Json).sourcedId as string;
  throw problem(ctx, field, 'is not a GUIDRef with a sourcedId');
}

function listOf(v: unknown, field: string, ctx: RecordContext): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw problem(ctx, field, 'is not a list');
  return v;
}

/** One cell of a column from a record (`name`: the column's JSON property, `jsonName(c)`). */
export function cell(c: CsvColumn, record: Json, ctx: RecordContext, name = jsonName(c)): string {
  const v = record[name];
  switch (c.kind) {
    case 'ignored':
      return '';
    case 'ref':
      return refId(v, name, ctx);
    case 'refs':
      return joined(
        listOf(v, name, ctx).map((x) => refId(x, name, ctx)),
        name,
        ctx,
      );
    case 'list':
    case 'grades':
    case 'enumList':
      return joined(
        listOf(v, name, ctx).map((x) => scalar(x, name, ctx)),
        name,
        ctx,
      );
    case 'userIds':
      return joined(
        listOf(v, name, ctx).map((x) => {
          const id = x as Json;
          if (typeof id?.type !== 'string' || typeof id?.identifier !== 'string')
            throw problem(ctx, name, 'holds an item without type and identifier');
          return `{${id.type}:${id.identifier}}`;
        }),
        name,
        ctx,
      );
    case 'date':
      return isoDate(scalar(v, name, ctx));
    case 'datetime':
      return isoDateTime(scalar(v, name, ctx));
    default:
      return scalar(v, name, ctx);
  }
}

/** The string values of a record's `metadata` (the `metadata.*` extension columns). */
export function metadataOf(record: Json, ctx: RecordContext): Record<string, string> | undefined {
  const m = record.metadata;
  if (m === undefined || m === null) return undefined;
  if (typeof m !== 'object' || Array.isArray(m)) throw problem(ctx, 'metadata', 'is not an object');
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(m as Json)) out[k] = typeof v === 'string' ? v : JSON.stringify(v);
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A record's sourcedId, status and dateLastModified (checked: every row needs them). */
export function recordHead(
  record: unknown,
  url: string,
): { sourcedId: string; status: string; dateLastModified: string } {
  const r = record as Json;
  if (typeof r !== 'object' || r === null || typeof r.sourcedId !== 'string' || r.sourcedId === '')
    throw new SourceError('a record has no sourcedId', url.split('?')[0], 'sourcedId');
  return {
    sourcedId: r.sourcedId,
    status: typeof r.status === 'string' ? r.status : 'active',
    dateLastModified: typeof r.dateLastModified === 'string' ? isoDateTime(r.dateLastModified) : '',
  };
}

/** Each layout's JSON property names, worked out once (a million rows ask for them). */
const NAMES = new WeakMap<FileLayout, string[]>();

/** The cells of one row of `layout` (after sourcedId, status, dateLastModified). */
export function rowCells(layout: FileLayout, record: Json, ctx: RecordContext): string[] {
  let names = NAMES.get(layout);
  if (!names) NAMES.set(layout, (names = layout.columns.map(jsonName)));
  const out = new Array<string>(names.length);
  for (let i = 0; i < names.length; i++) out[i] = cell(layout.columns[i]!, record, ctx, names[i]);
  return out;
}
