import type { MigrationInterface, QueryRunner } from 'typeorm';
import { replaceIndexConcurrently } from './replace-index';

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
 * roster_users holds every tenant of a region: the indexes are replaced concurrently
 * (`replaceIndexConcurrently`), outside a transaction.
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

function replaceIndex(q: QueryRunner, index: string, definition: string): Promise<void> {
  return replaceIndexConcurrently(q, 'roster_users', index, definition);
}
