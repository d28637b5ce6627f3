/**
 * Rows of the roster tables → OneRoster JSON text (reference §3, §4; v1.2 §4), for every class
 * of either version, from the storage maps in `query/roster-tables*.ts`. PostgreSQL writes the
 * JSON members of text, dates, booleans, text lists, jsonb lists and metadata itself, each run of
 * them in one column (`memberSql`); JavaScript writes the references (hrefs), numbers and
 * extension values between them (`fieldPlan`). Each row is written straight to JSON text: no
 * intermediate objects, no second serialisation pass, few columns to decode per row.
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
import { quoteIdent, type ColumnSource, type HrefRoots, type RefTarget, type RosterTable } from '../query/roster-tables';
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
  /** One row as a JSON object text. */
  write(row: Record<string, unknown>): string;
}

/** Same escaping as `urlSegmentSql`: `%`, `/`, `?`, `#` and space percent-encoded. */
const SEGMENT_UNSAFE = /[%/?# ]/g;
const SEGMENT_ESCAPES: Readonly<Record<string, string>> = { '%': '%25', '/': '%2F', '?': '%3F', '#': '%23', ' ': '%20' };
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

/** jsonb text of a non-empty object column without its nulls, else NULL. */
function metadataSql(column: string): string {
  return `CASE WHEN jsonb_typeof(${column}) = 'object' AND ${column} <> '{}'::jsonb THEN jsonb_strip_nulls(${column})::text END`;
}

/**
 * The SQL column and the JavaScript writer of a field the database does not write itself
 * (`memberSql`): references (their hrefs), numbers, extension values; undefined for the others.
 */
function fieldPlan(table: RosterTable, source: ColumnSource, fmt: JsonFormat, alias: string): { sql: string; emit: Emit } | undefined {
  const col = (column: string) => `${alias}.${quoteIdent(column)}`;
  switch (source.kind) {
    case 'extText': {
      // A value the version's vocabulary lacks is served as an extension value.
      const listed = new Set(source.values);
      return { sql: col(source.column), emit: (v) => (typeof v !== 'string' || v === '' ? '' : q(listed.has(v) || EXT_VALUE.test(v) ? v : `ext:${v}`)) };
    }
    case 'number':
      // pg reads float8 as a JS number: the shortest text that round-trips it.
      return { sql: col(source.column), emit: (v) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : '') };
    case 'ref':
    case 'refExpr': {
      const ref = refWriter(source.ref, fmt);
      return { sql: source.kind === 'ref' ? col(source.column) : source.sql(alias), emit: (v) => (typeof v === 'string' && v !== '' ? ref(v) : '') };
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
    case 'roles': {
      const write = rolesWriter(refWriter(source.ref, fmt));
      return { sql: jsonArraySql(col(source.column)), emit: (v) => (typeof v === 'string' ? write(v) : '') };
    }
    default:
      return undefined;
  }
}

/** A SQL string literal of a constant of this module (field names, JSON punctuation). */
function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * The SQL that writes one field as its JSON member (`"name":value`), NULL when the field is
 * omitted, for the kinds whose JSON the database can write exactly as `fieldPlan`'s writers would
 * (text and arrays of text through `to_json`/`array_to_json`, which escape as JSON.stringify does);
 * undefined for the kinds written in JavaScript (references, numbers, extension values).
 */
function memberSql(source: ColumnSource, fmt: JsonFormat, name: string, alias: string): string | undefined {
  const col = (column: string) => `${alias}.${quoteIdent(column)}`;
  const key = `${q(name)}:`;
  const quoted = (sql: string) => `${literal(`${key}"`)} || ${sql} || '"'`;
  switch (source.kind) {
    case 'text':
      return source.orEmpty
        ? `${literal(key)} || COALESCE(to_json(NULLIF(${col(source.column)}, ''))::text, '""')`
        : `CASE WHEN ${col(source.column)} <> '' THEN ${literal(key)} || to_json(${col(source.column)})::text END`;
    case 'date':
      return quoted(`to_char(${col(source.column)}, '${DATE_PATTERN[fmt.dateMode]}')`);
    case 'timestamptz':
      return quoted(`to_char(${col(source.column)} AT TIME ZONE 'UTC', '${DATETIME_PATTERN[fmt.dateMode]}')`);
    case 'boolean': {
      const [yes, no] = fmt.booleans === 'json' ? ['true', 'false'] : ['"true"', '"false"'];
      return `CASE ${col(source.column)} WHEN true THEN ${literal(key + yes)} WHEN false THEN ${literal(key + no)} END`;
    }
    case 'textArray': {
      const items = `array_remove(array_remove(${col(source.column)}, ''), NULL)`;
      return `CASE WHEN cardinality(${items}) > 0 THEN ${literal(key)} || array_to_json(${items})::text END`;
    }
    case 'userIds':
    case 'jsonList':
      // jsonb text of a list stored in its answer shape ([{type, identifier}], v1.2 profiles, ...): written as is.
      return `${literal(key)} || ${jsonArraySql(col(source.column))}`;
    case 'metadata':
      return `${literal(key)} || ${metadataSql(col(source.column))}`;
    default:
      return undefined;
  }
}

interface Part {
  /** The SELECT list entry, aliased `c<n>`. */
  readonly sql: string;
  /** The JSON member(s) of the part, '' when absent. */
  readonly emit: Emit;
}

/**
 * The SELECT list and the writers of a class view, in output order. Runs of fields the database
 * can write are joined there into one column of JSON members (`concat_ws` leaves out the NULLs of
 * omitted fields), so a row arrives as a few text columns instead of one column per field.
 */
function parts(table: RosterTable, fields: readonly string[] | undefined, fmt: JsonFormat, alias: string): Part[] {
  const out: Part[] = [];
  let run: string[] = [];
  const endRun = () => {
    if (run.length === 0) return;
    out.push({ sql: `NULLIF(concat_ws(',', ${run.join(', ')}), '')`, emit: (v) => (typeof v === 'string' ? v : '') });
    run = [];
  };
  for (const name of fields ?? outputFields(table)) {
    const source = table.columns[name];
    if (!source) continue;
    const member = memberSql(source, fmt, name, alias);
    if (member !== undefined) {
      run.push(member);
      continue;
    }
    const plan = fieldPlan(table, source, fmt, alias);
    if (!plan) continue;
    endRun();
    const key = `${q(name)}:`;
    out.push({ sql: plan.sql, emit: (v) => { const value = plan.emit(v); return value === '' ? '' : key + value; } });
  }
  endRun();
  return out;
}

function build(table: RosterTable, fields: readonly string[] | undefined, fmt: JsonFormat, alias: string): RowSerializer {
  const list = parts(table, fields, fmt, alias);
  const sql = list.map((p, i) => `${p.sql} AS "c${i}"`);
  if (sql.length === 0) sql.push(`${alias}.sourced_id AS "c0"`);
  const writers = list.map((p, i) => ({ column: `c${i}`, emit: p.emit }));
  return {
    columns: sql.join(', '),
    write: (row) => {
      let out = '';
      for (const w of writers) {
        const members = w.emit(row[w.column]);
        if (members !== '') out += out ? `,${members}` : members;
      }
      return `{${out}}`;
    },
  };
}

const CACHE = new LRUCache<string, RowSerializer>({ max: 1_000 });

/** The serializer for a class view, field selection and output format (built once, then cached). */
export function rowSerializer(table: RosterTable, fields: readonly string[] | undefined, fmt: JsonFormat, alias = 't'): RowSerializer {
  const roots = fmt.hrefRoots;
  const key = `${table.version}|${table.resource}|${fields?.join(',') ?? '*'}|${fmt.dateMode}|${fmt.booleans}|${roots.rostering}|${roots.gradebook}|${roots.resources}|${alias}`;
  let serializer = CACHE.get(key);
  if (!serializer) {
    serializer = build(table, fields, fmt, alias);
    CACHE.set(key, serializer);
  }
  return serializer;
}
