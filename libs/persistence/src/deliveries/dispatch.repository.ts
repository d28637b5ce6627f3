import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  OPEN_DELIVERY_STATUSES_SQL,
  type AlertMessageEntity,
  type DeliveryStatus,
  type WebhookDeliveryAttemptEntity,
  type WebhookDeliveryEntity,
  type WebhookEntity,
} from '../entities';
import type { ColumnsOf, JoinedColumnsOf } from './columns-of';
import { cancelOpenDeliveriesSql, MARK_ENQUEUED_SQL, messageCountsSql, type MessageCounts } from './delivery-sql';

/** What one attempt needs, read in one query for a batch of deliveries. */
export type DeliveryToSend = ColumnsOf<
  WebhookDeliveryEntity,
  'id' | 'tenantId' | 'appId' | 'webhookId' | 'messageId' | 'kind' | 'trigger' | 'status'
> &
  /** The webhook's current endpoint and signing secrets (sealed); null once the webhook is deleted. */
  JoinedColumnsOf<WebhookEntity, 'endpoint' | 'signingSecret' | 'previousSigningSecret' | 'previousSecretExpiresAt'> &
  JoinedColumnsOf<AlertMessageEntity, 'transactionId' | 'method' | 'alertCount'> & {
    group_count: number | null;
    message_created_at: Date | null;
    /** JSON text, as stored: notices only (a full payload's comes with its alerts, once per message). */
    recipient_json: string | null;
    /**
     * The field categories the app's data sharing withholds now (`deployment_sharing.active`, read
     * at each attempt); null when it has no sharing. The payload leaves those fields out.
     */
    withhold: string[] | null;
  } & { [K in keyof MessageCounts]: MessageCounts[K] | null };

/** The stored JSON text of a message's recipient and alert groups: what a full payload ends with. */
export type MessageBodyText = ColumnsOf<AlertMessageEntity, 'id'> & { recipient_json: string; alerts_json: string };

type AttemptRecord = Pick<
  WebhookDeliveryAttemptEntity,
  | 'deliveryId'
  | 'attemptNumber'
  | 'startedAt'
  | 'durationMs'
  | 'url'
  | 'resolvedIp'
  | 'kid'
  | 'requestBytes'
  | 'responseStatus'
  | 'errorCode'
  | 'errorMessage'
  | 'responseExcerpt'
>;

/** The result of one attempt, written with the delivery's new state. */
export type AttemptOutcome = AttemptRecord &
  Pick<WebhookDeliveryEntity, 'messageId' | 'dueAt'> & {
    status: Extract<DeliveryStatus, 'delivered' | 'awaiting_retry' | 'undeliverable'>;
    /** Dispatcher process that made the attempt. */
    workerId: string;
  };

export type OverdueDelivery = ColumnsOf<WebhookDeliveryEntity, 'id' | 'attemptCount'> & { due_at: Date };

/**
 * The dispatcher's statements on deliveries: batched reads and outcome writes on the hot path,
 * outbox relay, sweeper. Beside WebhookDeliveriesRepository, which holds the API's writes.
 */
