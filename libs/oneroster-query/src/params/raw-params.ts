/**
 * Reading one parameter out of a decoded query object (as Express / qs hand it over).
 *
 * Parameter names match case-insensitively (`orderby`, `OrderBy`), but are not trimmed
 * (`"limit "` is an unknown parameter and ignored). A repeated parameter (array, or the same
 * name in several letter cases) is accepted when every occurrence carries the same value and
 * rejected with `invaliddata` otherwise. Non-string values (nested objects from `a[b]=c`) are
 * `invaliddata`.
 */
import { OneRosterQueryError } from '../errors';

export type RawQuery = Readonly<Record<string, unknown>>;

/** Every value sent for `name` (any letter case), in order. */
export function paramValues(raw: RawQuery, name: string): string[] {
  const wanted = name.toLowerCase();
  const values: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (key.toLowerCase() !== wanted || value === undefined) continue;
    const items: unknown[] = Array.isArray(value) ? value : [value];
    for (const item of items) {
      if (typeof item !== 'string')
        throw OneRosterQueryError.invalidData(name, `Query parameter '${name}' must be a plain string`);
      values.push(item);
    }
  }
  return values;
}

/** The single value of `name`, or undefined when absent. */
export function singleParam(raw: RawQuery, name: string): string | undefined {
  const values = paramValues(raw, name);
  const [first] = values;
  if (values.some((v) => v !== first)) {
    throw OneRosterQueryError.invalidData(
      name,
      `Query parameter '${name}' was given ${values.length} times with different values`,
    );
  }
  return first;
}
