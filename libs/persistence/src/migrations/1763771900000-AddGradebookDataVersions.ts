import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A tenant's gradebook data version, bumped inside every gradebook write's transaction (PUT,
 * DELETE, bulk POST). Reads of gradebook objects are keyed by it beside the roster data
 * version, so a grade written through one replica is never answered from another replica's
 * cached page or revalidated as unchanged. No foreign key to `tenants` (regional data, see
 * DropForeignKeysToReplicatedTables): the orphan cleanup removes a deleted tenant's row.
 */
export class AddGradebookDataVersions1763771900000 implements MigrationInterface {
  name = 'AddGradebookDataVersions1763771900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "gradebook_data_versions" ("tenant_id" uuid NOT NULL, "version" bigint NOT NULL, CONSTRAINT "PK_gradebook_data_versions" PRIMARY KEY ("tenant_id"))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "gradebook_data_versions"`);
  }
}
