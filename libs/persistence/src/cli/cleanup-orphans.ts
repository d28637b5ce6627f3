/*
 * `npm run db:cleanup-orphans [-- --dry-run] [--force]`: removes regional rows whose tenant or app
 * was deleted (run it on a schedule against every database that serves regional data).
 * Exit codes: 0 done (or another run holds the lock), 1 failed or refused, 2 bad usage.
 */
import { runDatabaseCommand } from '../database-command';
import { runCleanupOrphansCli } from './cleanup-orphans-command';

runDatabaseCommand(runCleanupOrphansCli);
