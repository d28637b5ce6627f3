import type { MigrationInterface, QueryRunner } from 'typeorm';

const button = (label: string, fill: string, ink: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="40" viewBox="0 0 240 40"><rect x="0.5" y="0.5" width="239" height="39" rx="4" fill="${fill}" stroke="#8c8c8c"/><text x="120" y="25" font-family="sans-serif" font-size="14" text-anchor="middle" fill="${ink}">${label}</text></svg>`;

/**
 * Identity directory: service-managed (core) and tenant identity providers, constituencies,
 * users, tenant-user links and vanity domains; seeds the core providers.
 */
export class CreateIdentityDirectory1763769700000 implements MigrationInterface {
  name = 'CreateIdentityDirectory1763769700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "core_identity_providers" ("id" text NOT NULL, "button_graphic" text NOT NULL, CONSTRAINT "PK_609aa737d63c613deae5f2a25c1" PRIMARY KEY ("id"))`);
    await q.query(`CREATE TABLE "identity_providers" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "tenant_id" uuid NOT NULL, "button_graphic" text NOT NULL, "provision_just_in_time" boolean NOT NULL DEFAULT false, "type" text NOT NULL, "lti" jsonb, "oauth2" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_3ac9e77e3690c03f7f25579c8e0" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "IDX_94a7bbc0e893d99a5b316e0a6d" ON "identity_providers" ("tenant_id") `);
    await q.query(`CREATE TABLE "constituencies" ("tenant_id" uuid NOT NULL, "id" text NOT NULL, "name" text NOT NULL, "enable_self_service_provisioning" boolean NOT NULL DEFAULT false, "allowed_identity_providers" text array NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_67c33d6110b25eb6ad48d02e832" PRIMARY KEY ("tenant_id", "id"))`);
    await q.query(`CREATE TABLE "users" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "email" text NOT NULL, "name" text NOT NULL, "nickname" text NOT NULL, "picture" text NOT NULL, "idp_identifiers" jsonb NOT NULL DEFAULT '[]', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "IDX_97672ac88f789774dd47f7c8be" ON "users" ("email") `);
    await q.query(`CREATE TABLE "tenant_users" ("tenant_id" uuid NOT NULL, "user_id" uuid NOT NULL, "constituencies" text array NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_c31836bba2a963168270fd8e475" PRIMARY KEY ("tenant_id", "user_id"))`);
    await q.query(`CREATE INDEX "IDX_d53e87bfe2cfc2bf22180bb5f7" ON "tenant_users" ("user_id") `);
    await q.query(`CREATE TABLE "vanity_domains" ("domain" text NOT NULL, "tenant_id" uuid NOT NULL, "tenants" uuid array NOT NULL, "status" text NOT NULL DEFAULT 'PENDING_DNS', "brand_configuration" jsonb NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_604eb21ceb07a70fefca33f4beb" PRIMARY KEY ("domain"))`);
    await q.query(`CREATE INDEX "IDX_1a29d28bfdde8cfaa17906563e" ON "vanity_domains" ("tenant_id") `);
    await q.query(`ALTER TABLE "identity_providers" ADD CONSTRAINT "FK_94a7bbc0e893d99a5b316e0a6d9" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "constituencies" ADD CONSTRAINT "FK_9eb9db36d3133eb361e3f0e46ad" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "tenant_users" ADD CONSTRAINT "FK_85a7f13b3f434940151fb44f4c1" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "tenant_users" ADD CONSTRAINT "FK_d53e87bfe2cfc2bf22180bb5f73" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "vanity_domains" ADD CONSTRAINT "FK_1a29d28bfdde8cfaa17906563e9" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`INSERT INTO "core_identity_providers" ("id", "button_graphic") VALUES ($1, $2), ($3, $4)`, [
      'google',
      button('Sign in with Google', '#ffffff', '#1f1f1f'),
      'microsoft',
      button('Sign in with Microsoft', '#2f2f2f', '#ffffff'),
    ]);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "vanity_domains"`);
    await q.query(`DROP TABLE "tenant_users"`);
    await q.query(`DROP TABLE "users"`);
    await q.query(`DROP TABLE "constituencies"`);
    await q.query(`DROP TABLE "identity_providers"`);
    await q.query(`DROP TABLE "core_identity_providers"`);
  }
}
