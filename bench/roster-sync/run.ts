/**
 * `npm run bench:roster-sync [-- --scale 0.1]`: a district's roster pulled from a OneRoster API on
 * this machine (the compiled oneroster service serving a source tenant) against the CSV import of
 * the same data. Target (issue 27): the pull, staged diff and import together run at >= 50 % of
 * the CSV import's rows per second. See README.md beside this file.
 */
import 'reflect-metadata';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { createDataSource, runMigrations, TenantEntity } from '@edu/persistence';
import { importRosterPackage } from '../../apps/oneroster/src/imports/roster-importer';
import { openRosterPackage } from '../../apps/oneroster/src/imports/roster-package';
import { GuardedHttp } from '../../apps/oneroster/src/sources/worker/rest/guarded-http';
import { OneRosterClient } from '../../apps/oneroster/src/sources/worker/rest/oneroster-client';
import { pullPackage } from '../../apps/oneroster/src/sources/worker/rest/rest-puller';
import { stagedDiff } from '../../apps/oneroster/src/sources/worker/staged-diff';
import { TenantLock } from '../../apps/oneroster/src/sources/worker/tenant-lock';
import { startBenchDatabase } from '../common/database';
import { listeningSocket, log, projectRoot, startChild, UNLIMITED_ENV } from '../common/processes';
import { deployBenchApp } from '../oneroster/apps';
import { generateRosterPackage } from '../oneroster/generate';
import { BenchIssuer } from '../oneroster/issuer';
import { startTokenEndpoint } from './token-endpoint';

const SCOPES = ['roster.readonly', 'roster-demographics.readonly'].map(
  (s) => `https://purl.imsglobal.org/spec/or/v1p1/scope/${s}`,
);
const ROOT_ORG = 'org-district';

function scaleArg(argv: string[]): number {
  const i = argv.indexOf('--scale');
  const scale = i >= 0 ? Number(argv[i + 1]) : 1;
  if (!(scale > 0 && scale <= 1)) throw new Error('--scale must be a number in (0, 1]');
  return scale;
}

async function tenant(url: string, name: string): Promise<string> {
  const ds = createDataSource({ url });
  await ds.initialize();
  try {
    const t = await ds.getRepository(TenantEntity).save({
      name,
      customerId: Math.floor(Math.random() * 2e9),
      govtId: name,
      regionId: 'AU-NSW',
      licences: ['data-operations'],
      rootOrgSourcedId: ROOT_ORG,
    });
    return t.id;
  } finally {
    await ds.destroy();
  }
}

/** Imports a package folder for a tenant; rows and seconds. */
async function timedImport(url: string, tenantId: string, dir: string): Promise<{ rows: number; seconds: number }> {
  const client = new Client({ connectionString: url, application_name: 'bench-import' });
  await client.connect();
  const started = Date.now();
  try {
    const report = await importRosterPackage(client, () => openRosterPackage(dir), { tenantId, source: 'bench' });
    if (report.status !== 'succeeded') throw new Error(`import failed: ${JSON.stringify(report.errors.slice(0, 3))}`);
    return { rows: report.rows, seconds: (Date.now() - started) / 1000 };
  } finally {
    await client.end();
  }
}

/** The run's figures as `bench/results/roster-sync-<when>.json`, beside the other benches' results. */
function writeResults(root: string, figures: Record<string, unknown>): void {
  const when = new Date().toISOString();
  const dir = path.join(root, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `roster-sync-${when.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ when, node: process.version, ...figures }, null, 2)}\n`);
  log(`results written to ${path.relative(root, file)}`);
}

