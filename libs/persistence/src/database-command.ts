/*
 * The prologue the database command lines (provision, keys:*, alerts:replay) share: the command
 * is a function of its arguments, environment and output returning the exit code (so tests run it
 * in-process), its configuration is read or refused with exit code 2, and its database pool is
 * opened for the work and always closed.
 */
import type { DataSource } from 'typeorm';
import { type BaseEnv, ConfigValidationError, loadConfig } from '@edu/config';
import { createDataSource } from './data-source';

export interface CliOutput {
  log(line: string): void;
  error(line: string): void;
}

export type DatabaseCommand = (args: string[], env: NodeJS.ProcessEnv, out: CliOutput) => Promise<number>;

/** Runs a command as this process: exits with its code, or 1 with the message of an unexpected error. */
export function runDatabaseCommand(command: DatabaseCommand): void {
  command(process.argv.slice(2), process.env, { log: (l) => console.log(l), error: (l) => console.error(l) }).then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}

/** The command's configuration (DATABASE_URL required), or why it cannot run. */
export function databaseCommandConfig<E extends BaseEnv>(Env: new () => E, env: NodeJS.ProcessEnv): E | string {
  try {
    const config = loadConfig(Env, env);
    if (!env.DATABASE_URL) throw new ConfigValidationError(['DATABASE_URL: not set']);
    return config;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** Runs `work` with a small pool on `url`, closed afterwards whatever happens. */
export async function withCommandDatabase<T>(url: string, applicationName: string, work: (ds: DataSource) => Promise<T>): Promise<T> {
  const ds = createDataSource({ url, poolSize: 2, applicationName });
  await ds.initialize();
  try {
    return await work(ds);
  } finally {
    await ds.destroy();
  }
}
