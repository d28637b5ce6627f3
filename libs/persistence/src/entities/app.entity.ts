import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type AppOwnerType = 'tenant' | 'developer';
export type AppAuthType = 'oauth2' | 'saml';

export interface AppOAuth2Settings {
  redirect_uris: string[];
}

export interface SamlClaimGroup {
  namespace: string;
  claims: { name: string; value: string }[];
}

export interface AppSamlSettings {
  metadata_url: string;
  metadata_xml: string;
  entity_id: string;
  reply_url: string;
  sign_on_url: string;
  relay_state: string | null;
  sign_out_url: string;
  claims: SamlClaimGroup[];
}

/** A partner app (spec 2.1) and its OAuth client credentials. */
@Entity({ name: 'apps' })
@Index(['ownerType', 'ownerId'])
export class AppEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text', name: 'owner_type' })
  ownerType: AppOwnerType;

  @Column({ type: 'uuid', name: 'owner_id' })
  ownerId: string;

  @Column({ type: 'text', name: 'auth_type' })
  authType: AppAuthType;

  @Column({ type: 'jsonb', nullable: true })
  oauth2: AppOAuth2Settings | null;

  @Column({ type: 'jsonb', nullable: true })
  saml: AppSamlSettings | null;

  @Index({ unique: true })
  @Column({ type: 'text', name: 'client_id' })
  clientId: string;

  /** Never the secret itself: see `@edu/signing` client-secret hashing. */
  @Column({ type: 'text', name: 'client_secret_hash' })
  clientSecretHash: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
