/*
 * Signing keys: `npm run keys:list`, `npm run keys:stage -- --use webhook`,
 * `npm run keys:rotate -- --use webhook --keep-published 24h`. Reads DATABASE_URL (the global
 * identity database) and KEY_ENCRYPTION_KEY (the value the identity service and the webhook
 * dispatcher run with). The procedure: docs/operators/signing-keys.md.
 */
import 'reflect-metadata';
import { runKeysCli } from './keys-command';

runKeysCli(process.argv.slice(2), process.env, { log: (l) => console.log(l), error: (l) => console.error(l) }).then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
