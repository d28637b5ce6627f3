import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** `oidc`: ID tokens and JWT access tokens of the OpenID Connect provider (sign-in); `saml`: SAML responses and assertions (RSA, with its certificate). */
export type SigningKeyUse = 'access-token' | 'webhook' | 'oidc' | 'saml';
/** `next`: published in the JWKS, not signing yet (a staged rotation); `active`: signing; `retired`: published until `publish_until`. */
export type SigningKeyStatus = 'next' | 'active' | 'retired';

/** An asymmetric signing key. The private half is stored encrypted with the configured key. */
@Entity({ name: 'signing_keys' })
@Index(['use', 'status'])
export class SigningKeyEntity {
  @PrimaryColumn({ type: 'text' })
  kid: string;

  @Column({ type: 'text' })
  use: SigningKeyUse;

  @Column({ type: 'text' })
  alg: string;

  @Column({ type: 'jsonb', name: 'public_jwk' })
  publicJwk: Record<string, unknown>;

  @Column({ type: 'text', name: 'private_jwk_encrypted' })
  privateJwkEncrypted: string;

  @Column({ type: 'text', default: 'active' })
  status: SigningKeyStatus;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  /** Retired keys stay in the JWKS until this instant (nothing they signed is still in flight). */
  @Column({ type: 'timestamptz', name: 'publish_until', nullable: true })
  publishUntil: Date | null;
}
