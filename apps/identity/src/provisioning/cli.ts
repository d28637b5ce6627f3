/*
 * Bulk provisioning: `npm run provision -- <file.json> [--dry-run]`. Reads DATABASE_URL (and
 * SCHEMA_BASE / ONEROSTER_SCOPE_BASE for scope URIs); the schema must already be migrated.
 * File format: tools/provision/README.md.
 */
import 'reflect-metadata';
import { runDatabaseCommand } from '@edu/persistence';
import { runProvisionCli } from './provision-command';

runDatabaseCommand(runProvisionCli);
