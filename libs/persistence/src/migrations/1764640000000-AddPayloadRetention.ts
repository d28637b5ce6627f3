import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Payload retention: a tenant's `delivery_payload_retention_days` (a row only when it is not the
 * default), when a message's payload was purged, and partial indexes over what is still to purge
 * (messages and event deliveries with a payload), so the dispatcher's purge never scans the rest.
 */
export class AddPayloadRetention1764640000000 implements MigrationInterface {
  name = 'AddPayloadRetention1764640000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "tenant_delivery_settings" ("tenant_id" uuid NOT NULL, "delivery_payload_retention_days" integer NOT NULL, "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_tenant_delivery_settings" PRIMARY KEY ("tenant_id"))`,
    );
    await q.query(`ALTER TABLE "alert_messages" ADD "payload_purged_at" TIMESTAMP WITH TIME ZONE`);
    await q.query(
      `CREATE INDEX "IDX_alert_messages_unpurged" ON "alert_messages" ("tenant_id", "created_at") WHERE payload_purged_at IS NULL`,
    );
    await q.query(
      `CREATE INDEX "IDX_webhook_deliveries_event_payload" ON "webhook_deliveries" ("tenant_id", "created_at") WHERE event IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "IDX_webhook_deliveries_event_payload"`);
    await q.query(`DROP INDEX "IDX_alert_messages_unpurged"`);
    await q.query(`ALTER TABLE "alert_messages" DROP COLUMN "payload_purged_at"`);
    await q.query(`DROP TABLE "tenant_delivery_settings"`);
  }
}
