/**
 * Field selection (`fields`): comma-separated top-level field names. Blank entries are
 * ignored, names match case-insensitively and come back in canonical case, duplicates are
 * dropped. Unknown names are dropped with an `invalid_selection_field` warning; when no valid
 * name remains, every field is returned (result `undefined`) with that warning.
 * A repeated `fields` parameter is treated as one list (the values are joined).
 */
import { excerpt, type QueryWarning } from '../errors';
import { catalogOf, type ClassRef } from '../model/catalog';
import { paramValues, type RawQuery } from './raw-params';

export function parseFields(
  raw: RawQuery,
  resource: ClassRef,
): { fields: string[] | undefined; warnings: QueryWarning[] } {
  const values = paramValues(raw, 'fields');
  if (values.length === 0) return { fields: undefined, warnings: [] };
  return parseFieldList(values.join(','), resource);
}

/** Parses one comma-separated list of field names for `resource`. */
export function parseFieldList(
  list: string,
  resource: ClassRef,
): { fields: string[] | undefined; warnings: QueryWarning[] } {
  const catalog = catalogOf(resource);
  const names = list
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  if (names.length === 0) return { fields: undefined, warnings: [] };

  const fields: string[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const def = catalog.field(name);
    if (!def) {
      if (!unknown.includes(name)) unknown.push(name);
    } else if (!fields.includes(def.name)) {
      fields.push(def.name);
    }
  }
  if (unknown.length === 0) return { fields, warnings: [] };
  const none = fields.length === 0;
  const problem = `Unknown field${unknown.length > 1 ? 's' : ''} ${excerpt(unknown.map((n) => `'${n}'`).join(', '), 200)} for ${catalog.resource}`;
  const warning: QueryWarning = {
    code: 'invalid_selection_field',
    parameter: 'fields',
    message: `${problem} ignored${none ? '; all fields returned' : ''}`,
    problem,
    values: unknown,
  };
  return { fields: none ? undefined : fields, warnings: [warning] };
}
