/** `db:replication` (see replication.ts) as a function returning the exit code. */
import {
  replicationStatus,
  configureReplication,
  replicationConfigFromEnv,
  ReplicationConfigError,
  type ReplicationConfig,
} from '../replication';
import { reportingFailure, startDatabaseCommand, type CliOutput } from '../database-command';

export const REPLICATION_USAGE = 'usage: npm run db:replication [-- apply|status]';

/** The REPLICATION_* configuration, or exit code 2 after saying what is wrong with it. */
export function replicationConfigOrRefuse(env: NodeJS.ProcessEnv, out: CliOutput): ReplicationConfig | number {
  try {
    return replicationConfigFromEnv(env);
  } catch (err) {
    if (!(err instanceof ReplicationConfigError)) throw err;
    out.error(`Bad replication configuration: ${err.message}`);
    return 2;
  }
}

/** Creates or updates this database's side of the replication, saying what changed. */
export async function applyReplication(
  databaseUrl: string,
  config: Exclude<ReplicationConfig, { role: 'none' }>,
  out: CliOutput,
): Promise<void> {
  const changes = await configureReplication(databaseUrl, config);
  out.log(
    changes.length
      ? `Replication (${config.role}): ${changes.join('; ')}`
      : `Replication (${config.role}) is up to date`,
  );
}

export async function runReplicationCli(args: string[], env: NodeJS.ProcessEnv, out: CliOutput): Promise<number> {
  const started = startDatabaseCommand(args, env, out, {
    usage: REPLICATION_USAGE,
    options: {},
    allowPositionals: true,
  });
  if (typeof started === 'number') return started;
  const [command = 'apply', ...extra] = started.positionals;
  if ((command !== 'apply' && command !== 'status') || extra.length > 0) {
    out.error(`${REPLICATION_USAGE} (got "${started.positionals.join(' ')}")`);
    return 2;
  }
  if (command === 'status') {
    return reportingFailure('Replication status', out, async () => {
      out.log(JSON.stringify(await replicationStatus(started.databaseUrl), null, 2));
      return 0;
    });
  }
  const config = replicationConfigOrRefuse(env, out);
  if (typeof config === 'number') return config;
  if (config.role === 'none') {
    out.log('REPLICATION_ROLE is not set: nothing to do');
    return 0;
  }
  return reportingFailure('Replication setup', out, async () => {
    await applyReplication(started.databaseUrl, config, out);
    return 0;
  });
}
