import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in with tenants' own providers: the encrypted client secret of an `oauth2` identity
 * provider (sealed with KEY_ENCRYPTION_KEY, never returned by the API), and the sign-in log
 * (`sign_in_events`: every success and refusal, newest first per tenant).
 */
export class AddSignInTenantProviders1763770800000 implements MigrationInterface {
  name = 'AddSignInTenantProviders1763770800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "identity_providers" ADD "client_secret_encrypted" text`);
    await q.query(`CREATE TABLE "sign_in_events" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "app_id" uuid, "provider_id" text, "user_id" uuid, "outcome" text NOT NULL, "reason" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_sign_in_events" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "IDX_sign_in_events_tenant_time" ON "sign_in_events" ("tenant_id", "created_at", "id") `);
    await q.query(`ALTER TABLE "sign_in_events" ADD CONSTRAINT "FK_sign_in_events_tenant" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "sign_in_events"`);
    await q.query(`ALTER TABLE "identity_providers" DROP COLUMN "client_secret_encrypted"`);
  }
}
