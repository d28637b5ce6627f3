import type { EntityManager } from 'typeorm';
import type { DeliveryStatus, WebhookDeliveryAttemptEntity, WebhookDeliveryEntity } from '../entities';

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
  Pick<WebhookDeliveryEntity, 'messageId' | 'dueAt' | 'webhookId' | 'tenantId'> & {
    status: Extract<DeliveryStatus, 'delivered' | 'awaiting_retry' | 'undeliverable'>;
    /** Dispatcher process that made the attempt. */
    workerId: string;
    /** The endpoint answered 410 Gone to a real (not test) delivery: its webhook is disabled at once. */
    endpointGone: boolean;
    /** Whether the answer counts towards the webhook's health (not for test deliveries). */
    affectsHealth: boolean;
  };

const column = <K extends keyof AttemptOutcome>(outcomes: AttemptOutcome[], k: K) => outcomes.map((o) => o[k]);

/** One attempt record per outcome; a re-run of an attempt (after a worker crash) replaces its record. */
export async function insertAttempts(em: EntityManager, outcomes: AttemptOutcome[]): Promise<void> {
  const col = <K extends keyof AttemptOutcome>(k: K) => column(outcomes, k);
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
}

/** The deliveries' new states; one cancelled meanwhile stays cancelled. */
export async function applyOutcomes(em: EntityManager, outcomes: AttemptOutcome[]): Promise<void> {
  const col = <K extends keyof AttemptOutcome>(k: K) => column(outcomes, k);
  await em.query(
    `UPDATE webhook_deliveries d SET
       status = CASE WHEN d.status = 'cancelled' THEN d.status ELSE o.status END,
       reason = CASE WHEN d.status = 'cancelled' THEN d.reason END,
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
}

/** Spec §3: a message with a newly undeliverable delivery is marked undeliverable. */
export async function flagUndeliverableMessages(em: EntityManager, outcomes: AttemptOutcome[]): Promise<void> {
  const undeliverable = [
    ...new Set(outcomes.filter((o) => o.status === 'undeliverable' && o.messageId).map((o) => o.messageId as string)),
  ];
  if (undeliverable.length === 0) return;
  await em.query(
    `UPDATE alert_messages SET undeliverable_at = now() WHERE id = ANY($1::uuid[]) AND undeliverable_at IS NULL`,
    [undeliverable],
  );
}
