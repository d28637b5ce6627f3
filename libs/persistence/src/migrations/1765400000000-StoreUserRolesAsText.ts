import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The list's JSON text when it has roles, else NULL: what the v1.2 reads select. */
const ROLES_TEXT = `CASE WHEN jsonb_typeof("roles") = 'array' AND jsonb_array_length("roles") > 0 THEN "roles"::text END`;

/**
 * v1.2 user reads write `roles` from its JSON text. Written out from `jsonb` on every read, that
 * text cost PostgreSQL about 80 µs of the ~480 µs of backend CPU a page of 100 users took
 * (the statement alone, five alternations); kept as a stored generated column it is written once,
 * when the roles change, and a read copies it out as it copies any text.
 *
 * `shared_user_rows` keeps `roster_users`' columns (its copies are written with `SELECT u.*`):
 * it gets the column too, as plain text, filled for the copies it already holds.
 *
 * Adding a stored generated column rewrites `roster_users` once, under an exclusive lock: reads
 * and imports of users wait for it: 0.9 s per 100,000 users on the benchmark machine, the table and
 * its indexes rewritten (measured twice on 100,000 users: 0.94 and 0.87 s).
 */
export class StoreUserRolesAsText1765400000000 implements MigrationInterface {
  name = 'StoreUserRolesAsText1765400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "roster_users" ADD "roles_text" text GENERATED ALWAYS AS (${ROLES_TEXT}) STORED`);
    // TypeORM's record of the expression, which its drift check compares the entity's with
    // (QueryRunner.addColumn would write it too, after loading the whole table's definition).
    await q.query(
      `INSERT INTO "typeorm_metadata" ("database", "schema", "table", "type", "name", "value") ` +
        `VALUES (current_database(), current_schema(), 'roster_users', 'GENERATED_COLUMN', 'roles_text', $1)`,
      [ROLES_TEXT],
    );
    await q.query(`ALTER TABLE "shared_user_rows" ADD "roles_text" text`);
    await q.query(`UPDATE "shared_user_rows" SET "roles_text" = ${ROLES_TEXT}`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "shared_user_rows" DROP COLUMN "roles_text"`);
    await q.query(
      `DELETE FROM "typeorm_metadata" WHERE "type" = 'GENERATED_COLUMN' AND "table" = 'roster_users' AND "name" = 'roles_text'`,
    );
    await q.query(`ALTER TABLE "roster_users" DROP COLUMN "roles_text"`);
  }
}
