import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Dead-endpoint detection: since when a webhook has failed without a delivered attempt, and how
 * many of its deliveries in a row became undeliverable; operational event deliveries
 * (`endpoint.disabled`) carry their type and body. Nullable columns and a constant default:
 * nothing is rewritten.
 */
export class AddWebhookHealth1764620000000 implements MigrationInterface {
  name = 'AddWebhookHealth1764620000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhooks" ADD "failing_since" TIMESTAMP WITH TIME ZONE`);
    await q.query(`ALTER TABLE "webhooks" ADD "consecutive_undeliverable" integer NOT NULL DEFAULT 0`);
    await q.query(`ALTER TABLE "webhook_deliveries" ADD "event_type" text`);
    await q.query(`ALTER TABLE "webhook_deliveries" ADD "event" jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "event"`);
    await q.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "event_type"`);
    await q.query(`ALTER TABLE "webhooks" DROP COLUMN "consecutive_undeliverable"`);
    await q.query(`ALTER TABLE "webhooks" DROP COLUMN "failing_since"`);
  }
}
