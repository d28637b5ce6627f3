/** The database of a benchmark run, shared by the benchmarks. */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { log } from './processes';

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

export interface BenchDatabase {
  url: string;
  embedded: boolean;
  stop(): Promise<void>;
}

/**
 * A fresh database for one benchmark run: on the server of `DATABASE_URL`, else on an embedded
 * PostgreSQL started for the run with `durable: false` (fsync off: a throwaway). `stop` drops the
 * database, then stops the embedded server and removes its files.
 */
export async function startBenchDatabase(root: string): Promise<BenchDatabase> {
  let serverUrl = process.env['DATABASE_URL'];
  let stopServer = async (): Promise<void> => undefined;
  let dataDir: string | undefined;
  if (!serverUrl) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { startPostgres } = require(path.join(root, 'tools', 'infra', 'postgres.js')) as {
      startPostgres(o: { dataDir: string; durable: boolean }): Promise<{ url: string; stop(): Promise<void> }>;
    };
    dataDir = mkdtempSync(path.join(tmpdir(), 'edu-bench-pg-'));
    log('starting an embedded PostgreSQL (non-durable: fsync off)');
    const pg = await startPostgres({ dataDir, durable: false });
    serverUrl = pg.url;
    stopServer = () => pg.stop();
  }
  const name = `edu_bench_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = withDatabase(serverUrl, name);
  return {
    url,
    embedded: dataDir !== undefined,
    stop: async () => {
      const c = new Client({ connectionString: withDatabase(serverUrl as string, 'postgres') });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
      await stopServer();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
