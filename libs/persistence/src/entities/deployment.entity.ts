import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  Unique,
} from 'typeorm';
import { AppEntity } from './app.entity';
import { TenantEntity } from './tenant.entity';

/** Per-deployment presentation choices for OneRoster consumers (design §8) and the operator's rate-limit quotas. */
export interface DeploymentSettings {
  /** `compact` (spec 2.9, default) or `iso8601` timestamps and dates. */
  onerosterDateFormat?: 'compact' | 'iso8601';
  /** OneRoster booleans as `"true"` strings (default) or JSON booleans. */
  onerosterBooleans?: 'string' | 'json';
  /** `strict` (default): the spec's paging rules; `compatibility`: `limit` above 1000 served as 1000, ISO 8601 dates. */
  onerosterProfile?: 'strict' | 'compatibility';
  /** The operator's rate-limit quotas for this deployment's client budgets (per window); unset = the service default. */
  rateLimitRead?: number;
  rateLimitWrite?: number;
  rateLimitGradebookWrite?: number;
}

/** An app deployed at a tenant with the scopes it was granted (spec 2.4). */
@Entity({ name: 'tenant_app_deployments' })
@Unique(['tenantId', 'appId'])
export class DeploymentEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index()
  @Column({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: TenantEntity;

  @Index()
  @Column({ type: 'uuid', name: 'app_id' })
  appId: string;

  @ManyToOne(() => AppEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'app_id' })
  app?: AppEntity;

  /** Granted scope URIs. */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  scope: string[];

  /** Optional per-deployment client credentials (design §3). */
  @Index({ unique: true, where: 'client_id IS NOT NULL' })
  @Column({ type: 'text', name: 'client_id', nullable: true })
  clientId: string | null;

  @Column({ type: 'text', name: 'client_secret_hash', nullable: true })
  clientSecretHash: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  settings: DeploymentSettings;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;
}
