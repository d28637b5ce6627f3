import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { AppEntity } from './app.entity';

export type WebhookType = 'notification-only' | 'full-payload';
export const WEBHOOK_TYPES: readonly WebhookType[] = ['notification-only', 'full-payload'];

/** A partner app's registration for alert deliveries (spec 2.11). Webhooks belong to the app. */
@Entity({ name: 'webhooks' })
export class WebhookEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index()
  @Column({ type: 'uuid', name: 'app_id' })
  appId: string;

  @ManyToOne(() => AppEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'app_id' })
  app?: AppEntity;

  @Column({ type: 'text' })
  endpoint: string;

  @Column({ type: 'text' })
  type: WebhookType;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
