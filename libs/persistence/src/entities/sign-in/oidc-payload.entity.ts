import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One stored artifact of the OpenID Connect provider (sessions, interactions, grants,
 * authorization codes, access and refresh tokens, ...), or of the sign-in portal's own short-lived
 * state (upstream logins). Every replica reads and writes the same rows, so any one of them serves
 * any step of a sign-in.
 */
@Entity({ name: 'oidc_payloads' })
@Index('IDX_oidc_payloads_grant', ['grantId'])
@Index('IDX_oidc_payloads_uid', ['uid'])
@Index('IDX_oidc_payloads_expires', ['expiresAt'])
export class OidcPayloadEntity {
  /** The model name (`Session`, `AuthorizationCode`, `UpstreamLogin`, ...). */
  @PrimaryColumn({ type: 'text' })
  kind: string;

  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  @Column({ type: 'text', name: 'grant_id', nullable: true })
  grantId: string | null;

  @Column({ type: 'text', name: 'user_code', nullable: true })
  userCode: string | null;

  @Column({ type: 'text', nullable: true })
  uid: string | null;

  @Column({ type: 'timestamptz', name: 'expires_at', nullable: true })
  expiresAt: Date | null;

  @Column({ type: 'timestamptz', name: 'consumed_at', nullable: true })
  consumedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;
}
