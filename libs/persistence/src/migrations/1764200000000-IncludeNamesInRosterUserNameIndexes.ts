import type { MigrationInterface, QueryRunner } from 'typeorm';

const NAMES = [
  { index: 'IDX_roster_users_family_name_ci', column: 'family_name' },
  { index: 'IDX_roster_users_given_name_ci', column: 'given_name' },
] as const;

/**
 * A `familyName='…'` or `givenName='…'` page needs the number of matches (hundreds of users per
 * name in a large district). PostgreSQL answers a count from an expression index alone only when
 * the index also holds the column the expression reads, so these two indexes were counted
 * through one heap fetch per match (500 random reads for a common name at 1,000,000 users, about
 * 25 ms cold). With the name in the index (INCLUDE) the count is an index-only scan once the
 * table is vacuumed. Usernames and emails match one user each: their indexes stay as they are.
 *
 * roster_users holds every tenant of a region: a plain DROP + CREATE INDEX in a transaction would
 * block every tenant's reads until both builds end. So the new index is built CONCURRENTLY beside
 * the old one (outside a transaction), the old one dropped CONCURRENTLY, the new one renamed
 * into its place. Each step is safe to run again after an interruption: an invalid leftover of an
 * interrupted concurrent build is dropped first.
 */
export class IncludeNamesInRosterUserNameIndexes1764200000000 implements MigrationInterface {
  name = 'IncludeNamesInRosterUserNameIndexes1764200000000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    for (const { index, column } of NAMES) await replaceIndex(q, index, `("tenant_id", lower("${column}") COLLATE "C", "ordinal") INCLUDE ("${column}")`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const { index, column } of NAMES) await replaceIndex(q, index, `("tenant_id", lower("${column}") COLLATE "C", "ordinal")`);
  }
}

async function replaceIndex(q: QueryRunner, index: string, definition: string): Promise<void> {
  const next = `${index}_next`;
  await q.query(`DROP INDEX CONCURRENTLY IF EXISTS "${next}"`);
  await q.query(`CREATE INDEX CONCURRENTLY "${next}" ON "roster_users" ${definition}`);
  await q.query(`DROP INDEX CONCURRENTLY IF EXISTS "${index}"`);
  await q.query(`ALTER INDEX "${next}" RENAME TO "${index}"`);
}
