import { Column, Entity, Index, JoinColumn, OneToOne, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { DeploymentEntity } from '../deployment.entity';

/**
 * What a school shares with one deployed app, as stored (the `@edu/sharing` spec shape): the mode,
 * its lists and rules, and the withheld field categories.
 */
export interface StoredSharingSpec {
  mode: string;
  schools: string[];
  classes: string[];
  rules: Array<{ object: string; field: string; op: string; value: string | string[] }>;
  withhold: string[];
}

/**
 * A deployment's data sharing: the active spec every path enforces and the draft the school is
 * preparing. No row (or no active spec) means the deployment sees everything, as before sharing
 * existed. Written by the identity service only; replicated to regional databases.
 */
@Entity({ name: 'deployment_sharing' })
export class DeploymentSharingEntity {
  @PrimaryColumn({ type: 'uuid', name: 'deployment_id', primaryKeyConstraintName: 'PK_deployment_sharing' })
  deploymentId: string;

  @OneToOne(() => DeploymentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'deployment_id', foreignKeyConstraintName: 'FK_deployment_sharing_deployment' })
  deployment?: DeploymentEntity;

  @Index('IDX_deployment_sharing_tenant')
  @Column({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  @Column({ type: 'uuid', name: 'app_id' })
  appId: string;

  /** The spec in force; null = never activated (everything shared). */
  @Column({ type: 'jsonb', nullable: true })
  active: StoredSharingSpec | null;

  /** `specHash(active)`: what caches and visibility scopes are keyed by. */
  @Column({ type: 'text', name: 'active_hash', nullable: true })
  activeHash: string | null;

  @Column({ type: 'timestamptz', name: 'activated_at', nullable: true })
  activatedAt: Date | null;

  @Column({ type: 'jsonb', nullable: true })
  draft: StoredSharingSpec | null;

  @Column({ type: 'timestamptz', name: 'draft_saved_at', nullable: true })
  draftSavedAt: Date | null;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
