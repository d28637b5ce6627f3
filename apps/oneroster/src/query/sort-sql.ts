/**
 * `data_field` / `orderBy` → ORDER BY over a OneRoster table aliased `t`.
 *
 * - The default order (and `sourcedId`) is sourcedId in byte order: the import-assigned
 *   `ordinal` of rostering tables (the position in `sourced_id COLLATE "C"` order), or
 *   `sourced_id` itself on tables whose column is collated "C". It is also the tie-breaker.
 * - Text sorts in code-point order (`COLLATE "C"`, independent of the database locale); human
 *   text sorts case-insensitively (`lower()`), matching how filters compare it.
 * - Absent values sort after present ones ascending and before them descending (PostgreSQL's
 *   default: NULL is the largest value).
 * - The tie-breaker follows the requested direction, so `desc` is exactly the reverse of `asc`.
 */
import { getCatalog, type SortSpec } from '@edu/oneroster-query';
import { columnOf, quoteIdent, type RosterTable } from './roster-tables';

export interface SortSql {
  /** The ORDER BY list (without the keywords). */
  readonly orderBy: string;
  /** True when the order is the default one (ordinal ascending or descending). */
  readonly isDefaultOrder: boolean;
}

export function sortToSql(table: RosterTable, sort: SortSpec, alias = 't'): SortSql {
  const dir = sort.direction === 'desc' ? 'DESC' : 'ASC';
  const tiebreak = `${alias}.${table.order === 'ordinal' ? 'ordinal' : 'sourced_id'} ${dir}`;
  if (!sort.requested || sort.field === 'sourcedId') return { orderBy: tiebreak, isDefaultOrder: true };
  const def = getCatalog(table.resource, table.version).field(sort.field);
  if (!def || !def.sortable) return { orderBy: tiebreak, isDefaultOrder: true };
  const source = columnOf(table, def.name);
  let key: string;
  switch (source.kind) {
    case 'text':
    case 'extText': {
      const c = `${alias}.${quoteIdent(source.column)}`;
      key = def.kind === 'string' && !def.caseSensitive ? `lower(${c}) COLLATE "C"` : `${c} COLLATE "C"`;
      break;
    }
    case 'date':
    case 'timestamptz':
    case 'boolean':
    case 'number':
      key = `${alias}.${quoteIdent(source.column)}`;
      break;
    default:
      // Only scalar fields are sortable; anything else keeps the default order.
      return { orderBy: tiebreak, isDefaultOrder: true };
  }
  return { orderBy: `${key} ${dir}, ${tiebreak}`, isDefaultOrder: false };
}
