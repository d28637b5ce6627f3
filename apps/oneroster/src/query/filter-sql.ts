/**
 * Filter AST (from `@edu/oneroster-query`) → a parameterised SQL boolean expression over one
 * OneRoster table aliased `t`.
 *
 * Semantics (library README):
 * - `a != v` is exactly NOT (`a = v`): absent values match, and on lists it means "no element
 *   equals v". Only leaves are negated, so positive predicates may yield NULL for absent
 *   values (NULL acts as false under AND/OR in WHERE) and negations are NULL-safe.
 * - `=`, `~` and ordering never match absent values; on lists they hold if any element matches.
 * - Human text (`textMatch: caseInsensitive`) compares through `lower()`; `~` is ILIKE with
 *   escaped wildcards; ids (`sourcedId`, GUIDRef `sourcedId`/`href`) compare exactly.
 * - Datetimes compare as instants, dates as dates, numbers as `double precision`, years and
 *   enums as text (enum ordering and `~` lower-cased). An `unlisted` literal (outside an enumeration or true/false) equals no
 *   stored value: `=` is FALSE, so `!=` holds for every row.
 *
 * - v1.2 `roles.*` look into the user's role list (any element matching); an enrollment role
 *   served as `ext:aide` matches as the value it is served as.
 *
 * Column names come only from the storage maps (`roster-tables*.ts`); every value is a `$n` parameter.
 */
import type { ComparisonOperator, FilterNode, PredicateNode, TypedLiteral } from '@edu/oneroster-query';
import {
  columnOf,
  quoteIdent,
  urlSegmentSql,
  type ColumnSource,
  type HrefRoots,
  type LinkTable,
  type RefTarget,
  type RosterTable,
} from './roster-tables';
import { escapeLike, type SqlParams } from './sql-params';

export interface FilterSqlContext {
  /** The filtered class as its version sees it. */
  readonly table: RosterTable;
  readonly params: SqlParams;
  /** Service roots used to build GUIDRef hrefs, e.g. `https://host/ims/oneroster/v1p1`. */
  readonly hrefRoots: HrefRoots;
  /** Alias of the filtered table (default `t`). */
  readonly alias?: string;
}

/** How a compared value is found: one (possibly NULL) scalar, or a set of elements. */
type ValueSource =
  | { readonly multi: false; readonly expr: string }
  | {
      readonly multi: true;
      /** `EXISTS (SELECT 1 FROM <from> WHERE <cmp(elem)>)` */
      readonly from: string;
      readonly elem: string;
      /** Optional extra condition inside the EXISTS (correlation). */
      readonly where?: string;
      /** For exact `=` on a plain `text[]` column: the column, so `col @> ARRAY[$n]` (GIN-indexable) can be used. */
      readonly arrayColumn?: string;
    };

type SqlType = 'text' | 'date' | 'timestamptz' | 'boolean' | 'number';

interface Resolved {
  readonly source: ValueSource;
  readonly type: SqlType;
  /** Presence test for GUIDRef `type` sub-fields (the type is a constant when the reference exists). */
  readonly refTypeOf?: { readonly target: RefTarget; readonly present: string };
}

/** Translates a filter into a boolean SQL expression; values are bound in `ctx.params`. */
export function filterToSql(node: FilterNode, ctx: FilterSqlContext): string {
  if (node.kind === 'predicate') return predicateToSql(node, ctx);
  return `(${filterToSql(node.left, ctx)} ${node.kind === 'and' ? 'AND' : 'OR'} ${filterToSql(node.right, ctx)})`;
}

function predicateToSql(node: PredicateNode, ctx: FilterSqlContext): string {
  const resolved = resolve(node, ctx);
  if (node.op === '!=') {
    const positive = positiveSql({ ...node, op: '=' }, resolved, ctx);
    return `(${positive}) IS NOT TRUE`;
  }
  return positiveSql(node, resolved, ctx);
}

function alias(ctx: FilterSqlContext): string {
  return ctx.alias ?? 't';
}

function col(ctx: FilterSqlContext, column: string): string {
  return `${alias(ctx)}.${quoteIdent(column)}`;
}

function hrefPrefix(ctx: FilterSqlContext, target: RefTarget): string {
  return ctx.params.typed(`${ctx.hrefRoots[target.service]}/${target.collection}/`, 'text');
}

