import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The hosting regions the spec names (AU-NSW, SG): reference data every tenant points at. */
export class SeedRegions1763769600001 implements MigrationInterface {
  name = 'SeedRegions1763769600001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `INSERT INTO "regions" ("id", "name", "provider", "provider_region_id", "region", "region_code", "country", "country_code") VALUES
       ('AU-NSW', 'Australia (New South Wales)', 'aws', 'ap-southeast-2', 'Sydney', 'AU-NSW', 'Australia', 'AU'),
       ('SG', 'Singapore', 'aws', 'ap-southeast-1', 'Singapore', 'SG', 'Singapore', 'SG')`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM "regions" WHERE "id" IN ('AU-NSW', 'SG')`);
  }
}
