import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/**
 * The tenant a sign-in happened at, for every grant the OpenID Connect provider made: a person
 * has one user id across tenants, so the `tenant` claims of the codes, tokens and refreshes of a
 * grant come from here.
 */
@Entity({ name: 'sign_in_grants' })
export class SignInGrantEntity {
  @PrimaryColumn({ type: 'text', name: 'grant_id' })
  grantId: string;

  @Column({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  @Column({ type: 'uuid', name: 'user_id' })
  userId: string;

  @Column({ type: 'uuid', name: 'app_id' })
  appId: string;

  /** Core provider name or the uuid of the tenant's own provider. */
  @Column({ type: 'text', name: 'provider_id' })
  providerId: string;

  @Column({ type: 'timestamptz', name: 'expires_at' })
  expiresAt: Date;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;
}
