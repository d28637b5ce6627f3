/** `tenantId` → `tenant_id`: how the alerts entities name the column of a property. */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/**
 * A row of raw SQL as pg returns it: the entity's columns `K` under their column names, typed as
 * the entity types them, so a row type never repeats a column by hand (columns-of.spec.ts checks
 * that every column of the alerts tables is named so).
 */
export type ColumnsOf<E, K extends keyof E & string> = { [P in K as SnakeCase<P>]: E[P] };

/** The same columns read through a LEFT JOIN: null when no row matched. */
export type JoinedColumnsOf<E, K extends keyof E & string> = { [P in K as SnakeCase<P>]: E[P] | null };
