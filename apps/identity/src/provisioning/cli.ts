/*
 * Bulk provisioning: `npm run provision -- <file.json> [--dry-run]`. Reads DATABASE_URL (and
 * SCHEMA_BASE / ONEROSTER_SCOPE_BASE for scope URIs); the schema must already be migrated.
 * File format: tools/provision/README.md.
 */
import 'reflect-metadata';
import { runProvisionCli } from './provision-command';

runProvisionCli(process.argv.slice(2), process.env, { log: (l) => console.log(l), error: (l) => console.error(l) }).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
