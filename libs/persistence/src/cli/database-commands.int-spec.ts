/*
 * The db:* command lines, run in-process on their shared prologue against a real migrated
 * database: usage, configuration refusals and exit codes, then each command's work.
 */
import { createTestDatabase, type TestDatabase } from '@edu/testing';
import type { CliOutput, DatabaseCommand } from '../database-command';
import { runCheckDriftCli, CHECK_DRIFT_USAGE } from './check-drift-command';
import { runCleanupOrphansCli, CLEANUP_ORPHANS_USAGE } from './cleanup-orphans-command';
import { runMigrateCli, MIGRATE_USAGE } from './migrate-command';
import { runReplicationCli, REPLICATION_USAGE } from './replication-command';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(command: DatabaseCommand, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const out: CliOutput = { log: (l) => stdout.push(l), error: (l) => stderr.push(l) };
  const code = await command(args, env, out);
  return { code, stdout: stdout.join('\n'), stderr: stderr.join('\n') };
}

describe('database command lines', () => {
  let db: TestDatabase;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    db = await createTestDatabase();
    env = { DATABASE_URL: db.url };
  });

  afterAll(async () => {
    await db?.drop();
  });

  it.each([
    ['migrate', runMigrateCli, MIGRATE_USAGE],
    ['check-drift', runCheckDriftCli, CHECK_DRIFT_USAGE],
    ['cleanup-orphans', runCleanupOrphansCli, CLEANUP_ORPHANS_USAGE],
    ['replication', runReplicationCli, REPLICATION_USAGE],
  ] as const)(
    '%s: --help prints the usage (exit 0), an unknown flag is refused with it (exit 2)',
    async (_name, command, usage) => {
      expect(await run(command, ['--help'], {})).toEqual({ code: 0, stdout: usage, stderr: '' });
      const refused = await run(command, ['--no-such-flag'], env);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain("Unknown option '--no-such-flag'");
      expect(refused.stderr).toContain(usage);
    },
  );

  it.each([
    ['migrate', runMigrateCli],
    ['check-drift', runCheckDriftCli],
    ['cleanup-orphans', runCleanupOrphansCli],
    ['replication', runReplicationCli],
  ] as const)(
    '%s: refuses to run without a postgres DATABASE_URL (exit 2), without echoing it',
    async (_name, command) => {
      expect(await run(command, [], {})).toMatchObject({
        code: 2,
        stdout: '',
        stderr: expect.stringContaining('DATABASE_URL'),
      });
      const bad = await run(command, [], { DATABASE_URL: 'mysql://user:hunter2@db/x' });
      expect(bad).toMatchObject({ code: 2, stdout: '' });
      expect(bad.stderr).toContain('DATABASE_URL must be a postgres:// URL');
      expect(bad.stderr).not.toContain('hunter2');
    },
  );

  it('migrate: finds the migrated schema up to date; bad replication settings are refused before any work (exit 2)', async () => {
    expect(await run(runMigrateCli, [], env)).toEqual({ code: 0, stdout: 'Database schema is up to date', stderr: '' });
    const refused = await run(runMigrateCli, [], { ...env, REPLICATION_ROLE: 'mirror' });
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toMatch(/^Bad replication configuration: REPLICATION_ROLE must be/);
  });

  it('migrate: an unreachable database fails with exit 1 and says so', async () => {
    const failed = await run(runMigrateCli, [], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/^Migration failed: /);
  });

  it('check-drift: no drift on the migrated schema (exit 0)', async () => {
    expect(await run(runCheckDriftCli, [], env)).toEqual({
      code: 0,
      stdout: 'No drift: the migrations produce exactly the schema the entities describe',
      stderr: '',
    });
  });

  it('cleanup-orphans: refuses an empty tenants table (exit 1) unless forced; a forced dry run finds nothing', async () => {
    const refused = await run(runCleanupOrphansCli, ['--dry-run'], env);
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    expect(refused.stderr).toMatch(/^Refused: /);
    expect(await run(runCleanupOrphansCli, ['--dry-run', '--force'], env)).toEqual({
      code: 0,
      stdout: 'No orphaned rows',
      stderr: '',
    });
  });

  it('replication: status is JSON on stdout; apply without a role does nothing; an unknown subcommand is refused (exit 2)', async () => {
    const status = await run(runReplicationCli, ['status'], env);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toEqual({ publication: null, slots: [], subscriptions: [] });
    expect(await run(runReplicationCli, [], env)).toEqual({
      code: 0,
      stdout: 'REPLICATION_ROLE is not set: nothing to do',
      stderr: '',
    });
    const refused = await run(runReplicationCli, ['status', 'now'], env);
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toContain(`${REPLICATION_USAGE} (got "status now")`);
  });
});
