/**
 * OneRoster JSON objects (reference §3, §4) built by PostgreSQL, one `json` text per row, from
 * the storage map in `query/roster-tables.ts`. The service concatenates these texts into the
 * response without parsing or re-serialising rows.
 *
 * - Absent values are omitted: NULLs are stripped (`json_strip_nulls`), empty strings, empty
 *   lists and empty metadata become NULL first — never `null`, `""` or `[]` in the output.
 * - GUIDRefs get an absolute `href` (`{root}/{collection}/{id}`, the id escaped by
 *   `urlSegmentSql`) and the generic `type` of reference §3.2; `children` of orgs and sessions
 *   are derived from the rows whose parent is this one, in default order.
 * - Booleans as `"true"`/`"false"` or JSON booleans; dates and datetimes compact (spec 2.9) or
 *   ISO 8601 (millisecond precision, UTC), per deployment.
 * - Field selection (`fields`) builds only the selected properties, in the requested order.
 * - `password` and `resources` are never stored, so never emitted.
 *
 * Every request-dependent value (the href root) is a bound parameter; the remaining SQL text is
 * fixed by this code (column names from the storage map, format patterns, GUIDRef types).
 */
import { getCatalog, type DateOutputMode, type OneRosterResource } from '@edu/oneroster-query';
import { quoteIdent, ROSTER_TABLES, urlSegmentSql, type ColumnSource, type RefTarget } from '../query/roster-tables';
import type { SqlParams } from '../query/sql-params';

export interface JsonFormat {
  readonly dateMode: DateOutputMode;
  readonly booleans: 'string' | 'json';
  /** Service root, e.g. `https://host/ims/oneroster/v1p1`. */
  readonly hrefRoot: string;
}

/** Output order of a class's fields: the model's order, with `metadata` last. */
function outputFields(resource: OneRosterResource): string[] {
  const names = getCatalog(resource).fields.map((f) => f.name);
  return [...names.filter((n) => n !== 'metadata'), 'metadata'];
}

const OUTPUT_FIELDS: Readonly<Record<OneRosterResource, readonly string[]>> = Object.fromEntries(
  (Object.keys(ROSTER_TABLES) as OneRosterResource[]).map((r) => [r, outputFields(r)]),
) as Record<OneRosterResource, string[]>;

const DATE_PATTERN: Readonly<Record<DateOutputMode, string>> = { compact: 'YYYYMMDD', iso8601: 'YYYY-MM-DD' };
const DATETIME_PATTERN: Readonly<Record<DateOutputMode, string>> = {
  compact: 'YYYYMMDD"T"HH24MISS.MS"Z"',
  iso8601: 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"',
};

/** Builds the per-row JSON expression; shares one bound href prefix per referenced collection. */
class JsonBuilder {
  private readonly prefixes = new Map<string, string>();
  private readonly types = new Map<string, string>();

  constructor(
    private readonly resource: OneRosterResource,
    private readonly params: SqlParams,
    private readonly fmt: JsonFormat,
    private readonly alias: string,
  ) {}

  private col(column: string): string {
    return `${this.alias}.${quoteIdent(column)}`;
  }

  private prefix(target: RefTarget): string {
    let p = this.prefixes.get(target.collection);
    if (!p) {
      p = this.params.typed(`${this.fmt.hrefRoot}/${target.collection}/`, 'text');
      this.prefixes.set(target.collection, p);
    }
    return p;
  }

  private type(target: RefTarget): string {
    let p = this.types.get(target.type);
    if (!p) {
      p = this.params.typed(target.type, 'text');
      this.types.set(target.type, p);
    }
    return p;
  }

  private guidRef(id: string, target: RefTarget): string {
    return `json_build_object('href', ${this.prefix(target)} || ${urlSegmentSql(id)}, 'sourcedId', ${id}, 'type', ${this.type(target)})`;
  }

  value(source: ColumnSource): string | undefined {
    switch (source.kind) {
      case 'text':
        return `NULLIF(${this.col(source.column)}, '')`;
      case 'date':
        return `to_char(${this.col(source.column)}, '${DATE_PATTERN[this.fmt.dateMode]}')`;
      case 'timestamptz':
        return `to_char(${this.col(source.column)} AT TIME ZONE 'UTC', '${DATETIME_PATTERN[this.fmt.dateMode]}')`;
      case 'boolean':
        return this.fmt.booleans === 'json' ? this.col(source.column) : `CASE ${this.col(source.column)} WHEN TRUE THEN 'true' WHEN FALSE THEN 'false' END`;
      case 'textArray': {
        const c = this.col(source.column);
        return `CASE WHEN cardinality(${c}) > 0 THEN to_json(${c}) END`;
      }
      case 'ref': {
        const c = this.col(source.column);
        return `CASE WHEN ${c} IS NOT NULL THEN ${this.guidRef(c, source.ref)} END`;
      }
      case 'refArray':
        return `(SELECT json_agg(${this.guidRef('x.v', source.ref)} ORDER BY x.i) FROM unnest(${this.col(source.column)}) WITH ORDINALITY AS x(v, i))`;
      case 'children': {
        const table = quoteIdent(ROSTER_TABLES[this.resource].table);
        return `(SELECT json_agg(${this.guidRef('c.sourced_id', source.ref)} ORDER BY c.ordinal) FROM ${table} AS c WHERE c.tenant_id = ${this.alias}.tenant_id AND c.parent_sourced_id = ${this.alias}.sourced_id)`;
      }
      case 'userIds': {
        const c = this.col(source.column);
        return `CASE WHEN jsonb_typeof(${c}) = 'array' AND jsonb_array_length(${c}) > 0 THEN ${c} END`;
      }
      case 'metadata': {
        const c = this.col(source.column);
        return `CASE WHEN jsonb_typeof(${c}) = 'object' AND ${c} <> '{}'::jsonb THEN ${c} END`;
      }
      case 'absent':
        return undefined;
    }
  }
}

/**
 * SQL for one row's JSON text (`… AS "j"`), with the fields selected (all when `fields` is
 * undefined) in output order. Binds the href prefixes and GUIDRef types in `params`.
 */
export function rowJsonSql(resource: OneRosterResource, fields: readonly string[] | undefined, params: SqlParams, fmt: JsonFormat, alias = 't'): string {
  const builder = new JsonBuilder(resource, params, fmt, alias);
  const columns = ROSTER_TABLES[resource].columns;
  const pairs: string[] = [];
  for (const name of fields ?? OUTPUT_FIELDS[resource]) {
    const source = columns[name];
    if (!source || !/^[A-Za-z]+$/.test(name)) continue;
    const value = builder.value(source);
    if (value !== undefined) pairs.push(`'${name}', ${value}`);
  }
  // json_build_object takes at most 100 arguments: no class has more than 50 fields.
  return `json_strip_nulls(json_build_object(${pairs.join(', ')}))::text AS "j"`;
}
