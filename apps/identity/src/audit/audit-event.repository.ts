import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import type { PageCursor } from '@edu/domain';
import { AuditEventEntity, type AuditActor, type AuditEventType } from '@edu/persistence';

export interface NewAuditEvent {
  tenantId: string;
  type: AuditEventType;
  actor: AuditActor;
  appId: string | null;
  before: unknown;
  after: unknown;
}

export type AuditEventRow = AuditEventEntity & { cursorAt: string };

/** The audit trail (`audit_events`), owned here: written with each change, read by the tenant. */
@Injectable()
export class AuditEventRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Records a change inside the change's own transaction: no change without its event. */
  async insert(m: EntityManager, e: NewAuditEvent): Promise<void> {
    await m.getRepository(AuditEventEntity).insert({
      tenantId: e.tenantId,
      type: e.type,
      actor: e.actor,
      appId: e.appId,
      before: e.before as object,
      after: e.after as object,
    });
  }

  /** Deletes a bounded batch of events older than `days`; returns how many. */
  async deleteOlderThan(days: number, batch = 5000): Promise<number> {
    const [, count]: [unknown[], number] = await this.ds.query(
      `DELETE FROM audit_events WHERE id IN (SELECT id FROM audit_events WHERE created_at < now() - make_interval(days => $1) LIMIT $2)`,
      [days, batch],
    );
    return count;
  }

  /** The tenant's events (of one type, when given), newest first, continuing below `after`. */
  page(tenantId: string, o: { type?: string; after?: PageCursor; limit: number }): Promise<AuditEventRow[]> {
    return this.ds.query(
      `SELECT id, tenant_id AS "tenantId", type, actor, app_id AS "appId", before, after, created_at AS "createdAt",
              to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "cursorAt"
         FROM audit_events
        WHERE tenant_id = $1 AND ($2::text IS NULL OR type = $2)
          AND ($3::timestamptz IS NULL OR (created_at, id) < ($3::timestamptz, $4::uuid))
        ORDER BY created_at DESC, id DESC
        LIMIT $5`,
      [tenantId, o.type ?? null, o.after?.at ?? null, o.after?.id ?? null, o.limit],
    );
  }
}
