import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AlertRecipient } from '@edu/persistence';

export interface NewMessageRow {
  id: string;
  transactionId: string;
  recipient: unknown;
  alerts: unknown[];
  alertCount: number;
}

export interface StoredMessageRef {
  messageId: string;
  transactionId: string;
}

export interface NewDeliveryRef {
  deliveryId: string;
  messageId: string;
}

export interface MessageWithCounts {
  id: string;
  transaction_id: string;
  method: string;
  recipient: AlertRecipient;
  alerts: unknown[];
  alert_count: number;
  open_deliveries: number;
  delivered_deliveries: number;
  fetching_apps: number;
}

/** SQL of alert messages and their fan-out. Every query is scoped by the tenant id. */
@Injectable()
export class AlertMessageRepository {
  /** Stores the messages whose transaction id the tenant has not used yet; returns those stored. */
  async insertNew(em: EntityManager, tenantId: string, rows: NewMessageRow[]): Promise<StoredMessageRef[]> {
    if (rows.length === 0) return [];
    const inserted: { id: string; transaction_id: string }[] = await em.query(
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

  /** Messages the tenant already has under these transaction ids, with their fan-out size. */
  async findByTransactionIds(em: EntityManager, tenantId: string, transactionIds: string[]): Promise<(StoredMessageRef & { deliveries: number })[]> {
    if (transactionIds.length === 0) return [];
    const rows: { id: string; transaction_id: string; deliveries: number }[] = await em.query(
      `SELECT m.id, m.transaction_id,
              (SELECT count(*)::int FROM webhook_deliveries d WHERE d.message_id = m.id AND d.trigger = 'message') AS deliveries
         FROM alert_messages m
        WHERE m.tenant_id = $1 AND m.transaction_id = ANY($2::text[])`,
      [tenantId, transactionIds],
    );
    return rows.map((r) => ({ messageId: r.id, transactionId: r.transaction_id, deliveries: r.deliveries }));
  }

  /**
   * Fan-out (spec 6.1): one pending delivery per message and per webhook of every app deployed at
   * the tenant whose deployment holds one of `alertsScopes`.
   */
  async createDeliveries(em: EntityManager, tenantId: string, messageIds: string[], alertsScopes: string[]): Promise<NewDeliveryRef[]> {
    if (messageIds.length === 0) return [];
    const rows: { id: string; message_id: string }[] = await em.query(
      `INSERT INTO webhook_deliveries (id, tenant_id, app_id, webhook_id, message_id, kind, trigger, status, due_at)
       SELECT gen_random_uuid(), $1, w.app_id, w.id, m.id, w.type, 'message', 'pending', now()
         FROM unnest($2::uuid[]) WITH ORDINALITY AS m(id, n)
        CROSS JOIN (
          SELECT w.id, w.app_id, w.type
            FROM webhooks w
            JOIN tenant_app_deployments d ON d.app_id = w.app_id AND d.tenant_id = $1
           WHERE d.scope && $3::text[]
        ) w
        ORDER BY m.n, w.id
       RETURNING id, message_id`,
      [tenantId, messageIds, alertsScopes],
    );
    return rows.map((r) => ({ deliveryId: r.id, messageId: r.message_id }));
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
      `SELECT m.id, m.transaction_id, m.method, m.recipient, m.alerts, m.alert_count,
              count(d.id) FILTER (WHERE d.status IN ('pending', 'awaiting_retry'))::int AS open_deliveries,
              count(d.id) FILTER (WHERE d.status = 'delivered')::int AS delivered_deliveries,
              (SELECT count(*)::int FROM alert_message_fetches f WHERE f.message_id = m.id) AS fetching_apps
         FROM alert_messages m
         LEFT JOIN webhook_deliveries d ON d.message_id = m.id
        WHERE m.id = $1 AND m.tenant_id = $2
        GROUP BY m.id`,
      [messageId, tenantId],
    );
    return rows[0];
  }
}
