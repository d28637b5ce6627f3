import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sign-in (OpenID Connect provider): the provider's stored artifacts (`oidc_payloads`: sessions,
 * interactions, grants, codes, tokens, and the portal's upstream-login state), and the tenant of
 * each grant (`sign_in_grants`). Signing keys of the new use `oidc` live in `signing_keys` (a text
 * column: no change).
 */
export class CreateSignIn1763770700000 implements MigrationInterface {
  name = 'CreateSignIn1763770700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "oidc_payloads" ("kind" text NOT NULL, "id" text NOT NULL, "payload" jsonb NOT NULL, "grant_id" text, "user_code" text, "uid" text, "expires_at" TIMESTAMP WITH TIME ZONE, "consumed_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_oidc_payloads" PRIMARY KEY ("kind", "id"))`);
    await q.query(`CREATE INDEX "IDX_oidc_payloads_grant" ON "oidc_payloads" ("grant_id") `);
    await q.query(`CREATE INDEX "IDX_oidc_payloads_uid" ON "oidc_payloads" ("uid") `);
    await q.query(`CREATE INDEX "IDX_oidc_payloads_expires" ON "oidc_payloads" ("expires_at") `);
    await q.query(`CREATE TABLE "sign_in_grants" ("grant_id" text NOT NULL, "tenant_id" uuid NOT NULL, "user_id" uuid NOT NULL, "app_id" uuid NOT NULL, "provider_id" text NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_sign_in_grants" PRIMARY KEY ("grant_id"))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "sign_in_grants"`);
    await q.query(`DROP TABLE "oidc_payloads"`);
  }
}
