import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

export type WebhookType = 'notification-only' | 'full-payload';
export const WEBHOOK_TYPES: readonly WebhookType[] = ['notification-only', 'full-payload'];

/**
 * A partner app's registration for alert deliveries (spec 2.11). Webhooks belong to the app, but
 * hold no foreign key to `apps`: in a regional database that table is a logical-replication copy
 * (see libs/persistence/README.md). The alerts API registers webhooks only for an app it can see;
 * webhooks of a deleted app are removed by `npm run db:cleanup-orphans`.
 */
@Entity({ name: 'webhooks' })
export class WebhookEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index()
  @Column({ type: 'uuid', name: 'app_id' })
  appId: string;

  @Column({ type: 'text' })
  endpoint: string;

  @Column({ type: 'text' })
  type: WebhookType;

  /**
   * The Standard Webhooks secret (`whsec_...`) sealed with KEY_ENCRYPTION_KEY (`KeyEncryption`);
   * shown to the partner once, when made. Null for webhooks registered before secrets existed,
   * until their first rotation: their deliveries carry no `webhook-signature`.
   */
  @Column({ type: 'text', name: 'signing_secret', nullable: true })
  signingSecret: string | null;

  /** The secret before the last rotation, sealed; deliveries are signed with it too until `previousSecretExpiresAt`. */
  @Column({ type: 'text', name: 'previous_signing_secret', nullable: true })
  previousSigningSecret: string | null;

  @Column({ type: 'timestamptz', name: 'previous_secret_expires_at', nullable: true })
  previousSecretExpiresAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
