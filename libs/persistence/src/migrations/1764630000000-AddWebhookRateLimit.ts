import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A webhook's optional delivery rate (deliveries per second), kept by the dispatchers in Redis. */
export class AddWebhookRateLimit1764630000000 implements MigrationInterface {
  name = 'AddWebhookRateLimit1764630000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhooks" ADD "rate_limit" integer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhooks" DROP COLUMN "rate_limit"`);
  }
}
