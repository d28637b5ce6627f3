import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Data sharing per deployment: the school's active and draft sharing (`deployment_sharing`), the
 * tenant's sharing version bumped by every activation (`sharing_versions`), the audit trail of
 * sharing changes (`audit_events`), and the computed visibility of a spec at a roster data version
 * (`sharing_scopes` and the objects it lists, `shared_objects`; regional, no key to `tenants`).
 */
export class AddDataSharing1764300000000 implements MigrationInterface {
  name = 'AddDataSharing1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "deployment_sharing" ("deployment_id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "app_id" uuid NOT NULL, "active" jsonb, "active_hash" text, "activated_at" TIMESTAMP WITH TIME ZONE, "draft" jsonb, "draft_saved_at" TIMESTAMP WITH TIME ZONE, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_deployment_sharing" PRIMARY KEY ("deployment_id"))`);
    await q.query(`CREATE INDEX "IDX_deployment_sharing_tenant" ON "deployment_sharing"  ("tenant_id") `);
    await q.query(`ALTER TABLE "deployment_sharing" ADD CONSTRAINT "FK_deployment_sharing_deployment" FOREIGN KEY ("deployment_id") REFERENCES "tenant_app_deployments"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`CREATE TABLE "sharing_versions" ("tenant_id" uuid NOT NULL, "version" bigint NOT NULL, CONSTRAINT "PK_sharing_versions" PRIMARY KEY ("tenant_id"))`);
    await q.query(`ALTER TABLE "sharing_versions" ADD CONSTRAINT "FK_sharing_versions_tenant" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`CREATE TABLE "audit_events" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "type" text NOT NULL, "actor" jsonb NOT NULL, "app_id" uuid, "before" jsonb, "after" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_audit_events" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "IDX_audit_events_tenant_time" ON "audit_events"  ("tenant_id", "created_at", "id") `);
    await q.query(`ALTER TABLE "audit_events" ADD CONSTRAINT "FK_audit_events_tenant" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`CREATE TABLE "sharing_scopes" ("id" BIGSERIAL NOT NULL, "tenant_id" uuid NOT NULL, "spec_hash" text NOT NULL, "roster_version" bigint NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_sharing_scopes_key" UNIQUE ("tenant_id", "spec_hash", "roster_version"), CONSTRAINT "PK_sharing_scopes" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "IDX_sharing_scopes_tenant" ON "sharing_scopes"  ("tenant_id") `);
    await q.query(`CREATE TABLE "shared_objects" ("scope_id" bigint NOT NULL, "object" text NOT NULL, "sourced_id" text NOT NULL, "ord" integer NOT NULL, CONSTRAINT "PK_shared_objects" PRIMARY KEY ("scope_id", "object", "sourced_id"))`);
    await q.query(`CREATE INDEX "IDX_shared_objects_order" ON "shared_objects"  ("scope_id", "object", "ord") `);
    await q.query(`ALTER TABLE "shared_objects" ADD CONSTRAINT "FK_shared_objects_scope" FOREIGN KEY ("scope_id") REFERENCES "sharing_scopes"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "shared_objects"`);
    await q.query(`DROP TABLE "sharing_scopes"`);
    await q.query(`DROP TABLE "audit_events"`);
    await q.query(`DROP TABLE "sharing_versions"`);
    await q.query(`DROP TABLE "deployment_sharing"`);
  }
}
