import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import {
  WebhookDeliveryAttemptEntity,
  WebhookDeliveryEntity,
  type DeliveryStatus,
  type WebhookType,
} from '../entities';
import type { ColumnsOf } from './columns-of';
import { cancelOpenDeliveriesSql, MARK_ENQUEUED_SQL } from './delivery-sql';

/** A delivery as its log shows it. */
export type DeliveryRow = ColumnsOf<
  WebhookDeliveryEntity,
  | 'id'
  | 'webhookId'
  | 'messageId'
  | 'kind'
  | 'trigger'
  | 'eventType'
  | 'redeliveryOf'
  | 'status'
  | 'attemptCount'
  | 'dueAt'
  | 'lastStatusCode'
  | 'lastErrorCode'
  | 'createdAt'
  | 'firstAttemptAt'
  | 'finishedAt'
  | 'reason'
>;

/** A held delivery released when its webhook is re-enabled, with the attempts it had made. */
export type ReleasedDelivery = ColumnsOf<WebhookDeliveryEntity, 'id' | 'attemptCount'>;

/** A page row: `cursor_at` is the creation time at full (microsecond) precision. */
export type DeliveryPageRow = DeliveryRow & { cursor_at: string };

export interface NewDeliveryRef {
  deliveryId: string;
  messageId: string;
  /** `pending` (to queue) or `withheld` (never sent). */
  status: Extract<DeliveryStatus, 'pending' | 'withheld'>;
}

/**
 * Which apps a fan-out serves and which of their deliveries are withheld, decided from the
 * deployments' data sharing before the fan-out's transaction (apps/alerts/src/sharing).
 */
export interface FanOutPlan {
  /** The apps whose sharing was read: an app not listed (a webhook registered meanwhile) gets no delivery. */
  appIds: string[];
  /** Messages an app may not see (it does not see a person they name): stored `withheld`, reason `not_shared`. */
  withheld: { messageId: string; appId: string }[];
}

const COLUMNS = `id, webhook_id, message_id, kind, trigger, event_type, redelivery_of, status, attempt_count, due_at, last_status_code, last_error_code, created_at, first_attempt_at, finished_at, reason`;