/** Correlated source of derived `children`: same table, same tenant, `parent_sourced_id` = this row. */
function childrenFrom(ctx: FilterSqlContext): { from: string; where: string } {
  const table = quoteIdent(ctx.table.table);
  const a = alias(ctx);
  return { from: `${table} AS c`, where: `c.tenant_id = ${a}.tenant_id AND c.parent_sourced_id = ${a}.sourced_id` };
}

/** Correlated source of `linked` GUIDRefs: the link table's active rows owned by this row. */
function linkedFrom(ctx: FilterSqlContext, link: LinkTable): { from: string; where: string } {
  const a = alias(ctx);
  return {
    from: `${quoteIdent(link.table)} AS l`,
    where: `l.tenant_id = ${a}.tenant_id AND l.${quoteIdent(link.owner)} = ${a}.sourced_id AND l.status = 'active'`,
  };
}

/** A single GUIDRef held by `expr` (a column or a derived expression). */
function resolveRef(expr: string, target: RefTarget, subField: string | undefined, ctx: FilterSqlContext): Resolved {
  if (subField === 'type')
    return { source: { multi: false, expr }, type: 'text', refTypeOf: { target, present: `${expr} IS NOT NULL` } };
  if (subField === 'href')
    return { source: { multi: false, expr: `(${hrefPrefix(ctx, target)} || ${urlSegmentSql(expr)})` }, type: 'text' };
  return { source: { multi: false, expr }, type: 'text' };
}

/** The SQL type of a v1.2 role's sub-field, and the text key holding it. */
const ROLE_PARTS: Readonly<Record<string, { key: string; type: SqlType }>> = {
  roleType: { key: 'roleType', type: 'text' },
  role: { key: 'role', type: 'text' },
  'org.sourcedId': { key: 'org', type: 'text' },
  'org.href': { key: 'org', type: 'text' },
  userProfile: { key: 'userProfile', type: 'text' },
  beginDate: { key: 'beginDate', type: 'date' },
  endDate: { key: 'endDate', type: 'date' },
};

/** `roles.<part>`: any element of the stored role list (org by sourcedId; its href and type derived). */
function resolveRoles(
  column: string,
  target: RefTarget,
  subField: string | undefined,
  ctx: FilterSqlContext,
): Resolved {
  if (subField === 'org.type')
    return {
      source: { multi: false, expr: 'NULL' },
      type: 'text',
      refTypeOf: { target, present: `jsonb_array_length(${column}) > 0` },
    };
  const part = subField === undefined ? undefined : ROLE_PARTS[subField];
  if (!part) throw new TypeError(`roles.${String(subField)} is not a Role field`);
  const value = `(r.e ->> ${ctx.params.typed(part.key, 'text')})`;
  const elem =
    subField === 'org.href'
      ? `(${hrefPrefix(ctx, target)} || ${urlSegmentSql(value)})`
      : part.type === 'date'
        ? `${value}::date`
        : value;
  return { source: { multi: true, from: `jsonb_array_elements(${column}) AS r(e)`, elem }, type: part.type };
}

