import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A visibility scope's own copy of the users it lists (`shared_user_rows`), written with the scope
 * (libs/sharing) when it lists at most `MAX_COPIED_USERS` users: the users of a few classes are
 * scattered over the tenant's whole `roster_users` table, so a page of them read by primary key
 * touches a heap page per row; the copy keeps them side by side in the scope's order (`pos`
 * 0..n-1), and a page is one index range, as an unshared page is over the ordinal.
 *
 * The columns after `scope_id` and `pos` are exactly those of `roster_users` (`LIKE`): the copy
 * is written with `SELECT u.*` and read by the same SQL as the table. A migration that adds a
 * column to `roster_users` adds it here too (a test compares the two). No entity: the table is
 * written and read by SQL only; it goes with its scope (ON DELETE CASCADE), and a scope's rows
 * never change once written (a scope is of one roster data version).
 */
export class AddSharedUserRows1765100000000 implements MigrationInterface {
  name = 'AddSharedUserRows1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "shared_user_rows" ("scope_id" bigint NOT NULL, "pos" integer NOT NULL, LIKE "roster_users", CONSTRAINT "PK_shared_user_rows" PRIMARY KEY ("scope_id", "pos"))`,
    );
    await q.query(
      `ALTER TABLE "shared_user_rows" ADD CONSTRAINT "FK_shared_user_rows_scope" FOREIGN KEY ("scope_id") REFERENCES "sharing_scopes"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "shared_user_rows"`);
  }
}
