import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { TenantEntity } from './tenant.entity';

/** A role-like group of a tenant's users and how they may sign in (spec 2.5). Key: (tenant, id). */
@Entity({ name: 'constituencies' })
export class ConstituencyEntity {
  @PrimaryColumn({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  /** Role-like key chosen by the tenant, e.g. `staff`. */
  @PrimaryColumn({ type: 'text' })
  id: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: TenantEntity;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'boolean', name: 'enable_self_service_provisioning', default: false })
  enableSelfServiceProvisioning: boolean;

  /** Core provider names or ids (uuids) of the tenant's own providers. */
  @Column({ type: 'text', array: true, name: 'allowed_identity_providers', default: () => "'{}'" })
  allowedIdentityProviders: string[];

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
