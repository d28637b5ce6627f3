/**
 * Runs one import on its own database connection, in a worker thread when the compiled code is
 * there (CLI, services): reading a large package allocates heavily, and a worker gets a young
 * generation sized for it (about a third less CPU in garbage collection) and keeps the event loop
 * of an HTTP server free. Under ts-node/jest (no compiled worker) it runs in the calling thread.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';
import { Client } from 'pg';
import { connectionSettings } from '@edu/persistence/pg';
import { importRosterPackage, UnknownTenantError, type ImportOptions, type ImportReport } from './roster-importer';
import { openRosterPackage } from './roster-package';

export interface RunImportOptions extends Omit<ImportOptions, 'onProgress'> {
  databaseUrl: string;
  /** Zip file or directory. */
  location: string;
  onProgress?: (message: string) => void;
  /** Force the calling thread (tests, small imports). */
  inProcess?: boolean;
}

/** What crosses from the worker: plain data only. */
export type WorkerMessage =
  | { type: 'progress'; message: string }
  | { type: 'done'; report: ImportReport }
  | { type: 'error'; unknownTenant: boolean; message: string; stack?: string };

/** Young generation of the import worker (MB): fewer, cheaper scavenges of short-lived rows. */
const YOUNG_GENERATION_MB = 192;

const WORKER_FILE = path.join(__dirname, 'import-worker.js');

/**
 * The import itself, in whichever thread calls it. A worker thread cannot borrow from the
 * service's pool (a pool does not cross threads), so it opens one connection with the platform's
 * connection settings; no statement limit, since one COPY of a large file may take minutes.
 */
export async function runImportHere(o: RunImportOptions): Promise<ImportReport> {
  const client = new Client(
    connectionSettings({ url: o.databaseUrl, applicationName: 'roster-import', statementTimeoutMs: 0 }),
  );
  await client.connect();
  try {
    const { databaseUrl: _url, location, inProcess: _here, ...options } = o;
    return await importRosterPackage(client, () => openRosterPackage(location), options);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function runImport(o: RunImportOptions): Promise<ImportReport> {
  if (o.inProcess || !existsSync(WORKER_FILE)) return runImportHere(o);
  return new Promise<ImportReport>((resolve, reject) => {
    const { onProgress, ...data } = o;
    const worker = new Worker(WORKER_FILE, {
      workerData: { ...data, progress: onProgress !== undefined },
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    let settled = false;
    worker.on('message', (m: WorkerMessage) => {
      if (m.type === 'progress') onProgress?.(m.message);
      else if (m.type === 'done') {
        settled = true;
        resolve(m.report);
      } else {
        settled = true;
        const err = m.unknownTenant ? new UnknownTenantError(o.tenantId) : new Error(m.message);
        if (m.stack && !m.unknownTenant) err.stack = m.stack;
        reject(err);
      }
    });
    worker.on('error', (err) => {
      if (!settled) reject(err);
      settled = true;
    });
    worker.on('exit', (code) => {
      if (!settled) reject(new Error(`the import worker exited with code ${code}`));
      settled = true;
    });
  });
}
