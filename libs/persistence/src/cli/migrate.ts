/* Migration runner: `npm run db:migrate`, the compose `migrate` service and the k8s Job. */
import 'reflect-metadata';
import { runMigrations } from '../migrate';

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('DATABASE_URL is not set');
    process.exit(2);
  }
  const applied = await runMigrations(url);
  console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Database schema is up to date');
}

main().catch((err: unknown) => {
  console.error('Migration failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
