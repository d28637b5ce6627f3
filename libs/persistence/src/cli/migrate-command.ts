/** `db:migrate` (see migrate.ts) as a function returning the exit code. */
import { runMigrations } from '../migrate';
import { reportingFailure, startDatabaseCommand, type CliOutput } from '../database-command';
import { applyReplication, replicationConfigOrRefuse } from './replication-command';

export const MIGRATE_USAGE =
  'usage: npm run db:migrate (DATABASE_URL, and REPLICATION_* to set up replication afterwards)';

export async function runMigrateCli(args: string[], env: NodeJS.ProcessEnv, out: CliOutput): Promise<number> {
  const started = startDatabaseCommand(args, env, out, { usage: MIGRATE_USAGE, options: {} });
  if (typeof started === 'number') return started;
  // Refuse bad replication settings before touching the schema.
  const replication = replicationConfigOrRefuse(env, out);
  if (typeof replication === 'number') return replication;
  return reportingFailure('Migration', out, async () => {
    const applied = await runMigrations(started.databaseUrl);
    out.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Database schema is up to date');
    if (replication.role !== 'none') await applyReplication(started.databaseUrl, replication, out);
    return 0;
  });
}
