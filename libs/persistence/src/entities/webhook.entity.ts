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

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
