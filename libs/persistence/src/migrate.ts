import { setTimeout as delay } from 'node:timers/promises';
import type { DataSource, QueryRunner } from 'typeorm';
import { createDataSource } from './data-source';

/** Arbitrary constant: the advisory lock that serialises migration runners (Immich's pattern). */
const MIGRATION_LOCK_ID = 7_310_042;
const LOCK_POLL_MS = 250;

/** Runs pending migrations under a session advisory lock, so concurrent runners cannot race. */
export async function runMigrations(databaseUrl: string): Promise<string[]> {
  const ds = createDataSource({ url: databaseUrl, poolSize: 2, applicationName: 'edu-migrate' });
  await ds.initialize();
  const runner = ds.createQueryRunner();
  try {
    await runner.connect();
    await takeMigrationLock(runner);
    try {
      const applied = await ds.runMigrations({ transaction: 'each' });
      return applied.map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    await runner.release();
    await ds.destroy();
  }
}

/**
 * Waits for the migration lock by polling it rather than blocking on it: a session blocked in
 * pg_advisory_lock holds a snapshot for as long as it waits, and CREATE INDEX CONCURRENTLY in the
 * other runner's migration waits for every such snapshot to end — the two would wait on each
 * other for ever.
 */
async function takeMigrationLock(runner: QueryRunner): Promise<void> {
  for (;;) {
    const [row] = (await runner.query('SELECT pg_try_advisory_lock($1) AS taken', [MIGRATION_LOCK_ID])) as Array<{
      taken: boolean;
    }>;
    if (row?.taken) return;
    await delay(LOCK_POLL_MS);
  }
}

/** SQL TypeORM would run to make the schema match the entities: empty when migrations are complete. */
export async function pendingSchemaChanges(ds: DataSource): Promise<string[]> {
  const sql = await ds.driver.createSchemaBuilder().log();
  return sql.upQueries.map((q) => q.query);
}
