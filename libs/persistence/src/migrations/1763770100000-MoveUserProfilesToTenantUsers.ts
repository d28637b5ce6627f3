import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Profiles become per tenant. A user's name, nickname, picture and identity-provider identifiers
 * were one row shared by every tenant linked to the person, so one tenant read what another had
 * stored and changed what the other saw. They move onto the tenant-user link: every existing link
 * gets a copy of the profile its tenant saw until now, and the identifiers its tenant could see
 * (core providers and the tenant's own providers); identifiers no linked tenant could see are
 * dropped. `users` keeps the id and the e-mail address only (a person no tenant links to keeps
 * their id, and a tenant that adds them later gets it).
 */
export class MoveUserProfilesToTenantUsers1763770100000 implements MigrationInterface {
  name = 'MoveUserProfilesToTenantUsers1763770100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "tenant_users" ADD "name" text`);
    await q.query(`ALTER TABLE "tenant_users" ADD "nickname" text`);
    await q.query(`ALTER TABLE "tenant_users" ADD "picture" text`);
    await q.query(`ALTER TABLE "tenant_users" ADD "idp_identifiers" jsonb NOT NULL DEFAULT '[]'`);
    await q.query(`
      UPDATE "tenant_users" tu
         SET "name" = u."name",
             "nickname" = u."nickname",
             "picture" = u."picture",
             "idp_identifiers" = COALESCE(
               (SELECT jsonb_agg(i.e ORDER BY i.n)
                  FROM jsonb_array_elements(u."idp_identifiers") WITH ORDINALITY AS i(e, n)
                 WHERE EXISTS (SELECT 1 FROM "core_identity_providers" c WHERE c."id" = i.e->>'idp_id')
                    OR EXISTS (SELECT 1 FROM "identity_providers" p WHERE p."tenant_id" = tu."tenant_id" AND p."id"::text = lower(i.e->>'idp_id'))),
               '[]'::jsonb)
        FROM "users" u
       WHERE u."id" = tu."user_id"`);
    await q.query(`ALTER TABLE "tenant_users" ALTER COLUMN "name" SET NOT NULL`);
    await q.query(`ALTER TABLE "tenant_users" ALTER COLUMN "nickname" SET NOT NULL`);
    await q.query(`ALTER TABLE "tenant_users" ALTER COLUMN "picture" SET NOT NULL`);
    await q.query(`ALTER TABLE "users" DROP COLUMN "idp_identifiers"`);
    await q.query(`ALTER TABLE "users" DROP COLUMN "picture"`);
    await q.query(`ALTER TABLE "users" DROP COLUMN "nickname"`);
    await q.query(`ALTER TABLE "users" DROP COLUMN "name"`);
  }

  /** Back to one shared profile: each person takes the profile of their oldest link and every link's identifiers. */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "users" ADD "name" text`);
    await q.query(`ALTER TABLE "users" ADD "nickname" text`);
    await q.query(`ALTER TABLE "users" ADD "picture" text`);
    await q.query(`ALTER TABLE "users" ADD "idp_identifiers" jsonb NOT NULL DEFAULT '[]'`);
    await q.query(`
      UPDATE "users" u
         SET "name" = first."name", "nickname" = first."nickname", "picture" = first."picture",
             "idp_identifiers" = COALESCE(
               (SELECT jsonb_agg(DISTINCT e) FROM "tenant_users" tu, jsonb_array_elements(tu."idp_identifiers") e WHERE tu."user_id" = u."id"),
               '[]'::jsonb)
        FROM (SELECT DISTINCT ON ("user_id") "user_id", "name", "nickname", "picture" FROM "tenant_users" ORDER BY "user_id", "created_at", "tenant_id") first
       WHERE first."user_id" = u."id"`);
    await q.query(`UPDATE "users" SET "name" = "email", "nickname" = "email", "picture" = '' WHERE "name" IS NULL`);
    await q.query(`ALTER TABLE "users" ALTER COLUMN "name" SET NOT NULL`);
    await q.query(`ALTER TABLE "users" ALTER COLUMN "nickname" SET NOT NULL`);
    await q.query(`ALTER TABLE "users" ALTER COLUMN "picture" SET NOT NULL`);
    await q.query(`ALTER TABLE "tenant_users" DROP COLUMN "idp_identifiers"`);
    await q.query(`ALTER TABLE "tenant_users" DROP COLUMN "picture"`);
    await q.query(`ALTER TABLE "tenant_users" DROP COLUMN "nickname"`);
    await q.query(`ALTER TABLE "tenant_users" DROP COLUMN "name"`);
  }
}
