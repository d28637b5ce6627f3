import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { AlertMessageEntity } from './alert-message.entity';

/** An app fetched a message through getMessage (counted by `fetched_alert_count`). */
@Entity({ name: 'alert_message_fetches' })
export class AlertMessageFetchEntity {
  @PrimaryColumn({ type: 'uuid', name: 'message_id' })
  messageId: string;

  @ManyToOne(() => AlertMessageEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'message_id' })
  message?: AlertMessageEntity;

  @PrimaryColumn({ type: 'uuid', name: 'app_id' })
  appId: string;

  @Column({ type: 'timestamptz', name: 'first_fetched_at', default: () => 'now()' })
  firstFetchedAt: Date;
}
