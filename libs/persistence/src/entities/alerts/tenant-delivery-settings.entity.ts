import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** Bounds and default of a tenant's `delivery_payload_retention_days`. */
export const PAYLOAD_RETENTION_DAYS = { min: 1, max: 365, default: 30 } as const;

/**
 * A tenant's settings for alert deliveries, set by the operator or the school's admins (the
 * alerts API). A tenant without a row has the defaults. Regional data, keyed by tenant.
 */
@Entity({ name: 'tenant_delivery_settings' })
export class TenantDeliverySettingsEntity {
  @PrimaryColumn({ type: 'uuid', name: 'tenant_id', primaryKeyConstraintName: 'PK_tenant_delivery_settings' })
  tenantId: string;

  /** After this many days the payloads of its messages and event deliveries are purged; metadata stays. */
  @Column({ type: 'integer', name: 'delivery_payload_retention_days' })
  deliveryPayloadRetentionDays: number;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
