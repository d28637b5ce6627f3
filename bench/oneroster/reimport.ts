/**
 * A tenant's imports after the first, as a district's nightly drop makes them:
 *
 *   npm run bench:reimport -- [--scale 0.3] [--delta-fraction 0.1]
 *
 * The synthetic district (generate.ts) is imported, then the same package again (every record
 * unchanged), then a delta package changing a fraction of the students (users.csv only; new
 * names, no role changes). Each import runs as the imports API runs it (import-runner.ts) and
 * prints its phases; beside each, the time PostgreSQL spent in the change feed's capture
 * functions (`track_functions`, on an embedded server). JSON lands in bench/results/.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { parseCommandLine } from '@edu/config';
import { createDataSource, runMigrations } from '@edu/persistence';
import { runImport } from '../../apps/oneroster/src/imports/import-runner';
import { createBenchTenant } from './apps';
import { generateRosterPackage } from './generate';
import { positive } from '../common/args';
import { startBenchDatabase } from '../common/database';
import { log, projectRoot } from '../common/processes';

const OPTIONS = { scale: { type: 'string' }, 'delta-fraction': { type: 'string' } } as const;

interface ImportFigure {
  name: string;
  rows: number;
  seconds: number;
  counts: Record<string, unknown>;
  /** Milliseconds inside each capture function during this import (empty when not tracked). */
  captureMs: Record<string, number>;
}

/** Cumulative milliseconds per tracked function of the database (flushed when a session ends). */
async function functionTimes(c: Client): Promise<Record<string, number>> {
  const { rows } = await c.query<{ name: string; ms: number }>(
    `SELECT funcname AS name, total_time::float8 AS ms FROM pg_stat_user_functions WHERE funcname LIKE 'roster_events_capture%'`,
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.ms]));
}

async function timedImport(
  url: string,
  tenantId: string,
  name: string,
  location: string,
  c: Client,
): Promise<ImportFigure> {
  const before = await functionTimes(c);
  const started = Date.now();
  const report = await runImport({
    databaseUrl: url,
    location,
    tenantId,
    source: name,
    onProgress: (m) => log(`  ${m}`),
  });
  const seconds = (Date.now() - started) / 1000;
  if (report.status !== 'succeeded') throw new Error(`${name} failed: ${JSON.stringify(report.errors.slice(0, 5))}`);
  // The import's session reports its function times as it ends, just after the report arrives.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await c.query('SELECT pg_stat_clear_snapshot()');
  const after = await functionTimes(c);
  const captureMs = Object.fromEntries(
    Object.entries(after).map(([fn, ms]) => [fn, Math.round(ms - (before[fn] ?? 0))] as const),
  );
  const figure: ImportFigure = { name, rows: report.rows, seconds, counts: report.counts, captureMs };
  log(`${name}: ${report.rows} rows in ${seconds.toFixed(2)} s; capture ${JSON.stringify(captureMs)}`);
  return figure;
}

async function main(): Promise<void> {
  const parsed = parseCommandLine({ args: process.argv.slice(2), options: OPTIONS });
  if (typeof parsed === 'string') throw new Error(`${parsed} (see bench/oneroster/reimport.ts)`);
  const scale = positive('scale', parsed.values.scale, 0.3);
  const deltaFraction = positive('delta-fraction', parsed.values['delta-fraction'], 0.1);
  const root = projectRoot();
  const db = await startBenchDatabase(root);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'edu-bench-reimport-'));
  const c = new Client({ connectionString: db.url });
  try {
    await c.connect();
    await runMigrations(db.url);
    // Sessions opened from now on (the imports') time the capture functions; a superuser setting.
    if (db.embedded) await c.query(`ALTER DATABASE "${new URL(db.url).pathname.slice(1)}" SET track_functions = 'pl'`);
    const ds = createDataSource({ url: db.url, poolSize: 1, applicationName: 'bench-setup' });
    await ds.initialize();
    const tenantId = await createBenchTenant(ds, 'org-district').finally(() => ds.destroy());
    const bulk = path.join(dataDir, 'bulk');
    const delta = path.join(dataDir, 'delta');
    log(`generating the synthetic district (scale ${scale}) and a delta of ${deltaFraction} of the students`);
    await generateRosterPackage({ out: bulk, scale, rootOrg: 'org-district', deltaFraction, deltaOut: delta });
    const imports = [
      await timedImport(db.url, tenantId, 'first import', bulk, c),
      await timedImport(db.url, tenantId, 'the same package again', bulk, c),
      await timedImport(db.url, tenantId, `delta of ${deltaFraction} of the students`, delta, c),
    ];
    const outDir = path.join(root, 'bench', 'results');
    mkdirSync(outDir, { recursive: true });
    const when = new Date().toISOString();
    const file = path.join(outDir, `reimport-${when.replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, `${JSON.stringify({ when, scale, deltaFraction, imports }, null, 2)}\n`);
    log(`results written to ${path.relative(root, file)}`);
  } finally {
    await c.end().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    await db.stop();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
