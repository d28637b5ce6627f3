/**
 * Entry of the import worker thread (see import-runner.ts). Path aliases are registered first:
 * module resolution hooks do not carry over from the parent thread.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

const registerPaths = path.resolve(__dirname, '../../../../../tools/runtime/register-paths.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports
if (existsSync(registerPaths)) require(registerPaths);

async function main(): Promise<void> {
  // Loaded after the aliases are in place.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const runner = require('./import-runner') as typeof import('./import-runner');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { UnknownTenantError } = require('./roster-importer') as typeof import('./roster-importer');
  const data = workerData as Omit<import('./import-runner').RunImportOptions, 'onProgress'> & { progress: boolean };
  const post = (m: import('./import-runner').WorkerMessage) => parentPort!.postMessage(m);
  try {
    const report = await runner.runImportHere({
      ...data,
      onProgress: data.progress ? (message) => post({ type: 'progress', message }) : undefined,
    });
    post({ type: 'done', report });
  } catch (err) {
    const e = err as Error;
    post({ type: 'error', unknownTenant: err instanceof UnknownTenantError, message: e.message, stack: e.stack });
  }
}

void main();
