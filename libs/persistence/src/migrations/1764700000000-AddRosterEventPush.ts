import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The change feed pushed through webhooks (design §11): a webhook has a `kind` (`alerts`, as
 * every webhook so far, or `roster-events`) and, for roster events, an `event_filter`
 * (`{"objects": [...], "types": [...]}`). `roster_event_streams` is where each roster-events
 * webhook stands in the feed of each deployment of its app: the position delivered so far and the
 * one batch in flight (its delivery and where it ends), so batches go one after another, in
 * feed order; a stream whose last step failed waits until `paused_until`. A constant default and
 * nullable columns: nothing is rewritten.
 */
export class AddRosterEventPush1764700000000 implements MigrationInterface {
  name = 'AddRosterEventPush1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhooks" ADD "kind" text NOT NULL DEFAULT 'alerts'`);
    await q.query(`ALTER TABLE "webhooks" ADD "event_filter" jsonb`);
    await q.query(`CREATE INDEX "IDX_webhooks_kind" ON "webhooks" ("kind") WHERE "kind" <> 'alerts'`);
    await q.query(
      `CREATE TABLE "roster_event_streams" (
         "webhook_id" uuid NOT NULL REFERENCES "webhooks" ("id") ON DELETE CASCADE,
         "deployment_id" uuid NOT NULL,
         "tenant_id" uuid NOT NULL,
         "after_b" bigint NOT NULL,
         "after_n" bigint NOT NULL,
         "delivery_id" uuid,
         "batch_end_b" bigint,
         "batch_end_n" bigint,
         "batch_events" integer,
         "delivered_events" bigint NOT NULL DEFAULT 0,
         "paused_until" TIMESTAMP WITH TIME ZONE,
         "last_error" text,
         "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
         "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
         CONSTRAINT "PK_roster_event_streams" PRIMARY KEY ("webhook_id", "deployment_id"),
         CONSTRAINT "CHK_roster_event_streams_batch" CHECK (("delivery_id" IS NULL) = ("batch_end_b" IS NULL))
       )`,
    );
    await q.query(`CREATE INDEX "IDX_roster_event_streams_tenant" ON "roster_event_streams" ("tenant_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "roster_event_streams"`);
    await q.query(`DROP INDEX "IDX_webhooks_kind"`);
    await q.query(`ALTER TABLE "webhooks" DROP COLUMN "event_filter"`);
    await q.query(`ALTER TABLE "webhooks" DROP COLUMN "kind"`);
  }
}
