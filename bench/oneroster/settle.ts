/**
 * A settled database before the scenarios: a first import of millions of rows leaves PostgreSQL's
 * autovacuum work to do (an insert-only table is vacuumed to set its visibility map), and an
 * autovacuum worker running beside a scenario takes one of the machine's cores from whichever
 * scenario it overlaps, so the ratios of the same run compare unequal conditions. A district that
 * partners read has been vacuumed long before; the bench does it once, up front, and waits for
 * any autovacuum already started to finish.
 */
import { Client } from 'pg';

/** Longest wait for running autovacuum workers after the explicit VACUUM. */
const AUTOVACUUM_WAIT_MS = 180_000;

/** Autovacuum workers now busy in the bench's database. */
export async function autovacuumWorkers(c: Client): Promise<number> {
  const { rows } = await c.query<{ n: string }>(
    `SELECT count(*) AS n FROM pg_stat_activity WHERE backend_type = 'autovacuum worker' AND datname = current_database()`,
  );
  return Number(rows[0]?.n ?? 0);
}

/** VACUUM (ANALYZE) of the database, then waits until no autovacuum worker runs in it. */
export async function settleDatabase(url: string, log: (line: string) => void): Promise<void> {
  const c = new Client({ connectionString: url, application_name: 'bench-settle' });
  await c.connect();
  const started = Date.now();
  try {
    await c.query('VACUUM (ANALYZE)');
    const deadline = Date.now() + AUTOVACUUM_WAIT_MS;
    while ((await autovacuumWorkers(c)) > 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 1000));
    log(`settled the database (VACUUM ANALYZE, autovacuum idle) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await c.end();
  }
}
