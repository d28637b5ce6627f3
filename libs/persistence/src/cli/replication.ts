/*
 * `npm run db:replication`: creates or updates this database's side of the identity replication
 * from REPLICATION_* configuration (as `npm run db:migrate` does after the migrations).
 * `npm run db:replication -- status`: what this database publishes or subscribes to, with lag.
 */
import { parseCommandLine } from '@edu/config';
import { configureReplication, replicationConfigFromEnv, ReplicationConfigError, replicationStatus } from '../replication';

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  const args = parseCommandLine({ options: {}, allowPositionals: true });
  if (typeof args === 'string' || args.positionals.length > 1) {
    console.error(`usage: db:replication [apply|status] (${typeof args === 'string' ? args : `got "${args.positionals.join(' ')}"`})`);
    process.exit(2);
  }
  const command = args.positionals[0] ?? 'apply';
  if (!url) {
    console.error('DATABASE_URL is not set');
    process.exit(2);
  }
  if (command === 'status') {
    console.log(JSON.stringify(await replicationStatus(url), null, 2));
    return;
  }
  if (command !== 'apply') {
    console.error(`usage: db:replication [apply|status] (got "${command}")`);
    process.exit(2);
  }
  let config;
  try {
    config = replicationConfigFromEnv();
  } catch (err) {
    if (!(err instanceof ReplicationConfigError)) throw err;
    console.error(`Bad replication configuration: ${err.message}`);
    process.exit(2);
  }
  if (config.role === 'none') {
    console.log('REPLICATION_ROLE is not set: nothing to do');
    return;
  }
  const changes = await configureReplication(url, config);
  console.log(changes.length ? `Replication (${config.role}): ${changes.join('; ')}` : `Replication (${config.role}) is up to date`);
}

main().catch((err: unknown) => {
  console.error('Replication setup failed:', err instanceof Error ? err.message : err);
  process.exit(1);
});
