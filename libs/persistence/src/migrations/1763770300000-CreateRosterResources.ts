import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The OneRoster resources service's data, imported from `resources.csv`, `classResources.csv` and
 * `courseResources.csv`. Keyed by tenant first, `sourced_id` collated "C" so the primary key is
 * the default order; no foreign key to `tenants` (tenant rows may reach a regional database after
 * the data that names them).
 */
export class CreateRosterResources1763770300000 implements MigrationInterface {
  name = 'CreateRosterResources1763770300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "roster_resources" ("tenant_id" uuid NOT NULL, "sourced_id" text COLLATE "C" NOT NULL, "status" text NOT NULL, "date_last_modified" TIMESTAMP WITH TIME ZONE NOT NULL, "metadata" jsonb, "vendor_resource_id" text NOT NULL, "title" text, "roles" text array NOT NULL DEFAULT '{}', "importance" text, "vendor_id" text, "application_id" text, CONSTRAINT "PK_bcae716acc69c50003f1a8d032a" PRIMARY KEY ("tenant_id", "sourced_id"))`);
    await q.query(`CREATE TABLE "roster_class_resources" ("tenant_id" uuid NOT NULL, "sourced_id" text COLLATE "C" NOT NULL, "status" text NOT NULL, "date_last_modified" TIMESTAMP WITH TIME ZONE NOT NULL, "metadata" jsonb, "title" text, "class_sourced_id" text NOT NULL, "resource_sourced_id" text NOT NULL, CONSTRAINT "PK_470da5eb4591ca9a4af9a14b422" PRIMARY KEY ("tenant_id", "sourced_id"))`);
    await q.query(`CREATE INDEX "IDX_roster_class_resources_class" ON "roster_class_resources" ("tenant_id", "class_sourced_id")`);
    await q.query(`CREATE TABLE "roster_course_resources" ("tenant_id" uuid NOT NULL, "sourced_id" text COLLATE "C" NOT NULL, "status" text NOT NULL, "date_last_modified" TIMESTAMP WITH TIME ZONE NOT NULL, "metadata" jsonb, "title" text, "course_sourced_id" text NOT NULL, "resource_sourced_id" text NOT NULL, CONSTRAINT "PK_f459eafb88d359b50efad45b135" PRIMARY KEY ("tenant_id", "sourced_id"))`);
    await q.query(`CREATE INDEX "IDX_roster_course_resources_course" ON "roster_course_resources" ("tenant_id", "course_sourced_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "roster_course_resources"`);
    await q.query(`DROP TABLE "roster_class_resources"`);
    await q.query(`DROP TABLE "roster_resources"`);
  }
}
