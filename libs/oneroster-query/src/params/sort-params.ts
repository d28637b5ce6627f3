/**
 * Sorting: `data_field` (service spec) with the standard `sort` as a synonym, and `orderBy`.
 * Problems here never fail a request; they fall back to the default order with an
 * `invalid_sort_field` warning.
 */
import { excerpt, type QueryWarning } from '../errors';
import { catalogOf, type ClassRef } from '../model/catalog';
import type { FieldKind } from '../model/field-kinds';
import { singleParam, type RawQuery } from './raw-params';

export type SortDirection = 'asc' | 'desc';

export interface SortSpec {
  /** Canonical field name; `sourcedId` when no (valid) sort field was requested. */
  readonly field: string;
  readonly kind: FieldKind;
  readonly direction: SortDirection;
  /** False when `field` is the default (nothing, or nothing valid, was requested). */
  readonly requested: boolean;
}

export const DEFAULT_SORT_FIELD = 'sourcedId';

function blankToUndefined(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function parseDirection(raw: RawQuery, warnings: QueryWarning[]): SortDirection {
  const text = blankToUndefined(singleParam(raw, 'orderBy'));
  if (text === undefined) return 'asc';
  const lower = text.toLowerCase();
  if (lower === 'asc' || lower === 'acs') return 'asc';
  if (lower === 'desc') return 'desc';
  warnings.push({
    code: 'invalid_sort_field',
    parameter: 'orderBy',
    message: `Unknown orderBy '${excerpt(text)}' (use asc or desc); ascending order used`,
    problem: `Unknown orderBy '${excerpt(text)}' (use asc or desc)`,
    values: [text],
  });
  return 'asc';
}

/** Reads `data_field` / `sort` / `orderBy`; never throws except for conflicting repeated parameters. */
export function parseSort(raw: RawQuery, resource: ClassRef): { sort: SortSpec; warnings: QueryWarning[] } {
  const warnings: QueryWarning[] = [];
  const catalog = catalogOf(resource);
  const dataField = blankToUndefined(singleParam(raw, 'data_field'));
  const sortParam = blankToUndefined(singleParam(raw, 'sort'));
  const direction = parseDirection(raw, warnings);

  if (dataField !== undefined && sortParam !== undefined && dataField.toLowerCase() !== sortParam.toLowerCase()) {
    warnings.push({
      code: 'invalid_sort_field',
      parameter: 'sort',
      message: `Both data_field '${excerpt(dataField)}' and sort '${excerpt(sortParam)}' given; data_field is used and sort ignored`,
      problem: `Both data_field '${excerpt(dataField)}' and sort '${excerpt(sortParam)}' given`,
      values: [sortParam],
    });
  }
  const requested = dataField ?? sortParam;
  const parameter = dataField !== undefined ? 'data_field' : 'sort';
  const fallback = catalog.field(DEFAULT_SORT_FIELD);
  if (!fallback) throw new TypeError('catalog without sourcedId');
  if (requested === undefined)
    return { sort: { field: fallback.name, kind: fallback.kind, direction, requested: false }, warnings };

  const def = catalog.field(requested);
  if (!def || !def.sortable) {
    const problem = def
      ? `Field '${def.name}' of ${catalog.resource} cannot be sorted on`
      : `Unknown sort field '${excerpt(requested)}' for ${catalog.resource}`;
    warnings.push({
      code: 'invalid_sort_field',
      parameter,
      message: `${problem}; default order used`,
      problem,
      values: [requested],
    });
    return { sort: { field: fallback.name, kind: fallback.kind, direction, requested: false }, warnings };
  }
  return { sort: { field: def.name, kind: def.kind, direction, requested: true }, warnings };
}
