/* `npm run db:check-drift`: fails when the entities need schema changes no migration makes. */
import 'reflect-metadata';
import { createDataSource } from '../data-source';
import { pendingSchemaChanges } from '../migrate';

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('DATABASE_URL is not set (point it at a migrated database)');
    process.exit(2);
  }
  const ds = createDataSource({ url, poolSize: 1, applicationName: 'edu-drift-check' });
  await ds.initialize();
  try {
    const pending = await pendingSchemaChanges(ds);
    if (pending.length === 0) {
      console.log('No drift: the migrations produce exactly the schema the entities describe');
      return;
    }
    console.error(`Schema drift: the entities need changes no migration makes:\n${pending.map((q) => `  ${q};`).join('\n')}`);
    process.exitCode = 1;
  } finally {
    await ds.destroy();
  }
}

main().catch((err: unknown) => {
  console.error('Drift check failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
