/**
 * Entry points that turn a decoded query object into a validated, typed query.
 */
import { OneRosterQueryError, type QueryWarning } from '../errors';
import type { FilterNode } from '../filter/ast';
import { parseFilter } from '../filter/parser';
import type { ClassRef } from '../model/catalog';
import { parseFields } from './fields-param';
import { DEFAULT_LIMIT, MAX_LIMIT, parseLimit, parseOffset, type OverLimit } from './paging-params';
import { singleParam, type RawQuery } from './raw-params';
import { parseSort, type SortSpec } from './sort-params';

export interface QueryOptions {
  /** Page size when `limit` is absent. Default 100 (spec §8). */
  readonly defaultLimit?: number;
  /** Largest accepted `limit`; above it is a 400. Default 1000 (spec §8). */
  readonly maxLimit?: number;
  /** `clamp` serves a larger `limit` as `maxLimit` instead of a 400 (consumer compatibility profile). Default `reject`. */
  readonly overLimit?: OverLimit;
  /** Refuse what would otherwise be a warning (v1.2: a success body has no room for one). */
  readonly strict?: boolean;
}

export interface CollectionQuery {
  readonly limit: number;
  readonly offset: number;
  /** Always set: the requested field, or `sourcedId` (then `requested` is false). Adapters add `sourcedId` as tie-breaker. */
  readonly sort: SortSpec;
  /** Absent when no (non-blank) filter was given. */
  readonly filter?: FilterNode;
  /** Canonical top-level names to return; undefined = all fields. */
  readonly fields?: readonly string[];
  /** Tolerated problems to report as imsx warnings. */
  readonly warnings: readonly QueryWarning[];
}

export interface SingleQuery {
  readonly fields?: readonly string[];
  readonly warnings: readonly QueryWarning[];
}

/**
 * Validates the query parameters of a collection GET for `resource`.
 * Throws `OneRosterQueryError` (`invaliddata` for limit/offset/repeated parameters,
 * `invalid_filter_field` for the filter); checked in the order limit, offset, filter, sort, fields.
 * Unknown parameters are ignored.
 */
export function parseCollectionQuery(raw: RawQuery, resource: ClassRef, options: QueryOptions = {}): CollectionQuery {
  const limit = parseLimit(
    singleParam(raw, 'limit'),
    options.defaultLimit ?? DEFAULT_LIMIT,
    options.maxLimit ?? MAX_LIMIT,
    options.overLimit,
  );
  const offset = parseOffset(singleParam(raw, 'offset'));
  const filterText = singleParam(raw, 'filter');
  const filter = filterText === undefined || filterText.trim() === '' ? undefined : parseFilter(filterText, resource);
  const { sort, warnings: sortWarnings } = parseSort(raw, resource);
  const { fields, warnings: fieldWarnings } = parseFields(raw, resource);
  const warnings = [...sortWarnings, ...fieldWarnings];
  if (options.strict && warnings[0]) throw OneRosterQueryError.fromWarning(warnings[0]);
  return {
    limit,
    offset,
    sort,
    ...(filter ? { filter } : {}),
    ...(fields ? { fields } : {}),
    warnings,
  };
}

/** Validates the query of a single-object GET: only `fields` counts, everything else is ignored. */
export function parseSingleQuery(
  raw: RawQuery,
  resource: ClassRef,
  options: Pick<QueryOptions, 'strict'> = {},
): SingleQuery {
  const { fields, warnings } = parseFields(raw, resource);
  if (options.strict && warnings[0]) throw OneRosterQueryError.fromWarning(warnings[0]);
  return { ...(fields ? { fields } : {}), warnings };
}
