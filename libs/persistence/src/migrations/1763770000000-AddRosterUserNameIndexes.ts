import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `givenName`, `username` and `email` are the other user fields sync clients filter on
 * (`username='…'`, `email='…'`). The rostering API compares them as `lower(col) COLLATE "C"`,
 * like family names; without these indexes each such request scans the tenant's users.
 */
export class AddRosterUserNameIndexes1763770000000 implements MigrationInterface {
  name = 'AddRosterUserNameIndexes1763770000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX "IDX_roster_users_given_name_ci" ON "roster_users" ("tenant_id", lower("given_name") COLLATE "C", "ordinal")`);
    await q.query(`CREATE INDEX "IDX_roster_users_username_ci" ON "roster_users" ("tenant_id", lower("username") COLLATE "C", "ordinal")`);
    await q.query(`CREATE INDEX "IDX_roster_users_email_ci" ON "roster_users" ("tenant_id", lower("email") COLLATE "C", "ordinal")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS "IDX_roster_users_email_ci"`);
    await q.query(`DROP INDEX IF EXISTS "IDX_roster_users_username_ci"`);
    await q.query(`DROP INDEX IF EXISTS "IDX_roster_users_given_name_ci"`);
  }
}
