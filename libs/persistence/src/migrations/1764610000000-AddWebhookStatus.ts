import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Webhooks can be disabled (410 Gone, or dead for too long): `status` with why and when. Adding a
 * column with a constant default rewrites nothing (PostgreSQL 11+); the others are nullable.
 */
export class AddWebhookStatus1764610000000 implements MigrationInterface {
  name = 'AddWebhookStatus1764610000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhooks" ADD "status" text NOT NULL DEFAULT 'active'`);
    await q.query(`ALTER TABLE "webhooks" ADD "disabled_reason" text`);
    await q.query(`ALTER TABLE "webhooks" ADD "disabled_at" TIMESTAMP WITH TIME ZONE`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhooks" DROP COLUMN "disabled_at"`);
    await q.query(`ALTER TABLE "webhooks" DROP COLUMN "disabled_reason"`);
    await q.query(`ALTER TABLE "webhooks" DROP COLUMN "status"`);
  }
}
