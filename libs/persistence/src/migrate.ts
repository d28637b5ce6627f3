import type { DataSource } from 'typeorm';
import { createDataSource } from './data-source';

/** Arbitrary constant: the advisory lock that serialises migration runners (Immich's pattern). */
const MIGRATION_LOCK_ID = 7_310_042;

/** Runs pending migrations under a session advisory lock, so concurrent runners cannot race. */
export async function runMigrations(databaseUrl: string): Promise<string[]> {
  const ds = createDataSource({ url: databaseUrl, poolSize: 2, applicationName: 'edu-migrate' });
  await ds.initialize();
  const runner = ds.createQueryRunner();
  try {
    await runner.connect();
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
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

/** SQL TypeORM would run to make the schema match the entities: empty when migrations are complete. */
export async function pendingSchemaChanges(ds: DataSource): Promise<string[]> {
  const sql = await ds.driver.createSchemaBuilder().log();
  return sql.upQueries.map((q) => q.query);
}