/**
 * Every write of the API side to webhook_deliveries (fan-out, redelivery, test deliveries,
 * enqueue marks, cancellation when a webhook is deleted) and the delivery log partners read.
 * Reads and the partner's writes are scoped by tenant and webhook. The dispatcher's statements
 * are in DispatchRepository beside it, the bulk replay in delivery-replay.ts.
 */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Newest first; `after` continues below the last row of the previous page. Raw SQL: the cursor
   * needs the creation time at microsecond precision, which a Date would cut to milliseconds.
   */
  list(
    tenantId: string,
    webhookId: string,
    o: { status?: DeliveryStatus; after?: { at: string; id: string }; limit: number },
  ): Promise<DeliveryPageRow[]> {
    return this.ds.query(
      `SELECT ${COLUMNS}, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at FROM webhook_deliveries
        WHERE tenant_id = $1 AND webhook_id = $2
          AND ($3::text IS NULL OR status = $3)
          AND ($4::timestamptz IS NULL OR (created_at, id) < ($4::timestamptz, $5::uuid))
        ORDER BY created_at DESC, id DESC
        LIMIT $6`,
      [tenantId, webhookId, o.status ?? null, o.after?.at ?? null, o.after?.id ?? null, o.limit],
    );
  }

  async find(tenantId: string, webhookId: string, deliveryId: string): Promise<DeliveryRow | undefined> {
    const rows: DeliveryRow[] = await this.ds.query(
      `SELECT ${COLUMNS} FROM webhook_deliveries WHERE id = $1 AND tenant_id = $2 AND webhook_id = $3`,
      [deliveryId, tenantId, webhookId],
    );
    return rows[0];
  }

  /** The attempts of the tenant's delivery, first first. */
  attempts(tenantId: string, deliveryId: string): Promise<WebhookDeliveryAttemptEntity[]> {
    return this.attemptsOf(tenantId, [deliveryId]);
  }

  /** The attempts of several of the tenant's deliveries, each delivery's first first (the portal shows a page of them). */
  attemptsOf(tenantId: string, deliveryIds: string[]): Promise<WebhookDeliveryAttemptEntity[]> {
    if (deliveryIds.length === 0) return Promise.resolve([]);
    // Attempts carry no tenant of their own: their delivery's says whose they are.
    return this.ds
      .getRepository(WebhookDeliveryAttemptEntity)
      .createQueryBuilder('a')
      .innerJoin(WebhookDeliveryEntity, 'd', 'd.id = a.deliveryId AND d.tenantId = :tenantId', { tenantId })
      .where('a.deliveryId IN (:...deliveryIds)', { deliveryIds })
      .orderBy('a.deliveryId', 'ASC')
      .addOrderBy('a.attemptNumber', 'ASC')
      .getMany();
  }

  /** A new delivery of the same message to the same webhook, with a schedule of its own. */
  async createRedelivery(
    original: DeliveryRow,
    tenantId: string,
    appId: string,
    kind: WebhookType,
  ): Promise<DeliveryRow> {
    const rows: DeliveryRow[] = await this.ds.query(
      `INSERT INTO webhook_deliveries (id, tenant_id, app_id, webhook_id, message_id, kind, trigger, redelivery_of, status, due_at)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, 'redeliver', $6, 'pending', now())
       RETURNING ${COLUMNS}`,
      [tenantId, appId, original.webhook_id, original.message_id, kind, original.id],
    );
    return rows[0];
  }

  /** A one-attempt test delivery (no message) to the webhook. */
  async createTest(tenantId: string, appId: string, webhookId: string, kind: WebhookType): Promise<DeliveryRow> {
    const rows: DeliveryRow[] = await this.ds.query(
      `INSERT INTO webhook_deliveries (id, tenant_id, app_id, webhook_id, message_id, kind, trigger, status, due_at)
       VALUES (gen_random_uuid(), $1, $2, $3, NULL, $4, 'test', 'pending', now())
       RETURNING ${COLUMNS}`,
      [tenantId, appId, webhookId, kind],
    );
    return rows[0];
  }

  /**
   * Fan-out (spec 6.1): one delivery per message and per alerts webhook (not roster-events ones) of
   * every app of `plan` deployed at the tenant whose deployment holds one of `alertsScopes`; `pending`, or `withheld` (final, never
   * queued) for the messages the plan withholds from the app.
   */
  async fanOut(
    em: EntityManager,
    tenantId: string,
    messageIds: string[],
    alertsScopes: string[],
    plan: FanOutPlan,
  ): Promise<NewDeliveryRef[]> {
    if (messageIds.length === 0 || plan.appIds.length === 0) return [];
    const rows: { id: string; message_id: string; status: NewDeliveryRef['status'] }[] = await em.query(
      `WITH withheld AS (SELECT DISTINCT * FROM unnest($5::uuid[], $6::uuid[]) AS x(message_id, app_id))
       INSERT INTO webhook_deliveries (id, tenant_id, app_id, webhook_id, message_id, kind, trigger, status, due_at, finished_at, reason)
       SELECT gen_random_uuid(), $1, w.app_id, w.id, m.id, w.type, 'message',
              CASE WHEN h.app_id IS NULL THEN 'pending' ELSE 'withheld' END,
              CASE WHEN h.app_id IS NULL THEN now() END,
              CASE WHEN h.app_id IS NOT NULL THEN now() END,
              CASE WHEN h.app_id IS NOT NULL THEN 'not_shared' END
         FROM unnest($2::uuid[]) WITH ORDINALITY AS m(id, n)
        CROSS JOIN (
          SELECT w.id, w.app_id, w.type
            FROM webhooks w
            JOIN tenant_app_deployments d ON d.app_id = w.app_id AND d.tenant_id = $1
           WHERE d.scope && $3::text[] AND w.app_id = ANY($4::uuid[]) AND w.kind = 'alerts'
        ) w
         LEFT JOIN withheld h ON h.message_id = m.id AND h.app_id = w.app_id
        ORDER BY m.n, w.id
       RETURNING id, message_id, status`,
      [
        tenantId,
        messageIds,
        alertsScopes,
        plan.appIds,
        plan.withheld.map((h) => h.messageId),
        plan.withheld.map((h) => h.appId),
      ],
    );
    return rows.map((r) => ({ deliveryId: r.id, messageId: r.message_id, status: r.status }));
  }

  /** How many deliveries to send the fan-out of each of the tenant's messages made, withheld ones not counted (messages without any are absent). */
  async fanOutSizes(em: EntityManager, tenantId: string, messageIds: string[]): Promise<Map<string, number>> {
    if (messageIds.length === 0) return new Map();
    const rows: { message_id: string; n: number }[] = await em.query(
      `SELECT message_id, count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = $1 AND message_id = ANY($2::uuid[]) AND trigger = 'message' AND status <> 'withheld' GROUP BY message_id`,
      [tenantId, messageIds],
    );
    return new Map(rows.map((r) => [r.message_id, r.n]));
  }

  /** Records that the queue holds these deliveries' jobs (the outbox relay skips them). */
  async markEnqueued(deliveryIds: string[], em: EntityManager = this.ds.manager): Promise<void> {
    if (deliveryIds.length === 0) return;
    await em.query(MARK_ENQUEUED_SQL, [deliveryIds]);
  }

  /**
   * The held deliveries of a webhook being re-enabled, pending again and due now; each continues
   * its schedule after the attempts it had made. The caller queues them after its commit (their
   * old jobs replaced); if it cannot, the outbox relay queues those never queued and the sweeper
   * the others, as for any delivery whose job Redis does not hold.
   */
  async releaseHeld(em: EntityManager, webhookId: string): Promise<ReleasedDelivery[]> {
    const [rows]: [ReleasedDelivery[], number] = await em.query(
      `UPDATE webhook_deliveries SET status = 'pending', reason = NULL, due_at = now()
        WHERE webhook_id = $1 AND status = 'held'
        RETURNING id, attempt_count`,
      [webhookId],
    );
    return rows;
  }

  /** Cancels the deleted webhook's deliveries still under way, in the transaction that deletes it. */
  async cancelOpenOfWebhook(em: EntityManager, webhookId: string): Promise<void> {
    await em.query(cancelOpenDeliveriesSql('d.webhook_id = $1'), [webhookId]);
  }
}
