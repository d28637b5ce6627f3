import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import { TenantEntity } from './tenant.entity';
import { UserEntity } from './user.entity';

export interface UserIdpIdentifier {
  id: string;
  /** A core provider name or the uuid of one of the link's tenant's own providers. */
  idp_id: string;
}

/**
 * A tenant's record of a person (spec 2.6): the tenant's constituencies they belong to, and the
 * profile and identity-provider identifiers the tenant gave them (spec 2.7 as this tenant sees
 * it). Two tenants with the same person share the user id and nothing else.
 */
@Entity({ name: 'tenant_users' })
export class TenantUserEntity {
  @PrimaryColumn({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  @Index()
  @PrimaryColumn({ type: 'uuid', name: 'user_id' })
  userId: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: TenantEntity;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  /** Constituency ids of the same tenant. */
  @Column({ type: 'text', array: true, default: () => "'{}'" })
  constituencies: string[];

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  nickname: string;

  @Column({ type: 'text' })
  picture: string;

  /** Identifiers at core providers and at this tenant's own providers only. */
  @Column({ type: 'jsonb', name: 'idp_identifiers', default: () => "'[]'" })
  idpIdentifiers: UserIdpIdentifier[];

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
