import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { TenantEntity } from '../tenant.entity';

export const AUDIT_EVENT_TYPES = ['sharing.draft_saved', 'sharing.activated'] as const;
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/** Who made a change: the operator, or an app of the tenant acting for its admins. */
export interface AuditActor {
  kind: 'operator' | 'tenant';
  /** The token's `sub` (the admin app's id for tenant tokens) and client id. */
  sub: string;
  client_id: string;
}

/**
 * The tenant's audit trail: every change to what its apps may see, with who, when, before and
 * after. Read by the tenant through the identity API; kept as long as the sign-in log.
 */
@Entity({ name: 'audit_events' })
@Index('IDX_audit_events_tenant_time', ['tenantId', 'createdAt', 'id'])
export class AuditEventEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_audit_events' })
  id: string;

  @Column({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'FK_audit_events_tenant' })
  tenant?: TenantEntity;

  @Column({ type: 'text' })
  type: AuditEventType;

  @Column({ type: 'jsonb' })
  actor: AuditActor;

  /** The app whose sharing changed. */
  @Column({ type: 'uuid', name: 'app_id', nullable: true })
  appId: string | null;

  @Column({ type: 'jsonb', nullable: true })
  before: unknown;

  @Column({ type: 'jsonb', nullable: true })
  after: unknown;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;
}