async function main(): Promise<void> {
  const scale = scaleArg(process.argv.slice(2));
  const root = projectRoot();
  const db = await startBenchDatabase(root);
  const issuer = await new BenchIssuer().start();
  const work = mkdtempSync(path.join(tmpdir(), 'bench-roster-sync-'));
  const stops: Array<() => Promise<void>> = [];
  try {
    await runMigrations(db.url);
    const source = await tenant(db.url, 'bench source district');
    const target = await tenant(db.url, 'bench synced district');
    const ds = createDataSource({ url: db.url });
    await ds.initialize();
    const app = await deployBenchApp(ds, source, 'bench SIS reader', SCOPES);
    await ds.destroy();

    log(`generating the synthetic district (scale ${scale})`);
    const pkg = path.join(work, 'package');
    const summary = await generateRosterPackage({ out: pkg, scale, rootOrg: ROOT_ORG });
    log(`importing ${summary.rows} rows into the source tenant through the CSV importer`);
    const csv = await timedImport(db.url, source, pkg);
    const csvRate = csv.rows / csv.seconds;
    log(`CSV import: ${csv.rows} rows in ${csv.seconds.toFixed(1)} s = ${Math.round(csvRate)} rows/s`);

    const socket = await listeningSocket();
    const service = await startChild(
      root,
      'apps/oneroster/src/main',
      {
        ...UNLIMITED_ENV,
        NODE_ENV: 'production',
        LOG_LEVEL: 'warn',
        DATABASE_URL: db.url,
        JWKS_URL: issuer.jwksUrl,
        TOKEN_ISSUER: issuer.issuer,
        TOKEN_AUDIENCE: issuer.audience,
        PUBLIC_BASE_URL: socket.url,
        ROSTER_EVENTS_CURSOR_SECRET: 'bench-roster-events-cursor-secret-of-this-run',
      },
      { socket },
    );
    stops.push(async () => void (await service.stop()));
    const tokens = await startTokenEndpoint(issuer, { tenantId: source, ...app, scopes: SCOPES });
    stops.push(tokens.stop);

    const figures = await timedSync(db.url, target, `${service.url}/ims/oneroster/v1p1`, tokens.url, work);
    const rate = figures.rows / figures.seconds;
    log(
      `sync: ${figures.rows} rows in ${figures.seconds.toFixed(1)} s = ${Math.round(rate)} rows/s ` +
        `(pull ${figures.pull.toFixed(1)} s, staged diff ${figures.diff.toFixed(1)} s, import ${figures.import.toFixed(1)} s)`,
    );
    log(
      `sync / CSV import = ${(rate / csvRate).toFixed(2)} (target >= 0.50): ${rate / csvRate >= 0.5 ? 'met' : 'NOT met'}`,
    );
    writeResults(root, { scale, counts: summary.counts, csv, sync: figures, ratio: rate / csvRate });
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await issuer.stop();
    rmSync(work, { recursive: true, force: true });
    await db.stop();
  }
}

/** A sync as the worker runs it: the tenant's lock, the pull, the staged diff and the import, on one connection. */
async function timedSync(
  url: string,
  tenantId: string,
  baseUrl: string,
  tokenUrl: string,
  work: string,
): Promise<{ rows: number; seconds: number; pull: number; diff: number; import: number }> {
  const dir = mkdtempSync(path.join(work, 'pulled-'));
  const http = new GuardedHttp(
    { allowHttp: true, allowPrivate: true, allowedPorts: 'any' },
    { timeoutMs: 60_000, maxBytes: 64 * 1024 * 1024 },
  );
  const client = new OneRosterClient(
    http,
    { tokenUrl, clientId: 'bench', clientSecret: 'bench-secret' },
    { retries: 3, maxWaitMs: 10_000, baseDelayMs: 500 },
  );
  const started = Date.now();
  const lock = await TenantLock.tryTake(url, tenantId);
  if (!lock) throw new Error('the tenant is busy');
  try {
    const pulled = await pullPackage(client, {
      version: '1.1',
      baseUrl,
      mode: 'full',
      dir,
      paging: { pageSize: 1000, parallel: Number(process.env['BENCH_PARALLEL_PAGES'] ?? 4), maxPages: 100_000 },
    });
    const afterPull = Date.now();
    let last = Date.now();
    await stagedDiff(lock.client, tenantId, dir, 10, (what) => {
      if (process.env['BENCH_VERBOSE']) log(`  ${what} (${((Date.now() - last) / 1000).toFixed(2)} s)`);
      last = Date.now();
    });
    const afterDiff = Date.now();
    const report = await importRosterPackage(lock.client, () => openRosterPackage(dir), {
      tenantId,
      source: 'bench sync',
    });
    if (report.status !== 'succeeded')
      throw new Error(`sync import failed: ${JSON.stringify(report.errors.slice(0, 3))}`);
    const done = Date.now();
    return {
      rows: pulled.rows,
      seconds: (done - started) / 1000,
      pull: (afterPull - started) / 1000,
      diff: (afterDiff - afterPull) / 1000,
      import: (done - afterDiff) / 1000,
    };
  } finally {
    await lock.release();
    await http.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