function resolve(node: PredicateNode, ctx: FilterSqlContext): Resolved {
  const { field, subField } = node.field;
  const source: ColumnSource = columnOf(ctx.table, field);
  switch (source.kind) {
    case 'text':
      return { source: { multi: false, expr: col(ctx, source.column) }, type: 'text' };
    case 'extText': {
      // Compared as served: values outside the version's list read as `ext:<value>`.
      const c = col(ctx, source.column);
      const listed = source.values.map((v) => ctx.params.typed(v, 'text')).join(', ');
      return {
        source: {
          multi: false,
          expr: `(CASE WHEN ${c} IN (${listed}) OR ${c} LIKE 'ext:%' THEN ${c} ELSE 'ext:' || ${c} END)`,
        },
        type: 'text',
      };
    }
    case 'roles':
      return resolveRoles(col(ctx, source.column), source.ref, subField, ctx);
    case 'jsonList':
      throw new TypeError(`${field} cannot be filtered`);
    case 'date':
      return { source: { multi: false, expr: col(ctx, source.column) }, type: 'date' };
    case 'timestamptz':
      return { source: { multi: false, expr: col(ctx, source.column) }, type: 'timestamptz' };
    case 'boolean':
      return { source: { multi: false, expr: col(ctx, source.column) }, type: 'boolean' };
    case 'number':
      return { source: { multi: false, expr: col(ctx, source.column) }, type: 'number' };
    case 'textArray': {
      const c = col(ctx, source.column);
      return { source: { multi: true, from: `unnest(${c}) AS x(v)`, elem: 'x.v', arrayColumn: c }, type: 'text' };
    }
    case 'metadata': {
      if (subField === undefined) throw new TypeError('metadata filter without a key');
      return {
        source: { multi: false, expr: `(${col(ctx, source.column)} ->> ${ctx.params.typed(subField, 'text')})` },
        type: 'text',
      };
    }
    case 'userIds': {
      if (subField !== 'type' && subField !== 'identifier')
        throw new TypeError(`userIds.${String(subField)} is not a UserId field`);
      const key = ctx.params.typed(subField, 'text');
      return {
        source: {
          multi: true,
          from: `jsonb_array_elements(${col(ctx, source.column)}) AS u(e)`,
          elem: `(u.e ->> ${key})`,
        },
        type: 'text',
      };
    }
    case 'ref':
      return resolveRef(col(ctx, source.column), source.ref, subField, ctx);
    case 'refExpr':
      return resolveRef(source.sql(alias(ctx)), source.ref, subField, ctx);
    case 'refArray':
    case 'children':
    case 'linked':
      return resolveRelated(source, subField, ctx);
    case 'absent':
      return { source: { multi: false, expr: 'NULL' }, type: 'text' };
  }
}

/** Fields naming other records (reference lists, children, linked rows): any one of them matches. */
function resolveRelated(
  source: Extract<ColumnSource, { kind: 'refArray' | 'children' | 'linked' }>,
  subField: string | undefined,
  ctx: FilterSqlContext,
): Resolved {
  switch (source.kind) {
    case 'refArray': {
      const c = col(ctx, source.column);
      if (subField === 'type')
        return {
          source: { multi: false, expr: c },
          type: 'text',
          refTypeOf: { target: source.ref, present: `COALESCE(cardinality(${c}), 0) > 0` },
        };
      if (subField === 'href')
        return {
          source: {
            multi: true,
            from: `unnest(${c}) AS x(v)`,
            elem: `(${hrefPrefix(ctx, source.ref)} || ${urlSegmentSql('x.v')})`,
          },
          type: 'text',
        };
      return { source: { multi: true, from: `unnest(${c}) AS x(v)`, elem: 'x.v', arrayColumn: c }, type: 'text' };
    }
    case 'children': {
      const { from, where } = childrenFrom(ctx);
      if (subField === 'type')
        return {
          source: { multi: false, expr: 'NULL' },
          type: 'text',
          refTypeOf: { target: source.ref, present: `EXISTS (SELECT 1 FROM ${from} WHERE ${where})` },
        };
      const elem =
        subField === 'href' ? `(${hrefPrefix(ctx, source.ref)} || ${urlSegmentSql('c.sourced_id')})` : 'c.sourced_id';
      return { source: { multi: true, from, where, elem }, type: 'text' };
    }
    case 'linked': {
      const { from, where } = linkedFrom(ctx, source.link);
      if (subField === 'type')
        return {
          source: { multi: false, expr: 'NULL' },
          type: 'text',
          refTypeOf: { target: source.ref, present: `EXISTS (SELECT 1 FROM ${from} WHERE ${where})` },
        };
      const target = `l.${quoteIdent(source.link.target)}`;
      const elem = subField === 'href' ? `(${hrefPrefix(ctx, source.ref)} || ${urlSegmentSql(target)})` : target;
      return { source: { multi: true, from, where, elem }, type: 'text' };
    }
  }
}

/** The SQL for `=`, `~` or an ordering operator (never `!=`). */
function positiveSql(node: PredicateNode, resolved: Resolved, ctx: FilterSqlContext): string {
  const { op, value } = node;
  if (columnOf(ctx.table, node.field.field).kind === 'absent') return 'FALSE';
  if (resolved.refTypeOf) {
    // A GUIDRef's type is fixed by its field: decided here, as the SQL would decide it on a column holding that type.
    return enumHolds(resolved.refTypeOf.target.type, op, value) ? resolved.refTypeOf.present : 'FALSE';
  }
  // Enums are text: `~` and ordering ignore case (equality is exact, both sides being canonical).
  const caseInsensitive =
    (node.field.textMatch === 'caseInsensitive' || node.field.valueKind === 'enum') && resolved.type === 'text';
  const { source } = resolved;
  if (!source.multi) return compare(source.expr, op, value, resolved.type, caseInsensitive, ctx);
  if (op === '=' && !caseInsensitive && source.arrayColumn) {
    return `${source.arrayColumn} @> ARRAY[${ctx.params.typed(literalValue(value), 'text')}]`;
  }
  const inner = compare(source.elem, op, value, resolved.type, caseInsensitive, ctx);
  return `EXISTS (SELECT 1 FROM ${source.from} WHERE ${source.where ? `${source.where} AND ` : ''}${inner})`;
}

