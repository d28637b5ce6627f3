import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookDeliveryEntity } from './webhook-delivery.entity';

/** How an attempt failed (null when it got a 2xx). Values are stored and shown: do not rename. */
export const ATTEMPT_ERROR_CODES = [
  'E_HTTP',
  'E_REDIRECT',
  'E_TIMEOUT',
  'E_CONNECT',
  'E_DNS',
  'E_TLS',
  'E_BLOCKED_TARGET',
  'E_SIGNING',
  'E_UNKNOWN',
] as const;
export type AttemptErrorCode = (typeof ATTEMPT_ERROR_CODES)[number];

/** One HTTP attempt of a delivery (append-only). */
@Entity({ name: 'webhook_delivery_attempts' })
@Index('UQ_webhook_delivery_attempts_number', ['deliveryId', 'attemptNumber'], { unique: true })
export class WebhookDeliveryAttemptEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column({ type: 'uuid', name: 'delivery_id' })
  deliveryId: string;

  @ManyToOne(() => WebhookDeliveryEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'delivery_id' })
  delivery?: WebhookDeliveryEntity;

  /** 1 for the first try, up to 1 + the retry count. */
  @Column({ type: 'smallint', name: 'attempt_number' })
  attemptNumber: number;

  @Column({ type: 'timestamptz', name: 'started_at' })
  startedAt: Date;

  @Column({ type: 'integer', name: 'duration_ms' })
  durationMs: number;

  @Column({ type: 'text' })
  url: string;

  /** The address actually connected to (SSRF audits). */
  @Column({ type: 'text', name: 'resolved_ip', nullable: true })
  resolvedIp: string | null;

  /** Key that signed the token. */
  @Column({ type: 'text', nullable: true })
  kid: string | null;

  @Column({ type: 'integer', name: 'request_bytes', nullable: true })
  requestBytes: number | null;

  @Column({ type: 'smallint', name: 'response_status', nullable: true })
  responseStatus: number | null;

  @Column({ type: 'text', name: 'error_code', nullable: true })
  errorCode: AttemptErrorCode | null;

  @Column({ type: 'text', name: 'error_message', nullable: true })
  errorMessage: string | null;

  /** The first 2 KB of the response body. */
  @Column({ type: 'text', name: 'response_excerpt', nullable: true })
  responseExcerpt: string | null;

  /** Dispatcher process that made the attempt. */
  @Column({ type: 'text', name: 'worker_id', nullable: true })
  workerId: string | null;
}
