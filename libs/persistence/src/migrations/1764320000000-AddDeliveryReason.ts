import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Why a delivery ended without an attempt deciding it: a `withheld` delivery (the school's data
 * sharing does not let the app see a person the message names) carries `not_shared`. A nullable
 * column without a default: adding it rewrites nothing.
 */
export class AddDeliveryReason1764320000000 implements MigrationInterface {
  name = 'AddDeliveryReason1764320000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhook_deliveries" ADD "reason" text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhook_deliveries" DROP COLUMN "reason"`);
  }
}
