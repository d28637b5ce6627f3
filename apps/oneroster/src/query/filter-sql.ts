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
 * Column names come only from `ROSTER_TABLES`; every value is a `$n` parameter.
 */
import type { ComparisonOperator, FilterNode, OneRosterResource, PredicateNode, TypedLiteral } from '@edu/oneroster-query';
import { columnOf, quoteIdent, ROSTER_TABLES, urlSegmentSql, type ColumnSource, type LinkTable, type RefTarget } from './roster-tables';
import { escapeLike, type SqlParams } from './sql-params';

export interface FilterSqlContext {
  readonly resource: OneRosterResource;
  readonly params: SqlParams;
  /** Service root used to build GUIDRef hrefs, e.g. `https://host/ims/oneroster/v1p1`. */
  readonly hrefRoot: string;
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
  return ctx.params.typed(`${ctx.hrefRoot}/${target.collection}/`, 'text');
}

/** Correlated source of derived `children`: same table, same tenant, `parent_sourced_id` = this row. */
function childrenFrom(ctx: FilterSqlContext): { from: string; where: string } {
  const table = quoteIdent(ROSTER_TABLES[ctx.resource].table);
  const a = alias(ctx);
  return { from: `${table} AS c`, where: `c.tenant_id = ${a}.tenant_id AND c.parent_sourced_id = ${a}.sourced_id` };
}

/** Correlated source of `linked` GUIDRefs: the link table's active rows owned by this row. */
function linkedFrom(ctx: FilterSqlContext, link: LinkTable): { from: string; where: string } {
  const a = alias(ctx);
  return { from: `${quoteIdent(link.table)} AS l`, where: `l.tenant_id = ${a}.tenant_id AND l.${quoteIdent(link.owner)} = ${a}.sourced_id AND l.status = 'active'` };
}

function resolve(node: PredicateNode, ctx: FilterSqlContext): Resolved {
  const { field, subField } = node.field;
  const source: ColumnSource = columnOf(ctx.resource, field);
  switch (source.kind) {
    case 'text':
      return { source: { multi: false, expr: col(ctx, source.column) }, type: 'text' };
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
      return { source: { multi: false, expr: `(${col(ctx, source.column)} ->> ${ctx.params.typed(subField, 'text')})` }, type: 'text' };
    }
    case 'userIds': {
      if (subField !== 'type' && subField !== 'identifier') throw new TypeError(`userIds.${String(subField)} is not a UserId field`);
      const key = ctx.params.typed(subField, 'text');
      return { source: { multi: true, from: `jsonb_array_elements(${col(ctx, source.column)}) AS u(e)`, elem: `(u.e ->> ${key})` }, type: 'text' };
    }
    case 'ref': {
      const c = col(ctx, source.column);
      if (subField === 'type') return { source: { multi: false, expr: c }, type: 'text', refTypeOf: { target: source.ref, present: `${c} IS NOT NULL` } };
      if (subField === 'href') return { source: { multi: false, expr: `(${hrefPrefix(ctx, source.ref)} || ${urlSegmentSql(c)})` }, type: 'text' };
      return { source: { multi: false, expr: c }, type: 'text' };
    }
    case 'refArray': {
      const c = col(ctx, source.column);
      if (subField === 'type') return { source: { multi: false, expr: c }, type: 'text', refTypeOf: { target: source.ref, present: `COALESCE(cardinality(${c}), 0) > 0` } };
      if (subField === 'href') return { source: { multi: true, from: `unnest(${c}) AS x(v)`, elem: `(${hrefPrefix(ctx, source.ref)} || ${urlSegmentSql('x.v')})` }, type: 'text' };
      return { source: { multi: true, from: `unnest(${c}) AS x(v)`, elem: 'x.v', arrayColumn: c }, type: 'text' };
    }
    case 'children': {
      const { from, where } = childrenFrom(ctx);
      if (subField === 'type') return { source: { multi: false, expr: 'NULL' }, type: 'text', refTypeOf: { target: source.ref, present: `EXISTS (SELECT 1 FROM ${from} WHERE ${where})` } };
      const elem = subField === 'href' ? `(${hrefPrefix(ctx, source.ref)} || ${urlSegmentSql('c.sourced_id')})` : 'c.sourced_id';
      return { source: { multi: true, from, where, elem }, type: 'text' };
    }
    case 'linked': {
      const { from, where } = linkedFrom(ctx, source.link);
      if (subField === 'type') return { source: { multi: false, expr: 'NULL' }, type: 'text', refTypeOf: { target: source.ref, present: `EXISTS (SELECT 1 FROM ${from} WHERE ${where})` } };
      const target = `l.${quoteIdent(source.link.target)}`;
      const elem = subField === 'href' ? `(${hrefPrefix(ctx, source.ref)} || ${urlSegmentSql(target)})` : target;
      return { source: { multi: true, from, where, elem }, type: 'text' };
    }
    case 'absent':
      return { source: { multi: false, expr: 'NULL' }, type: 'text' };
  }
}

/** The SQL for `=`, `~` or an ordering operator (never `!=`). */
function positiveSql(node: PredicateNode, resolved: Resolved, ctx: FilterSqlContext): string {
  const { op, value } = node;
  if (columnOf(ctx.resource, node.field.field).kind === 'absent') return 'FALSE';
  if (resolved.refTypeOf) {
    // A GUIDRef's type is fixed by its field: decided here, as the SQL would decide it on a column holding that type.
    return enumHolds(resolved.refTypeOf.target.type, op, value) ? resolved.refTypeOf.present : 'FALSE';
  }
  // Enums are text: `~` and ordering ignore case (equality is exact, both sides being canonical).
  const caseInsensitive = (node.field.textMatch === 'caseInsensitive' || node.field.valueKind === 'enum') && resolved.type === 'text';
  const { source } = resolved;
  if (!source.multi) return compare(source.expr, op, value, resolved.type, caseInsensitive, ctx);
  if (op === '=' && !caseInsensitive && source.arrayColumn) {
    return `${source.arrayColumn} @> ARRAY[${ctx.params.typed(literalValue(value), 'text')}]`;
  }
  const inner = compare(source.elem, op, value, resolved.type, caseInsensitive, ctx);
  return `EXISTS (SELECT 1 FROM ${source.from} WHERE ${source.where ? `${source.where} AND ` : ''}${inner})`;
}

const SQL_OPERATOR: Readonly<Record<Exclude<ComparisonOperator, '!=' | '~'>, string>> = { '=': '=', '>': '>', '>=': '>=', '<': '<', '<=': '<=' };

function compare(expr: string, op: ComparisonOperator, literal: TypedLiteral, type: SqlType, caseInsensitive: boolean, ctx: FilterSqlContext): string {
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
      return caseInsensitive ? `lower(${expr}) COLLATE "C" ${sqlOp} lower(${value})` : `${expr} COLLATE "C" ${sqlOp} ${value}`;
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
