import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The OneRoster gradebook service's data: categories, line items and results, written through
 * the API (the writing app in `owner_app_id`) or imported from CSV (`owner_app_id` null). Keyed by
 * tenant first, `sourced_id` collated "C" so the primary key is the default order; no foreign key
 * to `tenants` or `apps` (those rows may reach a regional database in any order). The
 * `date_last_modified` indexes serve delta reads (`filter=dateLastModified>'…'`).
 */
export class CreateGradebook1763770400000 implements MigrationInterface {
  name = 'CreateGradebook1763770400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "gradebook_categories" ("tenant_id" uuid NOT NULL, "sourced_id" text COLLATE "C" NOT NULL, "status" text NOT NULL, "date_last_modified" TIMESTAMP WITH TIME ZONE NOT NULL, "metadata" jsonb, "owner_app_id" uuid, "title" text NOT NULL, CONSTRAINT "PK_03390a92fea44108361a21cd604" PRIMARY KEY ("tenant_id", "sourced_id"))`);
    await q.query(`CREATE TABLE "gradebook_line_items" ("tenant_id" uuid NOT NULL, "sourced_id" text COLLATE "C" NOT NULL, "status" text NOT NULL, "date_last_modified" TIMESTAMP WITH TIME ZONE NOT NULL, "metadata" jsonb, "owner_app_id" uuid, "title" text NOT NULL, "description" text, "assign_date" TIMESTAMP WITH TIME ZONE NOT NULL, "due_date" TIMESTAMP WITH TIME ZONE NOT NULL, "class_sourced_id" text NOT NULL, "category_sourced_id" text, "grading_period_sourced_id" text, "result_value_min" double precision, "result_value_max" double precision, CONSTRAINT "PK_356c65019bbcf9fe4d0fb3e189d" PRIMARY KEY ("tenant_id", "sourced_id"))`);
    await q.query(`CREATE INDEX "IDX_gradebook_line_items_modified" ON "gradebook_line_items" ("tenant_id", "date_last_modified")`);
    await q.query(`CREATE INDEX "IDX_gradebook_line_items_class" ON "gradebook_line_items" ("tenant_id", "class_sourced_id")`);
    await q.query(`CREATE TABLE "gradebook_results" ("tenant_id" uuid NOT NULL, "sourced_id" text COLLATE "C" NOT NULL, "status" text NOT NULL, "date_last_modified" TIMESTAMP WITH TIME ZONE NOT NULL, "metadata" jsonb, "owner_app_id" uuid, "line_item_sourced_id" text NOT NULL, "student_sourced_id" text NOT NULL, "score_status" text NOT NULL, "score" double precision, "score_date" date NOT NULL, "comment" text, CONSTRAINT "PK_b298e871dbfb0b56936ac47ab50" PRIMARY KEY ("tenant_id", "sourced_id"))`);
    await q.query(`CREATE INDEX "IDX_gradebook_results_modified" ON "gradebook_results" ("tenant_id", "date_last_modified")`);
    await q.query(`CREATE INDEX "IDX_gradebook_results_student" ON "gradebook_results" ("tenant_id", "student_sourced_id")`);
    await q.query(`CREATE INDEX "IDX_gradebook_results_line_item" ON "gradebook_results" ("tenant_id", "line_item_sourced_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "gradebook_results"`);
    await q.query(`DROP TABLE "gradebook_line_items"`);
    await q.query(`DROP TABLE "gradebook_categories"`);
  }
}
