/*
 * Bulk replay of undeliverable deliveries:
 * `npm run alerts:replay -- --since <time|duration> [--until ...] [--webhook <id>] [--app <id>] [--tenant <id>] [--dry-run]`.
 * Reads DATABASE_URL (the database of the alerts API and dispatcher of that region). The running
 * webhook dispatcher queues what it creates. Procedure: docs/operators/deliveries.md.
 */
import 'reflect-metadata';
import { runDatabaseCommand } from '@edu/persistence';
import { runReplayCli } from './replay-command';

runDatabaseCommand(runReplayCli);
