/*
 * The prologue the database command lines (db:*, provision, keys:*, alerts:replay) share: the
 * command is a function of its arguments, environment and output returning the exit code (so
 * tests run it in-process), `--help` prints its usage, its command line and configuration are read
 * or refused with exit code 2, and its database pool is opened for the work and always closed.
 * Exit codes: 0 done, 1 failed or refused, 2 bad usage or configuration.
 */
import type { parseArgs, ParseArgsConfig } from 'node:util';
import type { DataSource } from 'typeorm';
import { BaseEnv, ConfigValidationError, loadConfig, parseCommandLine } from '@edu/config';
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
export async function withCommandDatabase<T>(
  url: string,
  applicationName: string,
  work: (ds: DataSource) => Promise<T>,
): Promise<T> {
  const ds = createDataSource({ url, poolSize: 2, applicationName });
  await ds.initialize();
  try {
    return await work(ds);
  } finally {
    await ds.destroy();
  }
}

/** What a command accepts on its command line, and the usage line printed for `--help` or a mistake. */
export type CommandLineSpec = Omit<ParseArgsConfig, 'args'> & { usage: string };

export type StartedCommand<T extends CommandLineSpec> = ReturnType<typeof parseArgs<T & { args: string[] }>> & {
  databaseUrl: string;
};

/**
 * The common start of a database command: its parsed command line and DATABASE_URL (validated
 * with the rest of BaseEnv), or the exit code to return at once: 0 after printing the usage for
 * `--help`, 2 after saying what is wrong with the command line or the configuration.
 */
export function startDatabaseCommand<T extends CommandLineSpec>(
  args: string[],
  env: NodeJS.ProcessEnv,
  out: CliOutput,
  spec: T,
): StartedCommand<T> | number {
  if (args.includes('--help') || args.includes('-h')) {
    out.log(spec.usage);
    return 0;
  }
  const { usage, ...config } = spec;
  const parsed = parseCommandLine({ ...config, args } as T & { args: string[] });
  if (typeof parsed === 'string') {
    out.error(`${parsed}\n${usage}`);
    return 2;
  }
  const loaded = databaseCommandConfig(BaseEnv, env);
  if (typeof loaded === 'string') {
    out.error(loaded);
    return 2;
  }
  return { ...parsed, databaseUrl: loaded.DATABASE_URL };
}

/** Runs the command's work; an error it throws is reported as `<what> failed: <message>`, exit code 1. */
export async function reportingFailure(what: string, out: CliOutput, work: () => Promise<number>): Promise<number> {
  try {
    return await work();
  } catch (err) {
    out.error(`${what} failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}
