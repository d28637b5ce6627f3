import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Partner apps' webhook registrations (alerts API). */
export class CreateWebhooks1763769650000 implements MigrationInterface {
  name = 'CreateWebhooks1763769650000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "webhooks" ("id" uuid NOT NULL DEFAULT gen_random_uuid(), "app_id" uuid NOT NULL, "endpoint" text NOT NULL, "type" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_9e8795cfc899ab7bdaa831e8527" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "IDX_8bb81e5461acd8515c582883c8" ON "webhooks"("app_id")`);
    await q.query(`ALTER TABLE "webhooks" ADD CONSTRAINT "FK_8bb81e5461acd8515c582883c8c" FOREIGN KEY ("app_id") REFERENCES "apps"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "webhooks"`);
  }
}
