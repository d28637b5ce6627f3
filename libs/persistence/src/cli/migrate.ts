/*
 * Migration runner: `npm run db:migrate`, the compose `migrate` service and the k8s Job. With
 * REPLICATION_ROLE set it then creates or updates this database's side of the identity
 * replication (publication in the global database, subscription in a regional one).
 */
import 'reflect-metadata';
import { runMigrations } from '../migrate';
import { configureReplication, replicationConfigFromEnv, ReplicationConfigError } from '../replication';

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.error('DATABASE_URL is not set');
    process.exit(2);
  }
  let replication;
  try {
    replication = replicationConfigFromEnv();
  } catch (err) {
    if (!(err instanceof ReplicationConfigError)) throw err;
    console.error(`Bad replication configuration: ${err.message}`);
    process.exit(2);
  }
  const applied = await runMigrations(url);
  console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Database schema is up to date');
  if (replication.role === 'none') return;
  const changes = await configureReplication(url, replication);
  console.log(changes.length ? `Replication (${replication.role}): ${changes.join('; ')}` : `Replication (${replication.role}) is up to date`);
}

main().catch((err: unknown) => {
  console.error('Migration failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
