import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * The DataSource's pg pool as the load shedder watches it (libs/http `PoolProbe`): borrowing a
 * connection waits in the same queue as every query, and the pool's counters tell how many
 * connections are open, idle and wanted.
 */
export function postgresPoolProbe(ds: DataSource) {
  const pool = (): Pool => (ds.driver as PostgresDriver).master as Pool;
  return {
    async acquire(): Promise<() => void> {
      const client = await pool().connect();
      return () => client.release();
    },
    stats(): { total: number; idle: number; waiting: number } {
      const p = pool();
      return { total: p.totalCount, idle: p.idleCount, waiting: p.waitingCount };
    },
  };
}
