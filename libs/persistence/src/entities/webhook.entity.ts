import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type WebhookType = 'notification-only' | 'full-payload';
export const WEBHOOK_TYPES: readonly WebhookType[] = ['notification-only', 'full-payload'];

/**
 * What a webhook receives: `alerts` (alert messages, spec 2.11) or `roster-events` (the roster
 * change feed of every deployment of its app, in batches; design §11). Values are stored: do not rename.
 */
export const WEBHOOK_KINDS = ['alerts', 'roster-events'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

/** Which roster events a `roster-events` webhook receives; a missing list means all of them. */
export interface RosterEventFilter {
  /** Feed collections (`users`, `classes`, ...). */
  objects?: string[];
  /** `created`, `updated`, `deleted`. */
  types?: string[];
}

/** `disabled`: nothing is sent to it (but test deliveries) until its app re-enables it; its deliveries are held. */
export const WEBHOOK_STATUSES = ['active', 'disabled'] as const;
export type WebhookStatus = (typeof WEBHOOK_STATUSES)[number];
/**
 * Why a webhook was disabled. Values are stored and shown: do not rename.
 * `endpoint_gone`: it answered 410 Gone; `failing`: it failed continuously for the configured
 * period; `undeliverable`: the configured number of its deliveries in a row became undeliverable.
 */
export const WEBHOOK_DISABLED_REASONS = ['endpoint_gone', 'failing', 'undeliverable'] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];
/** Bounds of a webhook's `rate_limit` (deliveries per second). */
export const WEBHOOK_RATE_LIMIT_BOUNDS = { min: 1, max: 1_000 } as const;

/**
 * A partner app's registration for alert deliveries (spec 2.11). Webhooks belong to the app, but
 * hold no foreign key to `apps`: in a regional database that table is a logical-replication copy
 * (see libs/persistence/README.md). The alerts API registers webhooks only for an app it can see;
 * webhooks of a deleted app are removed by `npm run db:cleanup-orphans`.
 */
@Entity({ name: 'webhooks' })
// The roster change feed's push looks up the few webhooks that are not alerts webhooks.
@Index('IDX_webhooks_kind', ['kind'], { where: `kind <> 'alerts'` })
export class WebhookEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index()
  @Column({ type: 'uuid', name: 'app_id' })
  appId: string;

  @Column({ type: 'text' })
  endpoint: string;

  @Column({ type: 'text' })
  type: WebhookType;

  @Column({ type: 'text', default: 'alerts' })
  kind: WebhookKind;

  /** `roster-events` webhooks: which events they receive (null: every event the deployment sees). */
  @Column({ type: 'jsonb', name: 'event_filter', nullable: true })
  eventFilter: RosterEventFilter | null;

  /**
   * The Standard Webhooks secret (`whsec_...`) sealed with KEY_ENCRYPTION_KEY (`KeyEncryption`);
   * shown to the partner once, when made. Null for webhooks registered before secrets existed,
   * until their first rotation: their deliveries carry no `webhook-signature`.
   */
  @Column({ type: 'text', name: 'signing_secret', nullable: true })
  signingSecret: string | null;

  /** The secret before the last rotation, sealed; deliveries are signed with it too until `previousSecretExpiresAt`. */
  @Column({ type: 'text', name: 'previous_signing_secret', nullable: true })
  previousSigningSecret: string | null;

  @Column({ type: 'timestamptz', name: 'previous_secret_expires_at', nullable: true })
  previousSecretExpiresAt: Date | null;

  @Column({ type: 'text', default: 'active' })
  status: WebhookStatus;

  /** Why and when it was disabled; null while active. */
  @Column({ type: 'text', name: 'disabled_reason', nullable: true })
  disabledReason: WebhookDisabledReason | null;

  @Column({ type: 'timestamptz', name: 'disabled_at', nullable: true })
  disabledAt: Date | null;

  /** The first failed attempt since the last delivered one (null while it delivers): the dead-endpoint clock. */
  @Column({ type: 'timestamptz', name: 'failing_since', nullable: true })
  failingSince: Date | null;

  /** Most deliveries per second the receiver wants (across every dispatcher); null: no limit. */
  @Column({ type: 'integer', name: 'rate_limit', nullable: true })
  rateLimit: number | null;

  /** Deliveries in a row that became undeliverable (reset by any delivered one). */
  @Column({ type: 'integer', name: 'consecutive_undeliverable', default: 0 })
  consecutiveUndeliverable: number;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
