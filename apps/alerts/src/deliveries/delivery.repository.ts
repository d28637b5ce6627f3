import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { PageCursor } from '@edu/domain';
import type { DeliveryStatus, WebhookType } from '@edu/persistence';

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  message_id: string | null;
  kind: WebhookType;
  trigger: string;
  redelivery_of: string | null;
  status: DeliveryStatus;
  attempt_count: number;
  due_at: Date | null;
  last_status_code: number | null;
  last_error_code: string | null;
  created_at: Date;
  first_attempt_at: Date | null;
  finished_at: Date | null;
}

export interface AttemptRow {
  attempt_number: number;
  started_at: Date;
  duration_ms: number;
  url: string;
  resolved_ip: string | null;
  kid: string | null;
  request_bytes: number | null;
  response_status: number | null;
  error_code: string | null;
  error_message: string | null;
  response_excerpt: string | null;
}

const COLUMNS = `id, webhook_id, message_id, kind, trigger, redelivery_of, status, attempt_count, due_at, last_status_code, last_error_code, created_at, first_attempt_at, finished_at`;

/** The delivery log as partners see it. Every query is scoped by tenant and webhook. */
@Injectable()
export class DeliveryRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /**
   * Newest first; `after` continues below the last row of the previous page. `cursor_at` is the
   * creation time at full (microsecond) precision: rows created in one transaction share it.
   */
  list(tenantId: string, webhookId: string, o: { status?: DeliveryStatus; after?: PageCursor; limit: number }): Promise<(DeliveryRow & { cursor_at: string })[]> {
    return this.ds.query(
      `SELECT ${COLUMNS}, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at FROM webhook_deliveries
        WHERE tenant_id = $1 AND webhook_id = $2
          AND ($3::text IS NULL OR status = $3)
          AND ($4::timestamptz IS NULL OR (created_at, id) < ($4::timestamptz, $5::uuid))
        ORDER BY created_at DESC, id DESC
        LIMIT $6`,
      [tenantId, webhookId, o.status ?? null, o.after?.at ?? null, o.after?.id ?? null, o.limit],
    );
  }

  async find(tenantId: string, webhookId: string, deliveryId: string): Promise<DeliveryRow | undefined> {
    const rows: DeliveryRow[] = await this.ds.query(`SELECT ${COLUMNS} FROM webhook_deliveries WHERE id = $1 AND tenant_id = $2 AND webhook_id = $3`, [deliveryId, tenantId, webhookId]);
    return rows[0];
  }

  attempts(deliveryId: string): Promise<AttemptRow[]> {
    return this.ds.query(
      `SELECT attempt_number, started_at, duration_ms, url, resolved_ip, kid, request_bytes, response_status, error_code, error_message, response_excerpt
         FROM webhook_delivery_attempts WHERE delivery_id = $1 ORDER BY attempt_number`,
      [deliveryId],
    );
  }

  /** A new delivery of the same message to the same webhook, with a schedule of its own. */
  async createRedelivery(original: DeliveryRow, tenantId: string, appId: string, kind: WebhookType): Promise<DeliveryRow> {
    const rows: DeliveryRow[] = await this.ds.query(
      `INSERT INTO webhook_deliveries (id, tenant_id, app_id, webhook_id, message_id, kind, trigger, redelivery_of, status, due_at)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, 'redeliver', $6, 'pending', now())
       RETURNING ${COLUMNS}`,
      [tenantId, appId, original.webhook_id, original.message_id, kind, original.id],
    );
    return rows[0];
  }

  /** A one-attempt test delivery (no message) to the webhook. */
  async createTest(tenantId: string, appId: string, webhookId: string, kind: WebhookType): Promise<DeliveryRow> {
    const rows: DeliveryRow[] = await this.ds.query(
      `INSERT INTO webhook_deliveries (id, tenant_id, app_id, webhook_id, message_id, kind, trigger, status, due_at)
       VALUES (gen_random_uuid(), $1, $2, $3, NULL, $4, 'test', 'pending', now())
       RETURNING ${COLUMNS}`,
      [tenantId, appId, webhookId, kind],
    );
    return rows[0];
  }

  /** Records that the queue holds these deliveries' jobs (the outbox relay skips them). */
  async markEnqueued(deliveryIds: string[], em: EntityManager = this.ds.manager): Promise<void> {
    if (deliveryIds.length === 0) return;
    await em.query(`UPDATE webhook_deliveries SET enqueued_at = now() WHERE id = ANY($1::uuid[]) AND enqueued_at IS NULL`, [deliveryIds]);
  }
}
