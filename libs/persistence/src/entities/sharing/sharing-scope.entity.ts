import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';

/**
 * One computed visibility: the objects a sharing spec (by hash) lets an app see in one tenant's
 * roster at one data version, listed in `shared_objects`. Derived data, owned by `@edu/sharing`:
 * computed on first use, dropped when superseded. Regional (no foreign key to `tenants`).
 */
@Entity({ name: 'sharing_scopes' })
@Unique('UQ_sharing_scopes_key', ['tenantId', 'specHash', 'rosterVersion'])
export class SharingScopeEntity {
  /** bigint: read as a string. */
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'PK_sharing_scopes' })
  id: string;

  @Index('IDX_sharing_scopes_tenant')
  @Column({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  @Column({ type: 'text', name: 'spec_hash' })
  specHash: string;

  @Column({ type: 'bigint', name: 'roster_version' })
  rosterVersion: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;
}
