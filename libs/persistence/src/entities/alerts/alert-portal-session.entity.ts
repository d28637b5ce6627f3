import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A partner's delivery-portal session: made by the app's API call (a short-lived signed link),
 * opened once from that link, then kept by an HttpOnly cookie whose secret is stored hashed.
 * It shows one app's webhooks and their deliveries at one tenant, until `expires_at`.
 */
@Entity({ name: 'alert_portal_sessions' })
@Index('IDX_alert_portal_sessions_tenant', ['tenantId', 'expiresAt'])
export class AlertPortalSessionEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'PK_alert_portal_sessions' })
  id: string;

  @Column({ type: 'uuid', name: 'tenant_id' })
  tenantId: string;

  @Column({ type: 'uuid', name: 'app_id' })
  appId: string;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @Column({ type: 'timestamptz', name: 'expires_at' })
  expiresAt: Date;

  /** When the link was used; a link opens one session only. */
  @Column({ type: 'timestamptz', name: 'opened_at', nullable: true })
  openedAt: Date | null;

  /** SHA-256 (hex) of the session cookie's secret. */
  @Column({ type: 'text', name: 'session_hash', nullable: true })
  sessionHash: string | null;
}
