/**
 * Field selection on an already-serialised object (reference §5.4).
 */

/**
 * A copy of `object` holding only the listed properties that it has, in the listed order.
 * `fields` undefined returns `object` itself (all fields). Absent properties stay absent.
 */
export function selectFields<T extends object>(object: T, fields: readonly string[] | undefined): Partial<T> {
  if (fields === undefined) return object;
  const source = object as Record<string, unknown>;
  const selected: Record<string, unknown> = {};
  for (const name of fields) {
    if (Object.prototype.hasOwnProperty.call(source, name) && source[name] !== undefined) selected[name] = source[name];
  }
  return selected as Partial<T>;
}
