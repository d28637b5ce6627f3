import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Roster sources and syncs (design §11, SIS sources): a tenant's sources (`roster_sources`: a
 * SIS's OneRoster API, an SFTP drop, or the operator's upload), every sync with its staged diff
 * and report (`roster_syncs`; one open sync per source), the files of a held sync until it is
 * decided (`roster_sync_packages`) and the tenant's guard settings (`roster_sync_settings`).
 * Regional data: no key to `tenants`.
 */
export class AddRosterSyncs1764500000000 implements MigrationInterface {
  name = 'AddRosterSyncs1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "roster_sources" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "type" text NOT NULL, "name" text NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "settings" jsonb NOT NULL DEFAULT '{}', "secret_encrypted" text, "sftp_username" text, "sftp_password_hash" text, "schedule" jsonb, "delta_cursor" text, "last_full_sync_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_roster_sources" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "IDX_roster_sources_tenant" ON "roster_sources"  ("tenant_id") `);
    await q.query(`CREATE UNIQUE INDEX "UQ_roster_sources_sftp_username" ON "roster_sources"  ("sftp_username") `);
    await q.query(`CREATE TABLE "roster_syncs" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "source_id" uuid, "source_type" text NOT NULL, "trigger" text NOT NULL, "requested_mode" text, "mode" text, "status" text NOT NULL, "origin" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "started_at" TIMESTAMP WITH TIME ZONE, "finished_at" TIMESTAMP WITH TIME ZONE, "import_id" uuid, "data_version" bigint, "rows" integer NOT NULL DEFAULT '0', "diff" jsonb, "counts" jsonb NOT NULL DEFAULT '{}', "errors" jsonb NOT NULL DEFAULT '[]', "warnings" jsonb NOT NULL DEFAULT '[]', "next_cursor" text, "decided_by" text, "decided_at" TIMESTAMP WITH TIME ZONE, "notified_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_roster_syncs" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "IDX_roster_syncs_source" ON "roster_syncs"  ("source_id") `);
    await q.query(`CREATE UNIQUE INDEX "UQ_roster_syncs_source_open" ON "roster_syncs"  ("source_id") WHERE status IN ('queued', 'running')`);
    await q.query(`CREATE INDEX "IDX_roster_syncs_tenant" ON "roster_syncs"  ("tenant_id", "created_at", "id") `);
    await q.query(`CREATE TABLE "roster_sync_packages" ("sync_id" uuid NOT NULL, "file_name" text NOT NULL, "part" integer NOT NULL, "tenant_id" uuid NOT NULL, "data" bytea NOT NULL, CONSTRAINT "PK_roster_sync_packages" PRIMARY KEY ("sync_id", "file_name", "part"))`);
    await q.query(`CREATE INDEX "IDX_roster_sync_packages_tenant" ON "roster_sync_packages"  ("tenant_id") `);
    await q.query(`CREATE TABLE "roster_sync_settings" ("tenant_id" uuid NOT NULL, "deletion_threshold_percent" double precision NOT NULL DEFAULT '10', "notify_url" text, "notify_secret_encrypted" text, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_roster_sync_settings" PRIMARY KEY ("tenant_id"))`);
    await q.query(`ALTER TABLE "roster_syncs" ADD CONSTRAINT "FK_roster_syncs_source" FOREIGN KEY ("source_id") REFERENCES "roster_sources"("id") ON DELETE SET NULL ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "roster_sync_packages" ADD CONSTRAINT "FK_roster_sync_packages_sync" FOREIGN KEY ("sync_id") REFERENCES "roster_syncs"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "roster_sync_settings"`);
    await q.query(`DROP TABLE "roster_sync_packages"`);
    await q.query(`DROP TABLE "roster_syncs"`);
    await q.query(`DROP TABLE "roster_sources"`);
  }
}
