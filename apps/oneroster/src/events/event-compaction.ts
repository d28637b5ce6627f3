import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Pool } from 'pg';
import { OnerosterEnv } from '../oneroster.env';

/** Serialises compaction runs against one database. */
const COMPACTION_LOCK_ID = 7_310_046;

/**
 * Past the horizon the log keeps the latest event of each object and view (a compacted Kafka
 * topic): older events of the same object are dropped (set to NULL in their chunk, chunks and
 * batches left empty deleted). A cursor from before the horizon then replays, object by object,
 * to the current state. Every replica tries every ROSTER_EVENTS_COMPACTION_INTERVAL_MS; one runs
 * at a time.
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

  /** Compacts every tenant's events committed before `horizon`; returns how many were dropped (-1: another replica is at it). */
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
        let dropped = 0;
        for (const { tenant_id } of tenants.rows) dropped += await this.compactTenant(client, tenant_id, horizon);
        return dropped;
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [COMPACTION_LOCK_ID]);
      }
    } finally {
      client.release();
    }
  }

  private async compactTenant(client: import('pg').PoolClient, tenantId: string, horizon: Date): Promise<number> {
    const res = await client.query<{ dropped: string }>(COMPACT_TENANT_SQL, [tenantId, horizon]);
    await client.query(
      `DELETE FROM roster_event_batches b WHERE b.tenant_id = $1::uuid AND b.committed_at < $2
          AND NOT EXISTS (SELECT 1 FROM roster_events e WHERE e.tenant_id = b.tenant_id AND e.txid = b.txid)`,
      [tenantId, horizon],
    );
    return Number(res.rows[0]?.dropped ?? 0);
  }
}

/**
 * One tenant's compaction ($1 tenant, $2 horizon): every event (chunk element) ranked within its
 * object and view, latest first; the superseded ones committed before the horizon are set to NULL
 * in place (cursors point into the arrays, so no element moves), and chunks left all NULL are
 * deleted. Returns how many events were dropped.
 */
const COMPACT_TENANT_SQL = `WITH ranked AS (
    SELECT e.txid, e.n, u.i, b.committed_at < $2 AND row_number() OVER (
             PARTITION BY e.object, u.sourced_id, e.deployment_id ORDER BY b.seq DESC, e.n DESC, u.i DESC) > 1 AS superseded
      FROM roster_events e
      JOIN roster_event_batches b ON b.tenant_id = e.tenant_id AND b.txid = e.txid
     CROSS JOIN LATERAL unnest(e.sourced_ids) WITH ORDINALITY AS u(sourced_id, i)
     WHERE e.tenant_id = $1::uuid AND b.seq IS NOT NULL AND u.sourced_id IS NOT NULL),
  chunks AS (
    SELECT txid, n, array_agg(i) AS dropped FROM ranked WHERE superseded GROUP BY txid, n),
  rebuilt AS (
    SELECT c.txid, c.n, cardinality(c.dropped) AS dropped, r.*
      FROM chunks c
      JOIN roster_events e ON e.tenant_id = $1::uuid AND e.txid = c.txid AND e.n = c.n
     CROSS JOIN LATERAL (
       SELECT array_agg(CASE WHEN x.i IS NULL THEN u.sourced_id END ORDER BY u.i) AS sourced_ids,
              CASE WHEN e.previous IS NOT NULL THEN array_agg(CASE WHEN x.i IS NULL THEN u.previous END ORDER BY u.i) END AS previous,
              bool_and(x.i IS NOT NULL OR u.sourced_id IS NULL) AS emptied
         FROM unnest(e.sourced_ids, e.previous) WITH ORDINALITY AS u(sourced_id, previous, i)
         LEFT JOIN unnest(c.dropped) AS x(i) ON x.i = u.i) AS r),
  deleted AS (
    DELETE FROM roster_events d USING rebuilt c
     WHERE d.tenant_id = $1::uuid AND d.txid = c.txid AND d.n = c.n AND c.emptied RETURNING c.dropped),
  nulled AS (
    UPDATE roster_events d SET sourced_ids = c.sourced_ids, previous = c.previous
      FROM rebuilt c
     WHERE d.tenant_id = $1::uuid AND d.txid = c.txid AND d.n = c.n AND NOT c.emptied RETURNING c.dropped)
  SELECT COALESCE(sum(dropped), 0)::text AS dropped FROM (SELECT dropped FROM deleted UNION ALL SELECT dropped FROM nulled) AS x`;
