import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Tenants, regions, developers, apps, deployments and signing keys. */
export class CreateIdentityCore1763769600000 implements MigrationInterface {
  name = 'CreateIdentityCore1763769600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "regions" ("id" text NOT NULL, "name" text NOT NULL, "provider" text NOT NULL, "provider_region_id" text NOT NULL, "region" text NOT NULL, "region_code" text NOT NULL, "country" text NOT NULL, "country_code" character(2) NOT NULL, CONSTRAINT "PK_4fcd12ed6a046276e2deb08801c" PRIMARY KEY ("id"))`);
    await q.query(`CREATE TABLE "tenants" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" text NOT NULL, "customer_id" integer NOT NULL, "govt_id" text NOT NULL, "environment" text NOT NULL DEFAULT 'PRODUCTION', "status" text NOT NULL DEFAULT 'NORMAL', "region_id" text NOT NULL, "licences" text array NOT NULL DEFAULT '{}', "root_org_sourced_id" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_53be67a04681c66b87ee27c9321" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "IDX_fd1652f7fb866bcfb6185d592f" ON "tenants"("customer_id") `);
    await q.query(`CREATE INDEX "IDX_056a56b6622257a82b336244aa" ON "tenants"("region_id") `);
    await q.query(`CREATE TABLE "developers" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" text NOT NULL, "email" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_247719240b950bd26dec14bdd21" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "IDX_c3b619f396a081afc995c856bd" ON "developers"("email") `);
    await q.query(`CREATE TABLE "apps" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "name" text NOT NULL, "owner_type" text NOT NULL, "owner_id" uuid NOT NULL, "auth_type" text NOT NULL, "oauth2" jsonb, "saml" jsonb, "client_id" text NOT NULL, "client_secret_hash" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_c5121fda0f8268f1f7f84134e19" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "IDX_427a4f04c1469d1d4515fbb2c1" ON "apps"("client_id") `);
    await q.query(`CREATE INDEX "IDX_cd2b0e9bd4cf8e493aba7e57c6" ON "apps"("owner_type", "owner_id") `);
    await q.query(`CREATE TABLE "tenant_app_deployments" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "app_id" uuid NOT NULL, "scope" text array NOT NULL DEFAULT '{}', "client_id" text, "client_secret_hash" text, "settings" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "UQ_5877f2d4608cb05886590a82da0" UNIQUE ("tenant_id", "app_id"), CONSTRAINT "PK_298834addf1b1d7db8a72c0a756" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "IDX_83efab1264e37e6559cc6bb493" ON "tenant_app_deployments"("tenant_id") `);
    await q.query(`CREATE INDEX "IDX_8f15dba778bb9cb45a56471854" ON "tenant_app_deployments"("app_id") `);
    await q.query(`CREATE UNIQUE INDEX "IDX_30a48846bfc1969d4539b2927c" ON "tenant_app_deployments"("client_id") WHERE client_id IS NOT NULL`);
    await q.query(`CREATE TABLE "signing_keys" ("kid" text NOT NULL, "use" text NOT NULL, "alg" text NOT NULL, "public_jwk" jsonb NOT NULL, "private_jwk_encrypted" text NOT NULL, "status" text NOT NULL DEFAULT 'active', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "publish_until" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_13362ac3e792c69417e1a53d355" PRIMARY KEY ("kid"))`);
    await q.query(`CREATE INDEX "IDX_8967af65bd1025ef77bdca3e49" ON "signing_keys"("use", "status") `);
    await q.query(`ALTER TABLE "tenants" ADD CONSTRAINT "FK_056a56b6622257a82b336244aa5" FOREIGN KEY ("region_id") REFERENCES "regions"("id") ON DELETE RESTRICT ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "tenant_app_deployments" ADD CONSTRAINT "FK_83efab1264e37e6559cc6bb4932" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "tenant_app_deployments" ADD CONSTRAINT "FK_8f15dba778bb9cb45a564718544" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "signing_keys"`);
    await q.query(`DROP TABLE "tenant_app_deployments"`);
    await q.query(`DROP TABLE "apps"`);
    await q.query(`DROP TABLE "developers"`);
    await q.query(`DROP TABLE "tenants"`);
    await q.query(`DROP TABLE "regions"`);
  }
}
