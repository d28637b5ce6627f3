import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** Spec 2.10 recipient. */
export interface AlertRecipient {
  entity_uuid: string;
  ext_id: string;
  name: string;
  first_name: string;
  last_name: string;
  preferred_name: string;
  primary_email: string;
  identifiers: { sis_id: string; lms_guid: string };
}

/**
 * A generated alert message of one tenant (spec 2.10). The counters of the spec are not stored:
 * they are counted from the message's deliveries and fetches whenever the message is read, so
 * they cannot drift (see apps/alerts/src/README.md).
 */
@Entity({ name: 'alert_messages' })
@Index('UQ_alert_messages_tenant_transaction', ['tenantId', 'transactionId'], { unique: true })
@Index('IDX_alert_messages_unpurged', ['tenantId', 'createdAt'], { where: 'payload_purged_at IS NULL' })
export class AlertMessageEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  /** The generator's idempotency key, unique within the tenant. */
  @Column({ type: 'text', name: 'transaction_id' })
  transactionId: string;

  @Column({ type: 'text', default: 'webhook' })
  method: string;

  @Column({ type: 'jsonb' })
  recipient: AlertRecipient;

  /**
   * Alert groups exactly as submitted (spec 2.10 `alerts`). `json`, not `jsonb`: the text is kept
   * as is and read back without conversion, so a multi-MB message costs the database nothing to
   * hand to every full-payload attempt (nothing queries inside it).
   */
  @Column({ type: 'json' })
  alerts: unknown[];

  /** Alert items across all groups: the unit the three counters count. */
  @Column({ type: 'integer', name: 'alert_count' })
  alertCount: number;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  /** Set when a delivery of this message became undeliverable (spec §3). */
  @Column({ type: 'timestamptz', name: 'undeliverable_at', nullable: true })
  undeliverableAt: Date | null;

  /**
   * When the payload (recipient and alerts) was purged: after the tenant's retention period, or
   * expunged at once. The row and its delivery log stay; `recipient` is `{}` and `alerts` `[]`.
   */
  @Column({ type: 'timestamptz', name: 'payload_purged_at', nullable: true })
  payloadPurgedAt: Date | null;
}
