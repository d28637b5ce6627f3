import { types, type CustomTypesConfig } from 'pg';

/** `text[]` (pg-types names the scalar types only). */
const TEXT_ARRAY_OID = 1009;
type TypeId = Parameters<typeof types.getTypeParser>[0];
const generic = types.getTypeParser(TEXT_ARRAY_OID as TypeId, 'text') as (value: string) => (string | null)[];

/**
 * `text[]` in PostgreSQL's text output, fast for the common case. PostgreSQL quotes an element
 * that is empty, spells NULL, or holds a comma, brace, quote, backslash or white space, so an
 * array printed without `"` or `\` (one dimension, default bounds) is its elements joined by
 * commas, an unquoted NULL being null. Anything else goes to pg's own parser. Roster rows carry
 * several id lists each (orgs, agents, grades): pg's character-by-character parser was about 4 %
 * of the service's CPU on a users page.
 */
export function parseTextArray(value: string): (string | null)[] {
  if (value.charCodeAt(0) !== 123 /* { */ || value.includes('"') || value.includes('\\') || value.includes('{', 1))
    return generic(value);
  if (value.length === 2) return [];
  const elements: (string | null)[] = value.slice(1, -1).split(',');
  for (let i = 0; i < elements.length; i++) if (elements[i] === 'NULL') elements[i] = null;
  return elements;
}

/** pg's type parsers, `text[]` parsed by `parseTextArray`. */
export const ROSTER_TYPES: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TEXT_ARRAY_OID && format !== 'binary'
      ? parseTextArray
      : types.getTypeParser(oid as TypeId, format ?? 'text')) as CustomTypesConfig['getTypeParser'],
};
