import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RosterImportFileCounts, RosterImportIssue, RosterImportMode, RosterImportStatus } from '@edu/persistence';

export interface RosterImportRow {
  id: string;
  tenant_id: string;
  status: RosterImportStatus;
  mode: RosterImportMode | null;
  source: string;
  started_at: Date;
  finished_at: Date | null;
  counts: Record<string, RosterImportFileCounts>;
  errors: RosterImportIssue[];
  warnings: RosterImportIssue[];
  data_version: string | null;
}

const COLUMNS =
  'id, tenant_id, status, mode, source, started_at, finished_at, counts, errors, warnings, data_version::text AS data_version';

/** SQL of the import log (`roster_imports`); always scoped by tenant. */
@Injectable()
export class RosterImportRepository {
  constructor(private readonly ds: DataSource) {}

  async tenantExists(tenantId: string): Promise<boolean> {
    const rows: unknown[] = await this.ds.query('SELECT 1 FROM tenants WHERE id = $1', [tenantId]);
    return rows.length > 0;
  }

  /** A `running` row for an accepted upload. */
  async createRunning(tenantId: string, source: string): Promise<RosterImportRow> {
    const rows: RosterImportRow[] = await this.ds.query(
      `INSERT INTO roster_imports (tenant_id, status, source, started_at, heartbeat_at) VALUES ($1, 'running', $2, now(), now()) RETURNING ${COLUMNS}`,
      [tenantId, source],
    );
    return rows[0]!;
  }

  async get(tenantId: string, id: string): Promise<RosterImportRow | undefined> {
    const rows: RosterImportRow[] = await this.ds.query(
      `SELECT ${COLUMNS} FROM roster_imports WHERE tenant_id = $1 AND id = $2`,
      [tenantId, id],
    );
    return rows[0];
  }

  /** Most recent first. */
  async list(tenantId: string, limit: number): Promise<RosterImportRow[]> {
    return this.ds.query(
      `SELECT ${COLUMNS} FROM roster_imports WHERE tenant_id = $1 ORDER BY started_at DESC, id LIMIT $2`,
      [tenantId, limit],
    );
  }

  /** Fails a still-running import (the process stops, the job crashed); a finished one is kept. */
  async failIfRunning(tenantId: string, id: string, message: string): Promise<void> {
    await this.ds.query(
      `UPDATE roster_imports SET status = 'failed', finished_at = now(), errors = $3 WHERE id = $1 AND tenant_id = $2 AND status = 'running'`,
      [id, tenantId, JSON.stringify([{ file: '(import)', line: 0, column: '', message }])],
    );
  }

  /** This process still runs (or queues) these imports. */
  async heartbeat(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.ds.query(
      `UPDATE roster_imports SET heartbeat_at = now() WHERE id = ANY($1::uuid[]) AND status = 'running'`,
      [ids],
    );
  }

  /** Fails running imports no process has spoken for in `quietMs` (its process died); the ones failed. */
  async failAbandoned(quietMs: number, message: string): Promise<{ id: string; tenant_id: string }[]> {
    const rows: [{ id: string; tenant_id: string }[], number] = await this.ds.query(
      `UPDATE roster_imports SET status = 'failed', finished_at = now(), errors = $2
        WHERE status = 'running' AND coalesce(heartbeat_at, started_at) < now() - make_interval(secs => $1)
        RETURNING id, tenant_id`,
      [quietMs / 1000, JSON.stringify([{ file: '(import)', line: 0, column: '', message }])],
    );
    return rows[0];
  }
}
