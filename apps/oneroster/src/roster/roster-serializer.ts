/**
 * Rows of the roster tables → OneRoster JSON text (reference §3, §4; v1.2 §4), for every class
 * of either version, from the storage maps in `query/roster-tables*.ts`. The query selects slim columns (dates and datetimes
 * already formatted by PostgreSQL, jsonb as text) and each row is written straight to JSON text:
 * no intermediate objects, no second serialisation pass.
 *
 * - Absent values are omitted: never `null`, `""` or `[]` for optional lists.
 * - GUIDRefs get an absolute `href` (`{root}/{collection}/{id}`, the id escaped as by
 *   `urlSegment`, which mirrors the SQL used by `href` filters) and the generic `type` of
 *   reference §3.2; `children` of orgs and sessions are derived, in default order, and
 *   `resources` of classes and courses from their active link records, by resource sourcedId.
 * - Numbers (gradebook floats) as JSON numbers, exactly as stored.
 * - Booleans as `"true"`/`"false"` or JSON booleans; dates and datetimes compact (spec 2.9) or
 *   ISO 8601 (millisecond precision, UTC), per deployment.
 * - Field selection (`fields`) writes only the selected properties, in the requested order;
 *   without it, the model's order with `metadata` last.
 * - `password` is never stored, so never emitted.
 * - v1.2: hrefs start at the root of the service the target belongs to (rostering, gradebook,
 *   resources); `roles` get GUIDRefs for their orgs; values outside a v1.2 vocabulary that the
 *   store holds for v1.1 (enrollment role `aide`) are served as `ext:aide`.
 */
import { EXT_VALUE, getCatalog, type DateOutputMode } from '@edu/oneroster-query';
import { LRUCache } from 'lru-cache';
import {
  quoteIdent,
  type ColumnSource,
  type HrefRoots,
  type RefTarget,
  type RosterTable,
} from '../query/roster-tables';
import type { ValueRow } from '../db/roster-db';
import { rolesWriter } from './roles-writer';

export interface JsonFormat {
  readonly dateMode: DateOutputMode;
  readonly booleans: 'string' | 'json';
  /** Service roots, e.g. `https://host/ims/oneroster/v1p1` (v1.1: one for all three). */
  readonly hrefRoots: HrefRoots;
}

export interface RowSerializer {
  /** The SELECT list (columns `c0`, `c1`, … over alias `t`). */
  readonly columns: string;
  /** How many columns `columns` selects: a statement's own columns after them start at this index. */
  readonly width: number;
  /** One row, read as values in SELECT-list order (`RosterDb.valueRows`), as a JSON object text. */
  write(row: ValueRow): string;
}

