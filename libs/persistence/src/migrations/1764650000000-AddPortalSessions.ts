import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Sessions of the partners' delivery portal (a signed link opened once, then an HttpOnly cookie). */
export class AddPortalSessions1764650000000 implements MigrationInterface {
  name = 'AddPortalSessions1764650000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "alert_portal_sessions" ("id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "app_id" uuid NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "opened_at" TIMESTAMP WITH TIME ZONE, "session_hash" text, CONSTRAINT "PK_alert_portal_sessions" PRIMARY KEY ("id"))`,
    );
    await q.query(
      `CREATE INDEX "IDX_alert_portal_sessions_tenant" ON "alert_portal_sessions" ("tenant_id", "expires_at")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "alert_portal_sessions"`);
  }
}
