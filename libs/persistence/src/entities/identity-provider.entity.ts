import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { TenantEntity } from './tenant.entity';

export type IdentityProviderType = 'lti1.3' | 'oauth2';

export interface IdentityProviderLtiSettings {
  client_id: string;
  oidc_authentication_url: string;
  oauth_access_token_url: string;
  jwks_url: string;
  issuer: string;
  validate_lti_tokens_at_oidc_login: boolean;
  deployment_id: string;
}

export interface IdentityProviderOAuth2Settings {
  client_id: string;
  authorization_url: string;
  token_url: string;
  scope: string[];
  oidc_discovery: string;
  jwks_url: string;
}

/** A tenant-specific identity provider (spec 2.2); `lti` or `oauth2` is set according to `type`. */
@Entity({ name: 'identity_providers' })
@Index(['tenantId'])
export class IdentityProviderEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  @ManyToOne(() => TenantEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'tenant_id' })
  tenant?: TenantEntity;

  /** SVG document. */
  @Column({ type: 'text', name: 'button_graphic' })
  buttonGraphic: string;

  /** What its sign-in button says ("Sign in with …"); unset: the school's name (its host among several unnamed ones). */
  @Column({ type: 'text', name: 'display_name', nullable: true })
  displayName: string | null;

  @Column({ type: 'boolean', name: 'provision_just_in_time', default: false })
  provisionJustInTime: boolean;

  @Column({ type: 'text' })
  type: IdentityProviderType;

  @Column({ type: 'jsonb', nullable: true })
  lti: IdentityProviderLtiSettings | null;

  @Column({ type: 'jsonb', nullable: true })
  oauth2: IdentityProviderOAuth2Settings | null;

  /** The `oauth2` client secret, sealed with KEY_ENCRYPTION_KEY (write-only in the API). */
  @Column({ type: 'text', name: 'client_secret_encrypted', nullable: true })
  clientSecretEncrypted: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