/** Same escaping as `urlSegmentSql`: `%`, `/`, `?`, `#` and space percent-encoded. */
const SEGMENT_UNSAFE = /[%/?# ]/g;
const SEGMENT_ESCAPES: Readonly<Record<string, string>> = {
  '%': '%25',
  '/': '%2F',
  '?': '%3F',
  '#': '%23',
  ' ': '%20',
};
export function urlSegment(id: string): string {
  SEGMENT_UNSAFE.lastIndex = 0;
  return SEGMENT_UNSAFE.test(id) ? id.replace(SEGMENT_UNSAFE, (c) => SEGMENT_ESCAPES[c] as string) : id;
}

const DATE_PATTERN: Readonly<Record<DateOutputMode, string>> = { compact: 'YYYYMMDD', iso8601: 'YYYY-MM-DD' };
const DATETIME_PATTERN: Readonly<Record<DateOutputMode, string>> = {
  compact: 'YYYYMMDD"T"HH24MISS.MS"Z"',
  iso8601: 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"',
};

/** Output order of a class's fields: the model's order (of the table's version), with `metadata` last. */
function outputFields(table: RosterTable): readonly string[] {
  const names = getCatalog(table.resource, table.version).fields.map((f) => f.name);
  return [...names.filter((n) => n !== 'metadata'), 'metadata'];
}

/** The fields written when the request selects none: every field but the withheld ones, in output order. */
export function defaultFields(table: RosterTable, withheld: ReadonlySet<string>): readonly string[] | undefined {
  return withheld.size === 0 ? undefined : outputFields(table).filter((f) => !withheld.has(f));
}

type Emit = (value: unknown) => string;
const q = JSON.stringify;

export function refWriter(target: RefTarget, fmt: JsonFormat): (id: string) => string {
  const prefix = `${fmt.hrefRoots[target.service]}/${target.collection}/`;
  const tail = `,"type":${q(target.type)}}`;
  return (id) => `{"href":${q(prefix + urlSegment(id))},"sourcedId":${q(id)}${tail}`;
}

function refList(ids: unknown, ref: (id: string) => string): string | undefined {
  if (!Array.isArray(ids) || ids.length === 0) return undefined;
  let out = '';
  for (const id of ids) if (typeof id === 'string' && id !== '') out += (out ? ',' : '') + ref(id);
  return out ? `[${out}]` : undefined;
}

/** jsonb text of a non-empty array column, else NULL. */
function jsonArraySql(column: string): string {
  return `CASE WHEN jsonb_typeof(${column}) = 'array' AND jsonb_array_length(${column}) > 0 THEN ${column}::text END`;
}

/** The SQL and writer of a field naming other records: one GUIDRef, or a list of them. */
function referencePlan(
  table: RosterTable,
  source: Extract<ColumnSource, { kind: 'ref' | 'refExpr' | 'refArray' | 'children' | 'linked' }>,
  fmt: JsonFormat,
  alias: string,
): { sql: string; emit: Emit } {
  const col = (column: string) => `${alias}.${quoteIdent(column)}`;
  switch (source.kind) {
    case 'ref':
    case 'refExpr': {
      const ref = refWriter(source.ref, fmt);
      return {
        sql: source.kind === 'ref' ? col(source.column) : source.sql(alias),
        emit: (v) => (typeof v === 'string' && v !== '' ? ref(v) : ''),
      };
    }
    case 'refArray': {
      const ref = refWriter(source.ref, fmt);
      return { sql: col(source.column), emit: (v) => refList(v, ref) ?? '' };
    }
    case 'children': {
      const ref = refWriter(source.ref, fmt);
      const name = quoteIdent(table.table);
      return {
        sql: `ARRAY(SELECT c.sourced_id FROM ${name} AS c WHERE c.tenant_id = ${alias}.tenant_id AND c.parent_sourced_id = ${alias}.sourced_id ORDER BY c.ordinal)`,
        emit: (v) => refList(v, ref) ?? '',
      };
    }
    case 'linked': {
      const ref = refWriter(source.ref, fmt);
      const { table, owner, target } = source.link;
      return {
        // Two link records naming the same resource give one reference.
        sql: `ARRAY(SELECT DISTINCT l.${quoteIdent(target)} COLLATE "C" FROM ${quoteIdent(table)} AS l WHERE l.tenant_id = ${alias}.tenant_id AND l.${quoteIdent(owner)} = ${alias}.sourced_id AND l.status = 'active' ORDER BY 1)`,
        emit: (v) => refList(v, ref) ?? '',
      };
    }
  }
}

/** The SQL column and the writer of one field. */
function fieldPlan(
  table: RosterTable,
  source: ColumnSource,
  fmt: JsonFormat,
  alias: string,
): { sql: string; emit: Emit } | undefined {
  const col = (column: string) => `${alias}.${quoteIdent(column)}`;
  const text: Emit = (v) => (typeof v === 'string' && v !== '' ? q(v) : '');
  switch (source.kind) {
    case 'text':
      return { sql: col(source.column), emit: source.orEmpty ? (v) => text(v) || '""' : text };
    case 'extText': {
      // A value the version's vocabulary lacks is served as an extension value.
      const listed = new Set(source.values);
      return {
        sql: col(source.column),
        emit: (v) => (typeof v !== 'string' || v === '' ? '' : q(listed.has(v) || EXT_VALUE.test(v) ? v : `ext:${v}`)),
      };
    }
    case 'date':
      return { sql: `to_char(${col(source.column)}, '${DATE_PATTERN[fmt.dateMode]}')`, emit: text };
    case 'timestamptz':
      return {
        sql: `to_char(${col(source.column)} AT TIME ZONE 'UTC', '${DATETIME_PATTERN[fmt.dateMode]}')`,
        emit: text,
      };
    case 'boolean': {
      const [yes, no] = fmt.booleans === 'json' ? ['true', 'false'] : ['"true"', '"false"'];
      return { sql: col(source.column), emit: (v) => (v === true ? yes : v === false ? no : '') };
    }
    case 'number':
      // pg reads float8 as a JS number: the shortest text that round-trips it.
      return { sql: col(source.column), emit: (v) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : '') };
    case 'textArray':
      return {
        sql: col(source.column),
        emit: (v) => {
          if (!Array.isArray(v)) return '';
          const items = v.filter((x) => typeof x === 'string' && x !== '');
          return items.length > 0 ? q(items) : '';
        },
      };
    case 'ref':
    case 'refExpr':
    case 'refArray':
    case 'children':
    case 'linked':
      return referencePlan(table, source, fmt, alias);
    case 'userIds':
    case 'jsonList':
      // jsonb text of a list stored in its answer shape ([{type, identifier}], v1.2 profiles, ...): written as is.
      return { sql: jsonArraySql(col(source.column)), emit: (v) => (typeof v === 'string' ? v : '') };
    case 'roles': {
      const write = rolesWriter(refWriter(source.ref, fmt));
      return { sql: col(source.textColumn), emit: (v) => (typeof v === 'string' ? write(v) : '') };
    }
    case 'metadata':
      return {
        sql: `CASE WHEN jsonb_typeof(${col(source.column)}) = 'object' AND ${col(source.column)} <> '{}'::jsonb THEN jsonb_strip_nulls(${col(source.column)})::text END`,
        emit: (v) => (typeof v === 'string' ? v : ''),
      };
    case 'absent':
      return undefined;
  }
}

