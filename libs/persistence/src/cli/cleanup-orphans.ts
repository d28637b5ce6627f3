/*
 * `npm run db:cleanup-orphans [-- --dry-run] [--force]`: removes regional rows whose tenant or app
 * was deleted (run it on a schedule against every database that serves regional data).
 * Exit codes: 0 done (or another run holds the lock), 1 failed or refused, 2 bad usage.
 */
import { parseCommandLine } from '@edu/config';
import { cleanupOrphans, OrphanCleanupRefused } from '../orphans';

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  const args = parseCommandLine({ options: { 'dry-run': { type: 'boolean', default: false }, force: { type: 'boolean', default: false } } });
  if (!url || typeof args === 'string') {
    console.error(url ? `${args} (usage: db:cleanup-orphans [--dry-run] [--force])` : 'DATABASE_URL is not set');
    process.exit(2);
  }
  const dryRun = args.values['dry-run'];
  const report = await cleanupOrphans(url, { dryRun, force: args.values.force });
  if (!report.ran) {
    console.log('Another orphan cleanup is running on this database: nothing done');
    return;
  }
  const verb = dryRun ? 'would remove' : 'removed';
  const tables = Object.entries(report.removed);
  if (tables.length === 0) {
    console.log('No orphaned rows');
    return;
  }
  for (const [table, n] of tables) console.log(`${table}: ${verb} ${n} row(s)`);
  console.log(`deleted tenants with rows: ${report.tenants.length}; deleted apps with webhooks: ${report.apps.length}; open deliveries cancelled: ${report.cancelledDeliveries}`);
}

main().catch((err: unknown) => {
  console.error(err instanceof OrphanCleanupRefused ? `Refused: ${err.message}` : `Orphan cleanup failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
