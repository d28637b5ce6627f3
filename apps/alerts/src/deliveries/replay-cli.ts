/*
 * Bulk replay of undeliverable deliveries:
 * `npm run alerts:replay -- --since <time|duration> [--until ...] [--webhook <id>] [--app <id>] [--tenant <id>] [--dry-run]`.
 * Reads DATABASE_URL (the database of the alerts API and dispatcher of that region). The running
 * webhook dispatcher queues what it creates. Procedure: docs/operators/deliveries.md.
 */
import 'reflect-metadata';
import { runReplayCli } from './replay-command';

runReplayCli(process.argv.slice(2), process.env, { log: (l) => console.log(l), error: (l) => console.error(l) }).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
