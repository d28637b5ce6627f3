/** `db:cleanup-orphans` (see cleanup-orphans.ts) as a function returning the exit code. */
import { cleanupOrphans, OrphanCleanupRefused, type OrphanCleanupReport } from '../orphans';
import { reportingFailure, startDatabaseCommand, type CliOutput } from '../database-command';

export const CLEANUP_ORPHANS_USAGE = 'usage: npm run db:cleanup-orphans [-- --dry-run] [--force]';

const OPTIONS = { 'dry-run': { type: 'boolean', default: false }, force: { type: 'boolean', default: false } } as const;

function describe(report: OrphanCleanupReport, dryRun: boolean): string[] {
  if (!report.ran) return ['Another orphan cleanup is running on this database: nothing done'];
  const tables = Object.entries(report.removed);
  if (tables.length === 0) return ['No orphaned rows'];
  const verb = dryRun ? 'would remove' : 'removed';
  return [
    ...tables.map(([table, n]) => `${table}: ${verb} ${n} row(s)`),
    `deleted tenants with rows: ${report.tenants.length}; deleted apps with webhooks: ${report.apps.length}; open deliveries cancelled: ${report.cancelledDeliveries}`,
  ];
}

export async function runCleanupOrphansCli(args: string[], env: NodeJS.ProcessEnv, out: CliOutput): Promise<number> {
  const started = startDatabaseCommand(args, env, out, { usage: CLEANUP_ORPHANS_USAGE, options: OPTIONS });
  if (typeof started === 'number') return started;
  const dryRun = started.values['dry-run'];
  return reportingFailure('Orphan cleanup', out, async () => {
    try {
      const report = await cleanupOrphans(started.databaseUrl, { dryRun, force: started.values.force });
      for (const line of describe(report, dryRun)) out.log(line);
      return 0;
    } catch (err) {
      if (!(err instanceof OrphanCleanupRefused)) throw err;
      out.error(`Refused: ${err.message}`);
      return 1;
    }
  });
}