function build(
  table: RosterTable,
  fields: readonly string[] | undefined,
  fmt: JsonFormat,
  alias: string,
): RowSerializer {
  const sql: string[] = [];
  const writers: Array<{ key: string; emit: Emit }> = [];
  for (const name of fields ?? outputFields(table)) {
    const source = table.columns[name];
    if (!source) continue;
    const plan = fieldPlan(table, source, fmt, alias);
    if (!plan) continue;
    // Writer i reads value i of the row.
    sql.push(`${plan.sql} AS "c${sql.length}"`);
    writers.push({ key: `${q(name)}:`, emit: plan.emit });
  }
  if (sql.length === 0) sql.push(`${alias}.sourced_id AS "c0"`);
  return {
    columns: sql.join(', '),
    width: sql.length,
    write: (row) => {
      let out = '';
      for (let i = 0; i < writers.length; i++) {
        const w = writers[i] as { key: string; emit: Emit };
        const value = w.emit(row[i]);
        if (value !== '') out += `${out ? ',' : ''}${w.key}${value}`;
      }
      return `{${out}}`;
    },
  };
}

const CACHE = new LRUCache<string, RowSerializer>({ max: 1_000 });

/** The serializer for a class view, field selection and output format (built once, then cached). */
export function rowSerializer(
  table: RosterTable,
  fields: readonly string[] | undefined,
  fmt: JsonFormat,
  alias = 't',
): RowSerializer {
  const roots = fmt.hrefRoots;
  const key = `${table.version}|${table.resource}|${fields?.join(',') ?? '*'}|${fmt.dateMode}|${fmt.booleans}|${roots.rostering}|${roots.gradebook}|${roots.resources}|${alias}`;
  let serializer = CACHE.get(key);
  if (!serializer) {
    serializer = build(table, fields, fmt, alias);
    CACHE.set(key, serializer);
  }
  return serializer;
}
