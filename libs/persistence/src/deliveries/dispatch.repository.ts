import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  OPEN_DELIVERY_STATUSES_SQL,
  UNSENT_DELIVERY_STATUSES_SQL,
  type AlertMessageEntity,
  type WebhookDeliveryEntity,
  type WebhookEntity,
} from '../entities';
import type { ColumnsOf, JoinedColumnsOf } from './columns-of';
import {
  cancelOpenDeliveriesSql,
  holdOpenDeliveriesSql,
  MARK_ENQUEUED_SQL,
  messageCountsSql,
  type MessageCounts,
} from './delivery-sql';
import { applyOutcomes, flagUndeliverableMessages, insertAttempts, type AttemptOutcome } from './outcome-sql';
import { insertDisabledEvents } from './webhook-events';
import { updateWebhookHealth, type DisabledWebhook, type DisableRules } from './webhook-health';

export type { AttemptOutcome } from './outcome-sql';
export type { DisabledWebhook, DisableRules } from './webhook-health';

/** What one attempt needs, read in one query for a batch of deliveries. */
export type DeliveryToSend = ColumnsOf<
  WebhookDeliveryEntity,
  'id' | 'tenantId' | 'appId' | 'webhookId' | 'messageId' | 'kind' | 'trigger' | 'status' | 'eventType'
> & {
  /** An event delivery's body as JSON text; null for the others (and once purged). */
  event_json: string | null;
  /** Its message's or event's payload was purged (retention): nothing left to send. */
  payload_purged: boolean;
} &
  /** The webhook's current endpoint and signing secrets (sealed); null once the webhook is deleted. */
  JoinedColumnsOf<
    WebhookEntity,
    'endpoint' | 'signingSecret' | 'previousSigningSecret' | 'previousSecretExpiresAt' | 'rateLimit'
  > & {
    /** The webhook's status (`webhooks.status`): a disabled one's deliveries are held, not sent. */
    webhook_status: WebhookEntity['status'] | null;
  } & JoinedColumnsOf<AlertMessageEntity, 'transactionId' | 'method' | 'alertCount'> & {
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
      `SELECT d.id, d.tenant_id, d.app_id, d.webhook_id, d.message_id, d.kind, d.trigger, d.status, d.event_type, d.event::text AS event_json,
              (m.payload_purged_at IS NOT NULL OR (d.trigger = 'event' AND d.event IS NULL)) AS payload_purged,
              w.endpoint, w.status AS webhook_status, w.rate_limit, w.signing_secret, w.previous_signing_secret, w.previous_secret_expires_at, m.transaction_id, m.method, m.alert_count, m.created_at AS message_created_at,
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
   * that attempt's record. Messages with a newly undeliverable delivery are flagged. The webhooks'
   * health follows the outcomes: those that answered 410, or that `rules` find dead, are disabled
   * (their open deliveries held) and their apps told (`endpoint.disabled`). Returns those webhooks.
   */
  async recordOutcomes(outcomes: AttemptOutcome[], rules: DisableRules): Promise<DisabledWebhook[]> {
    if (outcomes.length === 0) return [];
    return this.ds.transaction(async (em) => {
      await insertAttempts(em, outcomes);
      await applyOutcomes(em, outcomes);
      await flagUndeliverableMessages(em, outcomes);
      const disabled = await updateWebhookHealth(em, outcomes, rules);
      await insertDisabledEvents(em, disabled);
      return disabled;
    });
  }

  /** Ends open deliveries whose payload was purged (found at their turn): `expired`, never sent. */
  async expire(ids: string[]): Promise<void> {
    await this.ds.query(
      `UPDATE webhook_deliveries SET status = 'expired', reason = 'payload_purged', due_at = NULL, finished_at = now()
        WHERE id = ANY($1::uuid[]) AND status IN ${UNSENT_DELIVERY_STATUSES_SQL}`,
      [ids],
    );
  }

  /** Holds open deliveries whose webhook is disabled (found at their turn); nothing is sent. */
  async hold(ids: string[]): Promise<void> {
    await this.ds.query(holdOpenDeliveriesSql('d.id = ANY($1::uuid[])'), [ids]);
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
