/**
 * Rows of the roster tables → OneRoster JSON objects (reference §3, §4), for every class, from
 * the storage map in `query/roster-tables.ts`:
 * - absent values are omitted (never `null`, `""` or `[]` for optional lists);
 * - GUIDRefs get an absolute `href` and the generic `type` of reference §3.2;
 * - `children` of orgs and sessions are derived from the rows whose parent is this one;
 * - booleans as `"true"`/`"false"` or JSON booleans, dates compact or ISO 8601, per deployment;
 * - `password` and `resources` are never stored, so never emitted.
 */
import { formatDate, formatDateTime, getCatalog, type DateOutputMode, type OneRosterResource } from '@edu/oneroster-query';
import { quoteIdent, ROSTER_TABLES, type ColumnSource, type RefTarget } from '../query/roster-tables';

export interface ViewFormat {
  readonly dateMode: DateOutputMode;
  readonly booleans: 'string' | 'json';
  /** Service root, e.g. `https://host/ims/oneroster/v1p1`. */
  readonly hrefRoot: string;
}

export interface GuidRef {
  readonly href: string;
  readonly sourcedId: string;
  readonly type: string;
}

export type RosterView = Record<string, unknown>;
type Row = Record<string, unknown>;

interface FieldPlan {
  readonly name: string;
  readonly source: ColumnSource;
}

function plan(resource: OneRosterResource): FieldPlan[] {
  const columns = ROSTER_TABLES[resource].columns;
  const names = getCatalog(resource).fields.map((f) => f.name);
  // metadata last: the extension bag reads best after the standard fields.
  const ordered = [...names.filter((n) => n !== 'metadata'), 'metadata'];
  return ordered.map((name) => ({ name, source: columns[name] as ColumnSource })).filter((f) => f.source && f.source.kind !== 'absent');
}

const PLANS: Readonly<Record<OneRosterResource, readonly FieldPlan[]>> = Object.fromEntries(
  (Object.keys(ROSTER_TABLES) as OneRosterResource[]).map((r) => [r, plan(r)]),
) as Record<OneRosterResource, FieldPlan[]>;

/** The SELECT list for a class over alias `t`, one output column per field, named like the field. */
export function selectList(resource: OneRosterResource, alias = 't'): string {
  const table = quoteIdent(ROSTER_TABLES[resource].table);
  return PLANS[resource]
    .map(({ name, source }) => {
      const out = `"${name}"`;
      switch (source.kind) {
        case 'date':
          return `to_char(${alias}.${quoteIdent(source.column)}, 'YYYY-MM-DD') AS ${out}`;
        case 'children':
          return `ARRAY(SELECT c.sourced_id FROM ${table} AS c WHERE c.tenant_id = ${alias}.tenant_id AND c.parent_sourced_id = ${alias}.sourced_id ORDER BY c.ordinal) AS ${out}`;
        case 'absent':
          return '';
        default:
          return `${alias}.${quoteIdent(source.column)} AS ${out}`;
      }
    })
    .filter((s) => s !== '')
    .join(', ');
}

function guidRef(id: string, target: RefTarget, fmt: ViewFormat): GuidRef {
  return { href: `${fmt.hrefRoot}/${target.collection}/${encodeURIComponent(id)}`, sourcedId: id, type: target.type };
}

function present(value: unknown): boolean {
  return value !== null && value !== undefined && value !== '';
}

/** One row as the OneRoster object of its class. */
export function toView(resource: OneRosterResource, row: Row, fmt: ViewFormat): RosterView {
  const view: RosterView = {};
  for (const { name, source } of PLANS[resource]) {
    const value = row[name];
    if (!present(value)) continue;
    switch (source.kind) {
      case 'text':
        view[name] = String(value);
        break;
      case 'date':
        view[name] = formatDate(String(value), fmt.dateMode);
        break;
      case 'timestamptz':
        view[name] = formatDateTime(value instanceof Date ? value : new Date(String(value)), fmt.dateMode);
        break;
      case 'boolean':
        view[name] = fmt.booleans === 'json' ? Boolean(value) : value ? 'true' : 'false';
        break;
      case 'textArray': {
        const list = (value as unknown[]).filter(present).map(String);
        if (list.length > 0) view[name] = list;
        break;
      }
      case 'ref':
        view[name] = guidRef(String(value), source.ref, fmt);
        break;
      case 'refArray':
      case 'children': {
        const refs = (value as unknown[]).filter(present).map((id) => guidRef(String(id), source.ref, fmt));
        if (refs.length > 0) view[name] = refs;
        break;
      }
      case 'userIds': {
        const ids = Array.isArray(value)
          ? (value as Array<{ type?: unknown; identifier?: unknown }>)
              .filter((u) => u && present(u.identifier))
              .map((u) => (present(u.type) ? { type: String(u.type), identifier: String(u.identifier) } : { identifier: String(u.identifier) }))
          : [];
        if (ids.length > 0) view[name] = ids;
        break;
      }
      case 'metadata':
        if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length > 0) view[name] = value;
        break;
    }
  }
  return view;
}
