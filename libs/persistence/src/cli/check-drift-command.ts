/** `db:check-drift` (see check-drift.ts) as a function returning the exit code. */
import { pendingSchemaChanges } from '../migrate';
import { reportingFailure, startDatabaseCommand, withCommandDatabase, type CliOutput } from '../database-command';

export const CHECK_DRIFT_USAGE = 'usage: npm run db:check-drift (DATABASE_URL: a migrated database)';

export async function runCheckDriftCli(args: string[], env: NodeJS.ProcessEnv, out: CliOutput): Promise<number> {
  const started = startDatabaseCommand(args, env, out, { usage: CHECK_DRIFT_USAGE, options: {} });
  if (typeof started === 'number') return started;
  return reportingFailure('Drift check', out, () =>
    withCommandDatabase(started.databaseUrl, 'edu-drift-check', async (ds) => {
      const pending = await pendingSchemaChanges(ds);
      if (pending.length === 0) {
        out.log('No drift: the migrations produce exactly the schema the entities describe');
        return 0;
      }
      out.error(
        `Schema drift: the entities need changes no migration makes:\n${pending.map((q) => `  ${q};`).join('\n')}`,
      );
      return 1;
    }),
  );
}
