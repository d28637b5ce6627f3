import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Standard Webhooks secrets of webhooks (sealed with KEY_ENCRYPTION_KEY), and the previous one
 * while a rotation's overlap lasts. Nullable columns without defaults: adding them rewrites nothing.
 */
export class AddWebhookSigningSecrets1764600000000 implements MigrationInterface {
  name = 'AddWebhookSigningSecrets1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhooks" ADD "signing_secret" text`);
    await q.query(`ALTER TABLE "webhooks" ADD "previous_signing_secret" text`);
    await q.query(`ALTER TABLE "webhooks" ADD "previous_secret_expires_at" TIMESTAMP WITH TIME ZONE`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhooks" DROP COLUMN "previous_secret_expires_at"`);
    await q.query(`ALTER TABLE "webhooks" DROP COLUMN "previous_signing_secret"`);
    await q.query(`ALTER TABLE "webhooks" DROP COLUMN "signing_secret"`);
  }
}
