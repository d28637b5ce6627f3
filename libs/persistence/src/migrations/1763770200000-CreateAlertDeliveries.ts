import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Alert messages, their webhook deliveries (the record of truth behind the delivery queue), every
 * delivery attempt, and which apps fetched which message. No foreign key to tenants, apps or
 * webhooks: the delivery log outlives a deleted webhook, and identity rows may arrive in a
 * regional database in any order.
 */
export class CreateAlertDeliveries1763770200000 implements MigrationInterface {
  name = 'CreateAlertDeliveries1763770200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "alert_messages" ("id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "transaction_id" text NOT NULL, "method" text NOT NULL DEFAULT 'webhook', "recipient" jsonb NOT NULL, "alerts" json NOT NULL, "alert_count" integer NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "undeliverable_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_91104b28b5e7270b1f458baf29d" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "UQ_alert_messages_tenant_transaction" ON "alert_messages" ("tenant_id", "transaction_id")`);
    await q.query(`CREATE TABLE "alert_message_fetches" ("message_id" uuid NOT NULL, "app_id" uuid NOT NULL, "first_fetched_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_6d1c74ada5e00904d88506eac53" PRIMARY KEY ("message_id", "app_id"))`);
    await q.query(`CREATE TABLE "webhook_deliveries" ("id" uuid NOT NULL, "tenant_id" uuid NOT NULL, "app_id" uuid NOT NULL, "webhook_id" uuid NOT NULL, "message_id" uuid, "kind" text NOT NULL, "trigger" text NOT NULL, "redelivery_of" uuid, "status" text NOT NULL DEFAULT 'pending', "attempt_count" smallint NOT NULL DEFAULT '0', "due_at" TIMESTAMP WITH TIME ZONE, "last_status_code" smallint, "last_error_code" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "enqueued_at" TIMESTAMP WITH TIME ZONE, "first_attempt_at" TIMESTAMP WITH TIME ZONE, "finished_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_535dd409947fb6d8fc6dfc0112a" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "IDX_webhook_deliveries_unqueued" ON "webhook_deliveries" ("created_at") WHERE enqueued_at IS NULL AND status = 'pending'`);
    await q.query(`CREATE INDEX "IDX_webhook_deliveries_open_due" ON "webhook_deliveries" ("due_at") WHERE status IN ('pending', 'awaiting_retry')`);
    await q.query(`CREATE INDEX "IDX_webhook_deliveries_message" ON "webhook_deliveries" ("message_id")`);
    await q.query(`CREATE INDEX "IDX_webhook_deliveries_webhook_created" ON "webhook_deliveries" ("webhook_id", "created_at")`);
    await q.query(`CREATE UNIQUE INDEX "UQ_webhook_deliveries_message_webhook" ON "webhook_deliveries" ("message_id", "webhook_id") WHERE "trigger" = 'message'`);
    await q.query(`CREATE TABLE "webhook_delivery_attempts" ("id" BIGSERIAL NOT NULL, "delivery_id" uuid NOT NULL, "attempt_number" smallint NOT NULL, "started_at" TIMESTAMP WITH TIME ZONE NOT NULL, "duration_ms" integer NOT NULL, "url" text NOT NULL, "resolved_ip" text, "kid" text, "request_bytes" integer, "response_status" smallint, "error_code" text, "error_message" text, "response_excerpt" text, "worker_id" text, CONSTRAINT "PK_59ef9124585b56c18b98548a0c6" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "UQ_webhook_delivery_attempts_number" ON "webhook_delivery_attempts" ("delivery_id", "attempt_number")`);
    await q.query(`ALTER TABLE "alert_message_fetches" ADD CONSTRAINT "FK_5f6020eb621a58753d004fd3e83" FOREIGN KEY ("message_id") REFERENCES "alert_messages"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "FK_35330ff895962f7bd8a46c18177" FOREIGN KEY ("message_id") REFERENCES "alert_messages"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "FK_647916c401c0c275df5f00c148f" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "webhook_delivery_attempts"`);
    await q.query(`DROP TABLE "webhook_deliveries"`);
    await q.query(`DROP TABLE "alert_message_fetches"`);
    await q.query(`DROP TABLE "alert_messages"`);
  }
}
