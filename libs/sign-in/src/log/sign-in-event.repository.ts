import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { PageCursor } from '@edu/domain';
import { SignInEventEntity, type SignInOutcome } from '@edu/persistence';
import { SignInSql } from '../sign-in-sql';

export interface NewSignInEvent {
  tenantId: string;
  appId?: string;
  providerId?: string;
  userId?: string;
  outcome: SignInOutcome;
  reason?: string | null;
}

export type SignInEventRow = SignInEventEntity & { cursorAt: string };

/** The sign-in log (`sign_in_events`), owned here: written by the portal, read by the tenant. */
@Injectable()
export class SignInEventRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly sql: SignInSql,
  ) {}

  /** One row per sign-in, as a named statement on the pool: it is on every sign-in's path. */
  async insert(e: NewSignInEvent): Promise<void> {
    await this.sql.query(
      `INSERT INTO sign_in_events (tenant_id, app_id, provider_id, user_id, outcome, reason) VALUES ($1, $2, $3, $4, $5, $6)`,
      [e.tenantId, e.appId ?? null, e.providerId ?? null, e.userId ?? null, e.outcome, e.reason ?? null],
    );
  }

  /** Deletes a bounded batch of events older than `days`; returns how many. */
  async deleteOlderThan(days: number, batch = 5000): Promise<number> {
    // TypeORM answers a DELETE with [rows, count].
    const [, count]: [unknown[], number] = await this.ds.query(
      `DELETE FROM sign_in_events WHERE id IN (SELECT id FROM sign_in_events WHERE created_at < now() - make_interval(days => $1) LIMIT $2)`,
      [days, batch],
    );
    return count;
  }

  /** The tenant's events, newest first; `after` continues below the last row of the previous page. */
  page(tenantId: string, o: { after?: PageCursor; limit: number }): Promise<SignInEventRow[]> {
    return this.ds.query(
      `SELECT id, tenant_id AS "tenantId", app_id AS "appId", provider_id AS "providerId", user_id AS "userId", outcome, reason, created_at AS "createdAt",
              to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "cursorAt"
         FROM sign_in_events
        WHERE tenant_id = $1 AND ($2::timestamptz IS NULL OR (created_at, id) < ($2::timestamptz, $3::uuid))
        ORDER BY created_at DESC, id DESC
        LIMIT $4`,
      [tenantId, o.after?.at ?? null, o.after?.id ?? null, o.limit],
    );
  }
}
