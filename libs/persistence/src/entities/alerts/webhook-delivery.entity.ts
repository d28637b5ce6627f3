import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AlertMessageEntity } from './alert-message.entity';
import type { WebhookType } from '../webhook.entity';

/**
 * States of one delivery (one alert message to one webhook). Values are stored: do not rename.
 * `withheld`: final from the start and never sent, because the school's data sharing does not let
 * the app see a person the message names (`reason` says so; apps/alerts/src/README.md).
 * `held`: its webhook is disabled; no job, no attempt, until the app re-enables the webhook
 * (then it is pending again and continues its schedule).
 * `expired`: never finished sending, and its payload was purged (retention): final.
 */
export const DELIVERY_STATUSES = [
  'pending',
  'awaiting_retry',
  'delivered',
  'undeliverable',
  'cancelled',
  'withheld',
  'held',
  'expired',
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
/**
 * Why a delivery is not being sent: `not_shared` (withheld), `webhook_disabled` (held),
 * `payload_purged` (expired). Values are stored and shown: do not rename.
 */
export const DELIVERY_REASONS = ['not_shared', 'webhook_disabled', 'payload_purged'] as const;
export type DeliveryReason = (typeof DELIVERY_REASONS)[number];
/** Deliveries in these states are still under way: they may be attempted (again) or cancelled. */
export const OPEN_DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'awaiting_retry'];
/** Whether a delivery in `status` is still under way. */
export const isOpenDelivery = (status: DeliveryStatus): boolean => OPEN_DELIVERY_STATUSES.includes(status);
/** `('pending', 'awaiting_retry')`: the open statuses as an SQL list, for `status IN ${...}`. */
export const OPEN_DELIVERY_STATUSES_SQL = `(${OPEN_DELIVERY_STATUSES.map((s) => `'${s}'`).join(', ')})`;
/** Deliveries not sent yet that still may be: the open ones and the held ones (cancelled with their webhook, counted as queued). */
export const UNSENT_DELIVERY_STATUSES_SQL = `(${[...OPEN_DELIVERY_STATUSES, 'held'].map((s) => `'${s}'`).join(', ')})`;

/**
 * Why a delivery exists: fan-out of a new message, a partner's redeliver request, a test, or an
 * operational event about the app's webhooks (`event_type`, e.g. `endpoint.disabled`).
 */
export type DeliveryTrigger = 'message' | 'redeliver' | 'test' | 'event';

/** Operational events delivered to an app's webhooks. Values are sent and stored: do not rename. */
export const DELIVERY_EVENT_TYPES = ['endpoint.disabled'] as const;
export type DeliveryEventType = (typeof DELIVERY_EVENT_TYPES)[number];

/**
 * One delivery of an alert message to one webhook: the record of truth behind the queue job
 * (job id = delivery id = the JWT's `jti`). The queue holds only this id.
 */
@Entity({ name: 'webhook_deliveries' })
@Index('UQ_webhook_deliveries_message_webhook', ['messageId', 'webhookId'], {
  unique: true,
  where: `"trigger" = 'message'`,
})
@Index('IDX_webhook_deliveries_webhook_created', ['webhookId', 'createdAt'])
@Index('IDX_webhook_deliveries_message', ['messageId'])
@Index('IDX_webhook_deliveries_open_due', ['dueAt'], { where: `status IN ${OPEN_DELIVERY_STATUSES_SQL}` })
@Index('IDX_webhook_deliveries_unqueued', ['createdAt'], { where: `enqueued_at IS NULL AND status = 'pending'` })
@Index('IDX_webhook_deliveries_event_payload', ['tenantId', 'createdAt'], { where: 'event IS NOT NULL' })
export class WebhookDeliveryEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  @Column({ type: 'uuid', name: 'app_id' })
  appId: string;

  /** No foreign key: the delivery log outlives a deleted webhook. */
  @Column({ type: 'uuid', name: 'webhook_id' })
  webhookId: string;

  /** Null for test deliveries. */
  @Column({ type: 'uuid', name: 'message_id', nullable: true })
  messageId: string | null;

  @ManyToOne(() => AlertMessageEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id' })
  message?: AlertMessageEntity;

  @Column({ type: 'text' })
  kind: WebhookType;

  @Column({ type: 'text' })
  trigger: DeliveryTrigger;

  /** The delivery this one re-sends (trigger `redeliver`). */
  @Column({ type: 'uuid', name: 'redelivery_of', nullable: true })
  redeliveryOf: string | null;

  @Column({ type: 'text', default: 'pending' })
  status: DeliveryStatus;

  @Column({ type: 'smallint', name: 'attempt_count', default: 0 })
  attemptCount: number;

  /** When the next attempt is due (creation for the first one); null once final. */
  @Column({ type: 'timestamptz', name: 'due_at', nullable: true })
  dueAt: Date | null;

  @Column({ type: 'smallint', name: 'last_status_code', nullable: true })
  lastStatusCode: number | null;

  @Column({ type: 'text', name: 'last_error_code', nullable: true })
  lastErrorCode: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  /** Set once the job is known to be in the queue (outbox relay picks rows where it is null). */
  @Column({ type: 'timestamptz', name: 'enqueued_at', nullable: true })
  enqueuedAt: Date | null;

  @Column({ type: 'timestamptz', name: 'first_attempt_at', nullable: true })
  firstAttemptAt: Date | null;

  /** When the delivery reached its final state (delivered, undeliverable, cancelled or withheld). */
  @Column({ type: 'timestamptz', name: 'finished_at', nullable: true })
  finishedAt: Date | null;

  /** Why a `withheld` (`not_shared`) or `held` (`webhook_disabled`) delivery is not sent; null otherwise. */
  @Column({ type: 'text', nullable: true })
  reason: DeliveryReason | null;

  /** What an `event` delivery tells (`endpoint.disabled`); null for every other delivery. */
  @Column({ type: 'text', name: 'event_type', nullable: true })
  eventType: DeliveryEventType | null;

  /** An `event` delivery's body (a payload of its own, as a message's is the message's). */
  @Column({ type: 'jsonb', nullable: true })
  event: Record<string, unknown> | null;
}
