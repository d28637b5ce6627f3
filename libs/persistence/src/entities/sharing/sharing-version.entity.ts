import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { TenantEntity } from '../tenant.entity';

/**
 * A tenant's sharing version: incremented in the transaction of every sharing activation, so the
 * rostering API (which reads it with the roster and gradebook versions on every request) sees a
 * changed sharing on the very next request, on every replica.
 */
@Entity({ name: 'sharing_versions' })
export class SharingVersionEntity {
  @PrimaryColumn({ type: 'uuid', name: 'tenant_id', primaryKeyConstraintName: 'PK_sharing_versions' })
  tenantId: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'FK_sharing_versions_tenant' })
  tenant?: TenantEntity;

  /** bigint: read as a string. */
  @Column({ type: 'bigint' })
  version: string;
}
