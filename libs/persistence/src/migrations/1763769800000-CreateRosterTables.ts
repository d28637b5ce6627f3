import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * OneRoster v1.1 rostering tables (orgs, academic sessions, courses, classes, users, enrollments,
 * demographics), the per-tenant data version and the import log. Ordinal unique constraints are
 * DEFERRABLE INITIALLY DEFERRED so an import can renumber rows in place within its transaction.
 */
export class CreateRosterTables1763769800000 implements MigrationInterface {
  name = 'CreateRosterTables1763769800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "roster_orgs" ("tenant_id" uuid NOT NULL, "sourced_id" text NOT NULL, "status" text NOT NULL, "date_last_modified" TIMESTAMP WITH TIME ZONE NOT NULL, "metadata" jsonb, "ordinal" integer NOT NULL, "name" text NOT NULL, "type" text NOT NULL, "identifier" text, "parent_sourced_id" text, CONSTRAINT "UQ_roster_orgs_ordinal" UNIQUE ("tenant_id", "ordinal") DEFERRABLE INITIALLY DEFERRED, CONSTRAINT "PK_2e57627e047d519db9cfb081cb8" PRIMARY KEY ("tenant_id", "sourced_id"))`);
    await q.query(`CREATE INDEX "IDX_roster_orgs_parent" ON "roster_orgs" ("tenant_id", "parent_sourced_id")`);
    await q.query(`CREATE TABLE "roster_academic_sessions" ("tenant_id" uuid NOT NULL, "sourced_id" text NOT NULL, "status" text NOT NULL, "date_last_modified" TIMESTAMP WITH TIME ZONE NOT NULL, "metadata" jsonb, "ordinal" integer NOT NULL, "title" text NOT NULL, "type" text NOT NULL, "start_date" date NOT NULL, "end_date" date NOT NULL, "parent_sourced_id" text, "school_year" text NOT NULL, "type_ordinal" integer NOT NULL, CONSTRAINT "UQ_roster_academic_sessions_type_ordinal" UNIQUE ("tenant_id", "type", "type_ordinal") DEFERRABLE INITIALLY DEFERRED, CONSTRAINT "UQ_roster_academic_sessions_ordinal" UNIQUE ("tenant_id", "ordinal") DEFERRABLE INITIALLY DEFERRED, CONSTRAINT "PK_cff1319165bbf7d7ab592bdab65" PRIMARY KEY ("tenant_id", "sourced_id"))`);
    await q.query(`CREATE INDEX "IDX_roster_academic_sessions_parent" ON "roster_academic_sessions" ("tenant_id", "parent_sourced_id")`);
    await q.query(`CREATE TABLE "roster_courses" ("tenant_id" uuid NOT NULL, "sourced_id" text NOT NULL, "status" text NOT NULL, "date_last_modified" TIMESTAMP WITH TIME ZONE NOT NULL, "metadata" jsonb, "ordinal" integer NOT NULL, "title" text NOT NULL, "course_code" text, "school_year_sourced_id" text, "org_sourced_id" text NOT NULL, "grades" text array NOT NULL DEFAULT '{}', "subjects" text array NOT NULL DEFAULT '{}', "subject_codes" text array NOT NULL DEFAULT '{}', CONSTRAINT "UQ_roster_courses_ordinal" UNIQUE ("tenant_id", "ordinal") DEFERRABLE INITIALLY DEFERRED, CONSTRAINT "PK_b6e6699a76d82d14c0077f97d92" PRIMARY KEY ("tenant_id", "sourced_id"))`);
    await q.query(`CREATE INDEX "IDX_roster_courses_org" ON "roster_courses" ("tenant_id", "org_sourced_id")`);
    await q.query(`CREATE TABLE "roster_classes" ("tenant_id" uuid NOT NULL, "sourced_id" text NOT NULL, "status" text NOT NULL, "date_last_modified" TIMESTAMP WITH TIME ZONE NOT NULL, "metadata" jsonb, "ordinal" integer NOT NULL, "title" text NOT NULL, "class_code" text, "class_type" text NOT NULL, "location" text, "course_sourced_id" text NOT NULL, "school_sourced_id" text NOT NULL, "term_sourced_ids" text array NOT NULL, "grades" text array NOT NULL DEFAULT '{}', "subjects" text array NOT NULL DEFAULT '{}', "subject_codes" text array NOT NULL DEFAULT '{}', "periods" text array NOT NULL DEFAULT '{}', CONSTRAINT "UQ_roster_classes_ordinal" UNIQUE ("tenant_id", "ordinal") DEFERRABLE INITIALLY DEFERRED, CONSTRAINT "PK_3ea988fa883553950a6900a6893" PRIMARY KEY ("tenant_id", "sourced_id"))`);
    await q.query(`CREATE INDEX "IDX_roster_classes_terms" ON "roster_classes" USING gin ("term_sourced_ids")`);
    await q.query(`CREATE INDEX "IDX_roster_classes_school" ON "roster_classes" ("tenant_id", "school_sourced_id")`);
    await q.query(`CREATE INDEX "IDX_roster_classes_course" ON "roster_classes" ("tenant_id", "course_sourced_id")`);
    await q.query(`CREATE TABLE "roster_users" ("tenant_id" uuid NOT NULL, "sourced_id" text NOT NULL, "status" text NOT NULL, "date_last_modified" TIMESTAMP WITH TIME ZONE NOT NULL, "metadata" jsonb, "ordinal" integer NOT NULL, "username" text NOT NULL, "enabled_user" boolean NOT NULL, "given_name" text NOT NULL, "family_name" text NOT NULL, "middle_name" text, "role" text NOT NULL, "identifier" text, "email" text, "sms" text, "phone" text, "org_sourced_ids" text array NOT NULL, "agent_sourced_ids" text array NOT NULL DEFAULT '{}', "grades" text array NOT NULL DEFAULT '{}', "user_ids" jsonb NOT NULL DEFAULT '[]', "role_group" text NOT NULL, "group_ordinal" integer NOT NULL, CONSTRAINT "UQ_roster_users_group_ordinal" UNIQUE ("tenant_id", "role_group", "group_ordinal") DEFERRABLE INITIALLY DEFERRED, CONSTRAINT "UQ_roster_users_ordinal" UNIQUE ("tenant_id", "ordinal") DEFERRABLE INITIALLY DEFERRED, CONSTRAINT "PK_e8af54993be03f9be00671d611b" PRIMARY KEY ("tenant_id", "sourced_id"))`);
    await q.query(`CREATE INDEX "IDX_roster_users_orgs" ON "roster_users" USING gin ("org_sourced_ids")`);
    await q.query(`CREATE INDEX "IDX_roster_users_date_last_modified" ON "roster_users" ("tenant_id", "date_last_modified")`);
    await q.query(`CREATE INDEX "IDX_roster_users_family_name" ON "roster_users" ("tenant_id", "family_name")`);
    await q.query(`CREATE TABLE "roster_enrollments" ("tenant_id" uuid NOT NULL, "sourced_id" text NOT NULL, "status" text NOT NULL, "date_last_modified" TIMESTAMP WITH TIME ZONE NOT NULL, "metadata" jsonb, "ordinal" integer NOT NULL, "class_sourced_id" text NOT NULL, "school_sourced_id" text NOT NULL, "user_sourced_id" text NOT NULL, "role" text NOT NULL, "primary" boolean, "begin_date" date, "end_date" date, CONSTRAINT "UQ_roster_enrollments_ordinal" UNIQUE ("tenant_id", "ordinal") DEFERRABLE INITIALLY DEFERRED, CONSTRAINT "PK_ba40bb5bfbfaa7c78cd57d1d9ee" PRIMARY KEY ("tenant_id", "sourced_id"))`);
    await q.query(`CREATE INDEX "IDX_roster_enrollments_school" ON "roster_enrollments" ("tenant_id", "school_sourced_id")`);
    await q.query(`CREATE INDEX "IDX_roster_enrollments_user" ON "roster_enrollments" ("tenant_id", "user_sourced_id")`);
    await q.query(`CREATE INDEX "IDX_roster_enrollments_class_role" ON "roster_enrollments" ("tenant_id", "class_sourced_id", "role")`);
    await q.query(`CREATE TABLE "roster_demographics" ("tenant_id" uuid NOT NULL, "sourced_id" text NOT NULL, "status" text NOT NULL, "date_last_modified" TIMESTAMP WITH TIME ZONE NOT NULL, "metadata" jsonb, "ordinal" integer NOT NULL, "birth_date" date, "sex" text, "american_indian_or_alaska_native" boolean, "asian" boolean, "black_or_african_american" boolean, "native_hawaiian_or_other_pacific_islander" boolean, "white" boolean, "demographic_race_two_or_more_races" boolean, "hispanic_or_latino_ethnicity" boolean, "country_of_birth_code" text, "state_of_birth_abbreviation" text, "city_of_birth" text, "public_school_residence_status" text, CONSTRAINT "UQ_roster_demographics_ordinal" UNIQUE ("tenant_id", "ordinal") DEFERRABLE INITIALLY DEFERRED, CONSTRAINT "PK_c4c43bd0523f61dfcaaf5403732" PRIMARY KEY ("tenant_id", "sourced_id"))`);
    await q.query(`CREATE TABLE "roster_data_versions" ("tenant_id" uuid NOT NULL, "version" bigint NOT NULL, "imported_at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_7a5405e6a6fc07d0e2e4c9b9709" PRIMARY KEY ("tenant_id"))`);
    await q.query(`CREATE TABLE "roster_imports" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "status" text NOT NULL, "mode" text, "source" text NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "finished_at" TIMESTAMP WITH TIME ZONE, "counts" jsonb NOT NULL DEFAULT '{}', "errors" jsonb NOT NULL DEFAULT '[]', "warnings" jsonb NOT NULL DEFAULT '[]', "data_version" bigint, CONSTRAINT "PK_0d59095c8b83e5bb74bde511464" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "IDX_roster_imports_tenant" ON "roster_imports" ("tenant_id")`);
    await q.query(`ALTER TABLE "roster_orgs" ADD CONSTRAINT "FK_8b7ef170a1e2fa1a7125b6a2c42" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "roster_academic_sessions" ADD CONSTRAINT "FK_0c484cbc8ed4a6f56fffe46bc39" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "roster_courses" ADD CONSTRAINT "FK_b65c23f5fda630087de13e5014a" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "roster_classes" ADD CONSTRAINT "FK_ae86e10c9b4176f3161f6f3389c" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "roster_users" ADD CONSTRAINT "FK_de6137715c884edb3904abbec8c" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "roster_enrollments" ADD CONSTRAINT "FK_893b613c6b9ea8eaee85e5f6320" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "roster_demographics" ADD CONSTRAINT "FK_391650dcdb746da5b731ca60eae" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "roster_data_versions" ADD CONSTRAINT "FK_7a5405e6a6fc07d0e2e4c9b9709" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "roster_imports" ADD CONSTRAINT "FK_7b7c7c857bd85eb3ae9068b1aee" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "roster_imports"`);
    await q.query(`DROP TABLE "roster_data_versions"`);
    await q.query(`DROP TABLE "roster_demographics"`);
    await q.query(`DROP TABLE "roster_enrollments"`);
    await q.query(`DROP TABLE "roster_users"`);
    await q.query(`DROP TABLE "roster_classes"`);
    await q.query(`DROP TABLE "roster_courses"`);
    await q.query(`DROP TABLE "roster_academic_sessions"`);
    await q.query(`DROP TABLE "roster_orgs"`);
  }
}
