import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { TenantEntity } from '../tenant.entity';

export const SIGN_IN_OUTCOMES = ['success', 'refused'] as const;
export type SignInOutcome = (typeof SIGN_IN_OUTCOMES)[number];

/**
 * The sign-in log: one row per sign-in at a tenant that ended, a success or a refusal, with what
 * was known when it ended. Tenants read their own rows through the identity API; the rows go with
 * their tenant. (Refusals before a school is known are only in the service's log: no tenant could
 * read them, and anyone could add them.)
 */
@Entity({ name: 'sign_in_events' })
@Index('IDX_sign_in_events_tenant_time', ['tenantId', 'createdAt', 'id'])
export class SignInEventEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'PK_sign_in_events' })
  id: string;

  @Column({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id', foreignKeyConstraintName: 'FK_sign_in_events_tenant' })
  tenant?: TenantEntity;

  @Column({ type: 'uuid', name: 'app_id', nullable: true })
  appId: string | null;

  /** Core provider name or the uuid of the tenant's own provider. */
  @Column({ type: 'text', name: 'provider_id', nullable: true })
  providerId: string | null;

  @Column({ type: 'uuid', name: 'user_id', nullable: true })
  userId: string | null;

  @Column({ type: 'text' })
  outcome: SignInOutcome;

  /** Why a sign-in was refused (`not_enrolled`, `upstream_error`, ...); on a success, `provisioned` or `linked` when it did either. */
  @Column({ type: 'text', nullable: true })
  reason: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;
}
