import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Pool } from 'pg';
import { OnerosterEnv } from '../oneroster.env';

/** Serialises compaction runs against one database. */
const COMPACTION_LOCK_ID = 7_310_046;

/**
 * Past the horizon the log keeps the latest event of each object and view (a compacted Kafka
 * topic): older events of the same object are deleted, and batches left empty with them. A
 * cursor from before the horizon then replays, object by object, to the current state. Every
 * replica tries every ROSTER_EVENTS_COMPACTION_INTERVAL_MS; one runs at a time.
 */
@Injectable()
export class EventCompaction implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('RosterEvents');
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly pool: Pool,
    private readonly env: OnerosterEnv,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(
      () => void this.run().catch((err) => this.logger.warn({ err }, 'compaction failed')),
      this.env.ROSTER_EVENTS_COMPACTION_INTERVAL_MS,
    );
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Compacts every tenant's events committed before `horizon`; returns how many were deleted (-1: another replica is at it). */
  async run(horizon = new Date(Date.now() - this.env.ROSTER_EVENTS_RETENTION_DAYS * 86_400_000)): Promise<number> {
    const client = await this.pool.connect();
    try {
      const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
        COMPACTION_LOCK_ID,
      ]);
      if (!rows[0]?.ok) return -1;
      try {
        const tenants = await client.query<{ tenant_id: string }>(
          'SELECT DISTINCT tenant_id FROM roster_event_batches WHERE committed_at < $1',
          [horizon],
        );
        let deleted = 0;
        for (const { tenant_id } of tenants.rows) deleted += await this.compactTenant(client, tenant_id, horizon);
        return deleted;
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [COMPACTION_LOCK_ID]);
      }
    } finally {
      client.release();
    }
  }

  private async compactTenant(client: import('pg').PoolClient, tenantId: string, horizon: Date): Promise<number> {
    const res = await client.query(
      `WITH ranked AS (
         SELECT e.txid, e.n, b.committed_at,
                row_number() OVER (PARTITION BY e.object, e.sourced_id, e.deployment_id ORDER BY b.seq DESC, e.n DESC) AS rn
           FROM roster_events e JOIN roster_event_batches b ON b.tenant_id = e.tenant_id AND b.txid = e.txid
          WHERE e.tenant_id = $1::uuid AND b.seq IS NOT NULL)
       DELETE FROM roster_events d USING ranked r
        WHERE d.tenant_id = $1::uuid AND d.txid = r.txid AND d.n = r.n AND r.rn > 1 AND r.committed_at < $2`,
      [tenantId, horizon],
    );
    await client.query(
      `DELETE FROM roster_event_batches b WHERE b.tenant_id = $1::uuid AND b.committed_at < $2
          AND NOT EXISTS (SELECT 1 FROM roster_events e WHERE e.tenant_id = b.tenant_id AND e.txid = b.txid)`,
      [tenantId, horizon],
    );
    return res.rowCount ?? 0;
  }
}
