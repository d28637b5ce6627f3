import 'reflect-metadata';
import { runHttpService } from '@edu/http';
import { sourcesKeyEncryptionKey } from '../sources.env';
import { RosterSyncWorkerEnv } from './worker.env';
import { RosterSyncWorkerModule } from './worker.module';

/** The roster sync worker process (`roster-sync`): see worker.module.ts and sources/README.md. */
void runHttpService({
  name: 'roster-sync',
  envClass: RosterSyncWorkerEnv,
  module: (env) => {
    if (!sourcesKeyEncryptionKey(env)) {
      process.stderr.write('roster-sync: KEY_ENCRYPTION_KEY is required (it opens the secrets of roster sources)\n');
      process.exit(78);
    }
    return RosterSyncWorkerModule.forRoot(env);
  },
});
