/**
 * Totals for the filters sync clients send most — `dateLastModified>'last run'` and
 * `status='active'`, alone or combined — without a count over the matching rows.
 *
 * Rostering data changes only through imports, and an import stamps every record it changes
 * with one timestamp, so a table holds few distinct (status, dateLastModified) pairs. Their
 * counts (one GROUP BY per tenant, data version and base set, cached) answer any filter built
 * only from those two fields exactly: the filter is evaluated on each pair in memory. Should a
 * table hold too many distinct pairs (stamps taken from delta files), the caller falls back to
 * a COUNT.
 */
import type { FilterNode } from '@edu/oneroster-query';
import { enumHolds, holds } from '../query/filter-sql';

/**
 * Distinct pairs beyond which the histogram is not kept (the caller counts instead). Bulk
 * imports stamp every change with one instant; delta files may carry their own stamps, so a
 * tenant can hold thousands.
 */
export const MAX_HISTOGRAM_BUCKETS = 10_000;

export interface StampBucket {
  readonly status: string;
  /** dateLastModified in microseconds since the epoch (the database's precision; exact in a double until year 2255). */
  readonly micros: number;
  readonly count: number;
}

const HISTOGRAM_FIELDS = new Set(['status', 'dateLastModified']);

/** True when every predicate of the filter is on `status` or `dateLastModified`. */
export function histogramCanAnswer(filter: FilterNode): boolean {
  if (filter.kind === 'predicate')
    return HISTOGRAM_FIELDS.has(filter.field.field) && filter.field.subField === undefined;
  return histogramCanAnswer(filter.left) && histogramCanAnswer(filter.right);
}

function matches(filter: FilterNode, bucket: StampBucket): boolean {
  if (filter.kind !== 'predicate') {
    return filter.kind === 'and'
      ? matches(filter.left, bucket) && matches(filter.right, bucket)
      : matches(filter.left, bucket) || matches(filter.right, bucket);
  }
  const { value } = filter;
  if (filter.field.field === 'dateLastModified' && value.kind === 'datetime') {
    return holds(bucket.micros, filter.op, value.value.getTime() * 1000);
  }
  // As in the SQL: an unlisted value equals no status; ordering and `~` compare lower-cased text.
  if (filter.field.field === 'status' && (value.kind === 'enum' || value.kind === 'unlisted'))
    return enumHolds(bucket.status, filter.op, value);
  throw new TypeError(`histogram cannot evaluate ${filter.field.path}`);
}

/** The number of records the filter keeps. */
export function countFromHistogram(filter: FilterNode, buckets: readonly StampBucket[]): number {
  let total = 0;
  for (const bucket of buckets) if (matches(filter, bucket)) total += bucket.count;
  return total;
}
