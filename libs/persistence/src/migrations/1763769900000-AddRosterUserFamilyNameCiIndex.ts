import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The rostering API compares human text case-insensitively (`familyName='smith'` matches
 * `Smith`) and sorts it by lower-cased code points with the ordinal as tie-breaker, so the
 * family-name index of roster_users is on `lower(family_name)` in the "C" collation followed by
 * `ordinal`: a `familyName='…'` page in default order reads just its rows in order (no sort of
 * every match), and `data_field=familyName` is the index order. It replaces the plain index,
 * which those queries cannot use.
 */
export class AddRosterUserFamilyNameCiIndex1763769900000 implements MigrationInterface {
  name = 'AddRosterUserFamilyNameCiIndex1763769900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS "IDX_roster_users_family_name"`);
    await q.query(`CREATE INDEX "IDX_roster_users_family_name_ci" ON "roster_users" ("tenant_id", lower("family_name") COLLATE "C", "ordinal")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS "IDX_roster_users_family_name_ci"`);
    await q.query(`CREATE INDEX "IDX_roster_users_family_name" ON "roster_users" ("tenant_id", "family_name")`);
  }
}
