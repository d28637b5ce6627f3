/*
 * Signing keys: `npm run keys:list`, `npm run keys:stage -- --use webhook`,
 * `npm run keys:rotate -- --use webhook --keep-published 24h`. Reads DATABASE_URL (the global
 * identity database) and KEY_ENCRYPTION_KEY (the value the identity service and the webhook
 * dispatcher run with). The procedure: docs/operators/signing-keys.md.
 */
import 'reflect-metadata';
import { runDatabaseCommand } from '@edu/persistence';
import { runKeysCli } from './keys-command';

runDatabaseCommand(runKeysCli);
