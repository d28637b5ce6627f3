import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { AlertMessageEntity, messageCountsSql, type ColumnsOf, type MessageCounts } from '@edu/persistence';

/** A message to store; the recipient as submitted. */
export type NewMessageRow = Pick<AlertMessageEntity, 'id' | 'transactionId' | 'alerts' | 'alertCount'> & {
  recipient: unknown;
};

export interface StoredMessageRef {
  messageId: string;
  transactionId: string;
}

export type MessageWithCounts = ColumnsOf<
  AlertMessageEntity,
  'id' | 'transactionId' | 'method' | 'recipient' | 'alerts' | 'alertCount'
> &
  MessageCounts;

type MessageRef = ColumnsOf<AlertMessageEntity, 'id' | 'transactionId'>;

/** SQL of alert messages (their deliveries are WebhookDeliveriesRepository's). Every query is scoped by the tenant id. */
@Injectable()
export class AlertMessageRepository {
  /** Stores the messages whose transaction id the tenant has not used yet; returns those stored. */
  async insertNew(em: EntityManager, tenantId: string, rows: NewMessageRow[]): Promise<StoredMessageRef[]> {
    if (rows.length === 0) return [];
    const inserted: MessageRef[] = await em.query(
      `INSERT INTO alert_messages (id, tenant_id, transaction_id, recipient, alerts, alert_count)
       SELECT t.id, $1, t.transaction_id, t.recipient, t.alerts, t.alert_count
         FROM unnest($2::uuid[], $3::text[], $4::jsonb[], $5::json[], $6::int[]) AS t(id, transaction_id, recipient, alerts, alert_count)
       ON CONFLICT (tenant_id, transaction_id) DO NOTHING
       RETURNING id, transaction_id`,
      [
        tenantId,
        rows.map((r) => r.id),
        rows.map((r) => r.transactionId),
        rows.map((r) => JSON.stringify(r.recipient)),
        rows.map((r) => JSON.stringify(r.alerts)),
        rows.map((r) => r.alertCount),
      ],
    );
    return inserted.map((r) => ({ messageId: r.id, transactionId: r.transaction_id }));
  }

  /** Messages the tenant already has under these transaction ids. */
  async findByTransactionIds(
    em: EntityManager,
    tenantId: string,
    transactionIds: string[],
  ): Promise<StoredMessageRef[]> {
    if (transactionIds.length === 0) return [];
    const rows = await em
      .getRepository(AlertMessageEntity)
      .find({ select: { id: true, transactionId: true }, where: { tenantId, transactionId: In(transactionIds) } });
    return rows.map((r) => ({ messageId: r.id, transactionId: r.transactionId }));
  }

  /** Records that an app read a message of the tenant (no-op for a message it does not have). */
  async recordFetch(em: EntityManager, tenantId: string, messageId: string, appId: string): Promise<void> {
    await em.query(
      `INSERT INTO alert_message_fetches (message_id, app_id)
       SELECT m.id, $3 FROM alert_messages m WHERE m.id = $1 AND m.tenant_id = $2
       ON CONFLICT DO NOTHING`,
      [messageId, tenantId, appId],
    );
  }

  /** A message of the tenant with what its counters count, or undefined. */
  async findWithCounts(em: EntityManager, tenantId: string, messageId: string): Promise<MessageWithCounts | undefined> {
    const rows: MessageWithCounts[] = await em.query(
      `SELECT m.id, m.transaction_id, m.method, m.recipient, m.alerts, m.alert_count, c.open_deliveries, c.delivered_deliveries, c.fetching_apps
         FROM alert_messages m
        CROSS JOIN LATERAL (${messageCountsSql('m.id')}) c
        WHERE m.id = $1 AND m.tenant_id = $2`,
      [messageId, tenantId],
    );
    return rows[0];
  }
}