@Injectable()
export class DispatchRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  loadForSending(ids: string[]): Promise<DeliveryToSend[]> {
    return this.ds.query(
      `SELECT d.id, d.tenant_id, d.app_id, d.webhook_id, d.message_id, d.kind, d.trigger, d.status,
              w.endpoint, w.signing_secret, w.previous_signing_secret, w.previous_secret_expires_at, m.transaction_id, m.method, m.alert_count, m.created_at AS message_created_at,
              CASE WHEN d.kind <> 'full-payload' THEN json_array_length(m.alerts::json) END AS group_count,
              CASE WHEN d.kind <> 'full-payload' THEN m.recipient::text END AS recipient_json,
              c.open_deliveries, c.delivered_deliveries, c.fetching_apps,
              (SELECT s.active->'withhold' FROM tenant_app_deployments dep JOIN deployment_sharing s ON s.deployment_id = dep.id
                WHERE dep.tenant_id = d.tenant_id AND dep.app_id = d.app_id) AS withhold
         FROM webhook_deliveries d
         LEFT JOIN webhooks w ON w.id = d.webhook_id
         LEFT JOIN alert_messages m ON m.id = d.message_id
         LEFT JOIN LATERAL (
           ${messageCountsSql('d.message_id')}
         ) c ON d.kind = 'full-payload' AND d.message_id IS NOT NULL
        WHERE d.id = ANY($1::uuid[])`,
      [ids],
    );
  }

  /** Recipient and alert groups of messages, as stored (messages are never changed once stored). */
  loadMessageBodies(messageIds: string[]): Promise<MessageBodyText[]> {
    return this.ds.query(
      `SELECT id, recipient::text AS recipient_json, alerts::text AS alerts_json FROM alert_messages WHERE id = ANY($1::uuid[])`,
      [messageIds],
    );
  }

  /** Marks deliveries whose webhook no longer exists as cancelled (they are never sent). */
  async cancel(ids: string[]): Promise<void> {
    await this.ds.query(cancelOpenDeliveriesSql('d.id = ANY($1::uuid[])'), [ids]);
  }

  /**
   * Writes a batch of attempts and the deliveries' new states in one transaction. A delivery
   * cancelled meanwhile stays cancelled; a re-run of an attempt (after a worker crash) replaces
   * that attempt's record. Messages with a newly undeliverable delivery are flagged.
   */
  async recordOutcomes(outcomes: AttemptOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const col = <K extends keyof AttemptOutcome>(k: K) => outcomes.map((o) => o[k]);
    await this.ds.transaction(async (em) => {
      await em.query(
        `INSERT INTO webhook_delivery_attempts (delivery_id, attempt_number, started_at, duration_ms, url, resolved_ip, kid, request_bytes, response_status, error_code, error_message, response_excerpt, worker_id)
         SELECT * FROM unnest($1::uuid[], $2::smallint[], $3::timestamptz[], $4::int[], $5::text[], $6::text[], $7::text[], $8::int[], $9::smallint[], $10::text[], $11::text[], $12::text[], $13::text[])
         ON CONFLICT (delivery_id, attempt_number) DO UPDATE SET
           started_at = EXCLUDED.started_at, duration_ms = EXCLUDED.duration_ms, url = EXCLUDED.url, resolved_ip = EXCLUDED.resolved_ip,
           kid = EXCLUDED.kid, request_bytes = EXCLUDED.request_bytes, response_status = EXCLUDED.response_status, error_code = EXCLUDED.error_code,
           error_message = EXCLUDED.error_message, response_excerpt = EXCLUDED.response_excerpt, worker_id = EXCLUDED.worker_id`,
        [
          col('deliveryId'),
          col('attemptNumber'),
          col('startedAt'),
          col('durationMs'),
          col('url'),
          col('resolvedIp'),
          col('kid'),
          col('requestBytes'),
          col('responseStatus'),
          col('errorCode'),
          col('errorMessage'),
          col('responseExcerpt'),
          col('workerId'),
        ],
      );
      await em.query(
        `UPDATE webhook_deliveries d SET
           status = CASE WHEN d.status = 'cancelled' THEN d.status ELSE o.status END,
           attempt_count = GREATEST(d.attempt_count, o.attempt_number),
           due_at = CASE WHEN d.status = 'cancelled' THEN NULL ELSE o.due_at END,
           last_status_code = o.response_status,
           last_error_code = o.error_code,
           first_attempt_at = COALESCE(d.first_attempt_at, o.started_at),
           finished_at = CASE WHEN o.status = 'awaiting_retry' AND d.status <> 'cancelled' THEN NULL ELSE COALESCE(d.finished_at, now()) END
         FROM unnest($1::uuid[], $2::text[], $3::smallint[], $4::timestamptz[], $5::smallint[], $6::text[], $7::timestamptz[])
              AS o(id, status, attempt_number, due_at, response_status, error_code, started_at)
        WHERE d.id = o.id`,
        [
          col('deliveryId'),
          col('status'),
          col('attemptNumber'),
          col('dueAt'),
          col('responseStatus'),
          col('errorCode'),
          col('startedAt'),
        ],
      );
      const undeliverable = [
        ...new Set(
          outcomes.filter((o) => o.status === 'undeliverable' && o.messageId).map((o) => o.messageId as string),
        ),
      ];
      if (undeliverable.length) {
        await em.query(
          `UPDATE alert_messages SET undeliverable_at = now() WHERE id = ANY($1::uuid[]) AND undeliverable_at IS NULL`,
          [undeliverable],
        );
      }
    });
  }

  /**
   * Outbox relay: deliveries stored but never queued (the API could not reach Redis, or died
   * between its commit and the enqueue), older than `minAgeMs`. Runs `work` on them while their
   * rows are locked (other replicas skip them), then marks them queued.
   */
  async relayUnqueued(limit: number, minAgeMs: number, work: (ids: string[]) => Promise<void>): Promise<number> {
    return this.ds.transaction(async (em) => {
      const rows: { id: string }[] = await em.query(
        `SELECT id FROM webhook_deliveries
          WHERE enqueued_at IS NULL AND status = 'pending' AND created_at < now() - ($2::int * interval '1 millisecond')
          ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [limit, minAgeMs],
      );
      if (rows.length === 0) return 0;
      const ids = rows.map((r) => r.id);
      await work(ids);
      await em.query(MARK_ENQUEUED_SQL, [ids]);
      return ids.length;
    });
  }

  /** Queued deliveries still open more than `graceMs` after they were due, in due order. */
  overdue(graceMs: number, after: { dueAt: Date; id: string } | undefined, limit: number): Promise<OverdueDelivery[]> {
    return this.ds.query(
      `SELECT id, attempt_count, due_at FROM webhook_deliveries
        WHERE status IN ${OPEN_DELIVERY_STATUSES_SQL} AND enqueued_at IS NOT NULL
          AND due_at < now() - ($1::int * interval '1 millisecond')
          AND ($2::timestamptz IS NULL OR (due_at, id) > ($2::timestamptz, $3::uuid))
        ORDER BY due_at, id LIMIT $4`,
      [graceMs, after?.dueAt ?? null, after?.id ?? null, limit],
    );
  }
}
