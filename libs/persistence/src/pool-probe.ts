import type { Pool } from 'pg';

/**
 * The DataSource's pg pool as the load shedder watches it (libs/http `PoolProbe`): borrowing a
 * connection waits in the same queue as every query, and the pool's counters tell how many
 * connections are open, idle and wanted.
 */
export function postgresPoolProbe(pool: Pool) {
  return {
    async acquire(): Promise<() => void> {
      const client = await pool.connect();
      return () => client.release();
    },
    stats(): { total: number; idle: number; waiting: number } {
      return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
    },
  };
}