const SQL_OPERATOR: Readonly<Record<Exclude<ComparisonOperator, '!=' | '~'>, string>> = {
  '=': '=',
  '>': '>',
  '>=': '>=',
  '<': '<',
  '<=': '<=',
};

function compare(
  expr: string,
  op: ComparisonOperator,
  literal: TypedLiteral,
  type: SqlType,
  caseInsensitive: boolean,
  ctx: FilterSqlContext,
): string {
  const p = ctx.params;
  if (op === '!=') throw new TypeError('negation is handled by the caller');
  if (op === '~') {
    const pattern = p.typed(`%${escapeLike(literalValue(literal))}%`, 'text');
    return `${expr} ${caseInsensitive ? 'ILIKE' : 'LIKE'} ${pattern}`;
  }
  const sqlOp = SQL_OPERATOR[op];
  switch (literal.kind) {
    case 'datetime':
      return `${expr} ${sqlOp} ${p.typed(literal.iso, 'timestamptz')}`;
    case 'date':
      return `${expr} ${sqlOp} ${p.typed(literal.value, type === 'date' ? 'date' : 'text')}`;
    case 'boolean':
      return `${expr} ${sqlOp} ${p.typed(literal.value, 'boolean')}`;
    case 'number':
      return `${expr} ${sqlOp} ${p.typed(literal.value, 'double precision')}`;
    case 'enum':
    case 'unlisted':
      // Enums are stored canonical: equality is exact (index-friendly), and an unlisted value equals none.
      if (op === '=') return literal.kind === 'unlisted' ? 'FALSE' : `${expr} = ${p.typed(literal.value, 'text')}`;
      // Ordering: lower-cased code points, which orders the canonical values as the sort does.
      return `lower(${expr}) COLLATE "C" ${sqlOp} lower(${p.typed(literal.value, 'text')})`;
    case 'year':
      return `${expr} ${sqlOp === '=' ? '=' : `COLLATE "C" ${sqlOp}`} ${p.typed(literal.value, 'text')}`;
    case 'string': {
      const value = p.typed(literal.value, 'text');
      // COLLATE "C" leaves equality unchanged and lets the (lower(col) COLLATE "C") indexes serve it.
      if (op === '=') return caseInsensitive ? `lower(${expr}) COLLATE "C" = lower(${value})` : `${expr} = ${value}`;
      // Ordering on text: code-point order (COLLATE "C"), lower-cased for human text, like the sort.
      return caseInsensitive
        ? `lower(${expr}) COLLATE "C" ${sqlOp} lower(${value})`
        : `${expr} COLLATE "C" ${sqlOp} ${value}`;
    }
  }
}

/**
 * `a <op> b` evaluated in JS, for values the database would compare the same way (numbers, or
 * ASCII text in code-point order); `!=` is plain inequality, `~` substring containment.
 */
export function holds<T extends number | string>(a: T, op: ComparisonOperator, b: T): boolean {
  switch (op) {
    case '=':
      return a === b;
    case '!=':
      return a !== b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '~':
      return typeof a === 'string' && typeof b === 'string' && a.includes(b);
  }
}

/**
 * A known enum value (a stored status, a GUIDRef field's fixed type) against a literal, in JS,
 * with the enum rules of `compare`: lower-cased text; an unlisted value equals nothing.
 */
export function enumHolds(value: string, op: ComparisonOperator, literal: TypedLiteral): boolean {
  if (literal.kind === 'unlisted' && op === '=') return false;
  return holds(value.toLowerCase(), op, literalValue(literal).toLowerCase());
}

function literalValue(literal: TypedLiteral): string {
  switch (literal.kind) {
    case 'datetime':
      return literal.iso;
    case 'boolean':
    case 'number':
      return String(literal.value);
    default:
      return literal.value;
  }
}
