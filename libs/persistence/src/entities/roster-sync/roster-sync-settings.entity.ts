import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** A tenant's sync guard and its operational-event endpoint (defaults apply without a row). */
@Entity({ name: 'roster_sync_settings' })
export class RosterSyncSettingsEntity {
  @PrimaryColumn({ type: 'uuid', name: 'tenant_id', primaryKeyConstraintName: 'PK_roster_sync_settings' })
  tenantId: string;

  /** A sync deleting more than this percentage of a type's active rows is held. */
  @Column({ type: 'double precision', name: 'deletion_threshold_percent', default: 10 })
  deletionThresholdPercent: number;

  /** Where held syncs are announced (POST, Standard Webhooks signature). */
  @Column({ type: 'text', name: 'notify_url', nullable: true })
  notifyUrl: string | null;

  /** The signing secret of those announcements, sealed with KEY_ENCRYPTION_KEY (write-only). */
  @Column({ type: 'text', name: 'notify_secret_encrypted', nullable: true })
  notifySecretEncrypted: string | null;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
