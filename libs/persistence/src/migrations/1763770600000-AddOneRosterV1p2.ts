import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * OneRoster v1.2 beside v1.1 on the same rows (design §9): the v1.2 fields of users (preferred
 * names, pronouns, master identifier, primary org, `roles`, profiles, resources), categories
 * (`weight`), line items (school, academic session, score scale, learning objectives) and results
 * (score scale, text score, learning objectives, work-state flags); the v1.2-only gradebook
 * classes (score scales, assessment line items and results); and the tables of the v1.2 CSV files
 * that describe parts of other records (roles, user profiles, user resources, score scale and
 * learning objective links), kept so later delta files can change their rows.
 *
 * Users stored before this migration get the v1.2 view of their v1.1 data: `primaryOrg` = their
 * first org, one `primary` role per org, `administrator` read as `districtAdministrator` at a
 * district, local, state or national org and `siteAdministrator` elsewhere (the documented
 * mapping the v1.1 importer applies from now on).
 */
export class AddOneRosterV1p21763770600000 implements MigrationInterface {
  name = 'AddOneRosterV1p21763770600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "roster_user_roles" ("tenant_id" uuid NOT NULL, "sourced_id" text COLLATE "C" NOT NULL, "status" text NOT NULL, "date_last_modified" TIMESTAMP WITH TIME ZONE NOT NULL, "metadata" jsonb, "user_sourced_id" text NOT NULL, "role_type" text NOT NULL, "role" text NOT NULL, "org_sourced_id" text NOT NULL, "user_profile_sourced_id" text, "begin_date" date, "end_date" date, CONSTRAINT "PK_02f86ff4dc1602daaa4604f98ed" PRIMARY KEY ("tenant_id", "sourced_id"))`);
    await q.query(`CREATE INDEX "IDX_roster_user_roles_user" ON "roster_user_roles" ("tenant_id", "user_sourced_id")`);
    await q.query(`CREATE TABLE "roster_user_profiles" ("tenant_id" uuid NOT NULL, "sourced_id" text COLLATE "C" NOT NULL, "status" text NOT NULL, "date_last_modified" TIMESTAMP WITH TIME ZONE NOT NULL, "metadata" jsonb, "user_sourced_id" text NOT NULL, "profile_type" text NOT NULL, "vendor_id" text NOT NULL, "application_id" text, "description" text, "credential_type" text NOT NULL, "username" text NOT NULL, CONSTRAINT "PK_0db6bb59481e7459378229afd19" PRIMARY KEY ("tenant_id", "sourced_id"))`);
    await q.query(`CREATE INDEX "IDX_roster_user_profiles_user" ON "roster_user_profiles" ("tenant_id", "user_sourced_id")`);
    await q.query(`CREATE TABLE "roster_user_resources" ("tenant_id" uuid NOT NULL, "sourced_id" text COLLATE "C" NOT NULL, "status" text NOT NULL, "date_last_modified" TIMESTAMP WITH TIME ZONE NOT NULL, "metadata" jsonb, "user_sourced_id" text NOT NULL, "org_sourced_id" text, "class_sourced_id" text, "resource_sourced_id" text NOT NULL, CONSTRAINT "PK_02c518ed1d1ac0586d7e3d566df" PRIMARY KEY ("tenant_id", "sourced_id"))`);
    await q.query(`CREATE INDEX "IDX_roster_user_resources_user" ON "roster_user_resources" ("tenant_id", "user_sourced_id")`);
    await q.query(`CREATE TABLE "gradebook_score_scales" ("tenant_id" uuid NOT NULL, "sourced_id" text COLLATE "C" NOT NULL, "status" text NOT NULL, "date_last_modified" TIMESTAMP WITH TIME ZONE NOT NULL, "metadata" jsonb, "owner_app_id" uuid, "title" text NOT NULL, "type" text NOT NULL, "org_sourced_id" text, "course_sourced_id" text, "class_sourced_id" text, "score_scale_value" jsonb NOT NULL, CONSTRAINT "PK_ff333687879ce3ea2251b729a73" PRIMARY KEY ("tenant_id", "sourced_id"))`);
    await q.query(`CREATE INDEX "IDX_gradebook_score_scales_modified" ON "gradebook_score_scales" ("tenant_id", "date_last_modified")`);
    await q.query(`CREATE INDEX "IDX_gradebook_score_scales_org" ON "gradebook_score_scales" ("tenant_id", "org_sourced_id")`);
    await q.query(`CREATE INDEX "IDX_gradebook_score_scales_class" ON "gradebook_score_scales" ("tenant_id", "class_sourced_id")`);
    await q.query(`CREATE TABLE "gradebook_assessment_line_items" ("tenant_id" uuid NOT NULL, "sourced_id" text COLLATE "C" NOT NULL, "status" text NOT NULL, "date_last_modified" TIMESTAMP WITH TIME ZONE NOT NULL, "metadata" jsonb, "owner_app_id" uuid, "title" text NOT NULL, "description" text, "class_sourced_id" text, "parent_sourced_id" text, "score_scale_sourced_id" text, "result_value_min" double precision, "result_value_max" double precision, "learning_objective_set" jsonb, CONSTRAINT "PK_bb67a9c637ae495af28c2565b03" PRIMARY KEY ("tenant_id", "sourced_id"))`);
    await q.query(`CREATE INDEX "IDX_gradebook_assessment_line_items_modified" ON "gradebook_assessment_line_items" ("tenant_id", "date_last_modified")`);
    await q.query(`CREATE TABLE "gradebook_assessment_results" ("tenant_id" uuid NOT NULL, "sourced_id" text COLLATE "C" NOT NULL, "status" text NOT NULL, "date_last_modified" TIMESTAMP WITH TIME ZONE NOT NULL, "metadata" jsonb, "owner_app_id" uuid, "assessment_line_item_sourced_id" text NOT NULL, "student_sourced_id" text NOT NULL, "score_status" text NOT NULL, "score" double precision, "text_score" text, "score_date" date NOT NULL, "score_scale_sourced_id" text, "score_percentile" double precision, "comment" text, "learning_objective_set" jsonb, "in_progress" boolean, "incomplete" boolean, "late" boolean, "missing" boolean, CONSTRAINT "PK_4c04399e01fa826178a36cc66b4" PRIMARY KEY ("tenant_id", "sourced_id"))`);
    await q.query(`CREATE INDEX "IDX_gradebook_assessment_results_modified" ON "gradebook_assessment_results" ("tenant_id", "date_last_modified")`);
    await q.query(`CREATE INDEX "IDX_gradebook_assessment_results_line_item" ON "gradebook_assessment_results" ("tenant_id", "assessment_line_item_sourced_id")`);
    await q.query(`CREATE TABLE "gradebook_line_item_score_scales" ("tenant_id" uuid NOT NULL, "sourced_id" text COLLATE "C" NOT NULL, "status" text NOT NULL, "date_last_modified" TIMESTAMP WITH TIME ZONE NOT NULL, "metadata" jsonb, "title" text, "line_item_sourced_id" text NOT NULL, "score_scale_sourced_id" text NOT NULL, CONSTRAINT "PK_3699ac194cb90e2ddfa80730ddf" PRIMARY KEY ("tenant_id", "sourced_id"))`);
    await q.query(`CREATE INDEX "IDX_gradebook_line_item_score_scales_owner" ON "gradebook_line_item_score_scales" ("tenant_id", "line_item_sourced_id")`);
    await q.query(`CREATE TABLE "gradebook_result_score_scales" ("tenant_id" uuid NOT NULL, "sourced_id" text COLLATE "C" NOT NULL, "status" text NOT NULL, "date_last_modified" TIMESTAMP WITH TIME ZONE NOT NULL, "metadata" jsonb, "title" text, "result_sourced_id" text NOT NULL, "score_scale_sourced_id" text NOT NULL, CONSTRAINT "PK_bf7f306021775e358e8a9240d6b" PRIMARY KEY ("tenant_id", "sourced_id"))`);
    await q.query(`CREATE INDEX "IDX_gradebook_result_score_scales_owner" ON "gradebook_result_score_scales" ("tenant_id", "result_sourced_id")`);
    await q.query(`CREATE TABLE "gradebook_line_item_learning_objectives" ("tenant_id" uuid NOT NULL, "sourced_id" text COLLATE "C" NOT NULL, "status" text NOT NULL, "date_last_modified" TIMESTAMP WITH TIME ZONE NOT NULL, "metadata" jsonb, "line_item_sourced_id" text NOT NULL, "source" text NOT NULL, "learning_objective_id" text NOT NULL, CONSTRAINT "PK_69685f20b61ef40bf845bc8131a" PRIMARY KEY ("tenant_id", "sourced_id"))`);
    await q.query(`CREATE INDEX "IDX_gradebook_line_item_learning_objectives_owner" ON "gradebook_line_item_learning_objectives" ("tenant_id", "line_item_sourced_id")`);
    await q.query(`CREATE TABLE "gradebook_result_learning_objectives" ("tenant_id" uuid NOT NULL, "sourced_id" text COLLATE "C" NOT NULL, "status" text NOT NULL, "date_last_modified" TIMESTAMP WITH TIME ZONE NOT NULL, "metadata" jsonb, "result_sourced_id" text NOT NULL, "source" text NOT NULL, "learning_objective_id" text NOT NULL, "score" double precision, "text_score" text, CONSTRAINT "PK_46b31406aa59ded1ec6b1fa78c3" PRIMARY KEY ("tenant_id", "sourced_id"))`);
    await q.query(`CREATE INDEX "IDX_gradebook_result_learning_objectives_owner" ON "gradebook_result_learning_objectives" ("tenant_id", "result_sourced_id")`);
    await q.query(`ALTER TABLE "roster_users" ADD "user_master_identifier" text`);
    await q.query(`ALTER TABLE "roster_users" ADD "preferred_first_name" text`);
    await q.query(`ALTER TABLE "roster_users" ADD "preferred_middle_name" text`);
    await q.query(`ALTER TABLE "roster_users" ADD "preferred_last_name" text`);
    await q.query(`ALTER TABLE "roster_users" ADD "pronouns" text`);
    await q.query(`ALTER TABLE "roster_users" ADD "primary_org_sourced_id" text`);
    await q.query(`ALTER TABLE "roster_users" ADD "roles" jsonb NOT NULL DEFAULT '[]'`);
    await q.query(`ALTER TABLE "roster_users" ADD "user_profiles" jsonb NOT NULL DEFAULT '[]'`);
    await q.query(`ALTER TABLE "roster_users" ADD "resource_sourced_ids" text array NOT NULL DEFAULT '{}'`);
    await q.query(`ALTER TABLE "gradebook_categories" ADD "weight" double precision`);
    await q.query(`ALTER TABLE "gradebook_line_items" ADD "school_sourced_id" text`);
    await q.query(`ALTER TABLE "gradebook_line_items" ADD "academic_session_sourced_id" text`);
    await q.query(`ALTER TABLE "gradebook_line_items" ADD "score_scale_sourced_id" text`);
    await q.query(`ALTER TABLE "gradebook_line_items" ADD "learning_objective_set" jsonb`);
    await q.query(`ALTER TABLE "gradebook_results" ADD "score_scale_sourced_id" text`);
    await q.query(`ALTER TABLE "gradebook_results" ADD "text_score" text`);
    await q.query(`ALTER TABLE "gradebook_results" ADD "learning_objective_set" jsonb`);
    await q.query(`ALTER TABLE "gradebook_results" ADD "in_progress" boolean`);
    await q.query(`ALTER TABLE "gradebook_results" ADD "incomplete" boolean`);
    await q.query(`ALTER TABLE "gradebook_results" ADD "late" boolean`);
    await q.query(`ALTER TABLE "gradebook_results" ADD "missing" boolean`);
    await q.query(`UPDATE "roster_users" u SET "primary_org_sourced_id" = u."org_sourced_ids"[1], "roles" = COALESCE((
      SELECT jsonb_agg(jsonb_build_object('roleType', 'primary', 'role',
               CASE WHEN u."role" <> 'administrator' THEN u."role"
                    WHEN o."type" IN ('district', 'local', 'state', 'national') THEN 'districtAdministrator'
                    ELSE 'siteAdministrator' END,
               'org', x.org) ORDER BY x.n)
        FROM unnest(u."org_sourced_ids") WITH ORDINALITY AS x(org, n)
        LEFT JOIN "roster_orgs" o ON o."tenant_id" = u."tenant_id" AND o."sourced_id" = x.org), '[]'::jsonb)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "gradebook_results" DROP COLUMN "missing"`);
    await q.query(`ALTER TABLE "gradebook_results" DROP COLUMN "late"`);
    await q.query(`ALTER TABLE "gradebook_results" DROP COLUMN "incomplete"`);
    await q.query(`ALTER TABLE "gradebook_results" DROP COLUMN "in_progress"`);
    await q.query(`ALTER TABLE "gradebook_results" DROP COLUMN "learning_objective_set"`);
    await q.query(`ALTER TABLE "gradebook_results" DROP COLUMN "text_score"`);
    await q.query(`ALTER TABLE "gradebook_results" DROP COLUMN "score_scale_sourced_id"`);
    await q.query(`ALTER TABLE "gradebook_line_items" DROP COLUMN "learning_objective_set"`);
    await q.query(`ALTER TABLE "gradebook_line_items" DROP COLUMN "score_scale_sourced_id"`);
    await q.query(`ALTER TABLE "gradebook_line_items" DROP COLUMN "academic_session_sourced_id"`);
    await q.query(`ALTER TABLE "gradebook_line_items" DROP COLUMN "school_sourced_id"`);
    await q.query(`ALTER TABLE "gradebook_categories" DROP COLUMN "weight"`);
    await q.query(`ALTER TABLE "roster_users" DROP COLUMN "resource_sourced_ids"`);
    await q.query(`ALTER TABLE "roster_users" DROP COLUMN "user_profiles"`);
    await q.query(`ALTER TABLE "roster_users" DROP COLUMN "roles"`);
    await q.query(`ALTER TABLE "roster_users" DROP COLUMN "primary_org_sourced_id"`);
    await q.query(`ALTER TABLE "roster_users" DROP COLUMN "pronouns"`);
    await q.query(`ALTER TABLE "roster_users" DROP COLUMN "preferred_last_name"`);
    await q.query(`ALTER TABLE "roster_users" DROP COLUMN "preferred_middle_name"`);
    await q.query(`ALTER TABLE "roster_users" DROP COLUMN "preferred_first_name"`);
    await q.query(`ALTER TABLE "roster_users" DROP COLUMN "user_master_identifier"`);
    await q.query(`DROP TABLE "gradebook_result_learning_objectives"`);
    await q.query(`DROP TABLE "gradebook_line_item_learning_objectives"`);
    await q.query(`DROP TABLE "gradebook_result_score_scales"`);
    await q.query(`DROP TABLE "gradebook_line_item_score_scales"`);
    await q.query(`DROP TABLE "gradebook_assessment_results"`);
    await q.query(`DROP TABLE "gradebook_assessment_line_items"`);
    await q.query(`DROP TABLE "gradebook_score_scales"`);
    await q.query(`DROP TABLE "roster_user_resources"`);
    await q.query(`DROP TABLE "roster_user_profiles"`);
    await q.query(`DROP TABLE "roster_user_roles"`);
  }
}
