/**
 * `npm run bench:oneroster -- [--scale 0.1] [--duration 10] [--connections 8,32]`
 *
 * The rostering API under load, end to end on one machine:
 *  1. PostgreSQL: `DATABASE_URL` (a new database is created in that server) or an embedded
 *     server started for the run (non-durable: fsync off — fine for a throwaway benchmark);
 *  2. migrations, one tenant (data-operations licence) with an app deployed at it;
 *  3. a synthetic district from `generate.ts` (1,000,000 users, 50 schools, 40,000 classes,
 *     2,000,000 enrollments at scale 1), imported through the CSV importer (rows/s reported);
 *  4. the oneroster service (compiled, as a child process, LOG_LEVEL=warn) verifying real
 *     ES256 tokens against a JWKS served over HTTP, and a bare node:http + pg baseline server;
 *  5. autocannon at each connection count against: users page 1, users at offset ~90 %
 *     (distinct offsets), a familyName filter (distinct names), a dateLastModified filter
 *     (distinct instants and pages), /classes/{id}/students (distinct classes), then the
 *     gradebook (`gradebook.ts`): a class's first result sync (1,200 PUTs creating: 30
 *     students × 40 line items), the same results replaced, and /classes/{id}/results pages;
 *     the baseline answers page 1 before and after the service runs (its spread is the
 *     run-to-run noise), and again in slices beside the service's page 1 (that target's reference).
 * Prints a table with the issue's targets and writes JSON to bench/results/.
 */
import autocannon from 'autocannon';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { parseCommandLine } from '@edu/config';
import { createDataSource, runMigrations } from '@edu/persistence';
import { runImport } from '../../apps/oneroster/src/imports/import-runner';
import { describeCopyReference, measureCopyReference, type CopyReference } from './copy-reference';
import { generateRosterPackage } from './generate';
import {
  classesWithStudents,
  createLineItems,
  RESULTS_PER_CLASS,
  resultPut,
  resultsPage,
  type GradedClass,
} from './gradebook';
import { createBenchTenant, deployBenchApp } from './apps';
import { deployClassShared, SHARED_CLASSES, type SharedDeployment } from './sharing';
import { importWithoutEvents, readFeed } from './events';
import { autovacuumWorkers, settleDatabase } from './settle';
import { BenchIssuer } from './issuer';
import { inRunOrder, mergeSlices, type Slice } from './slices';
import { baselineP99, BESIDE_PAGE_1, evaluateTargets, type RunResult, type TargetCheck } from './targets';
import {
  createPartners,
  partnerHeaders,
  revalidationScenario,
  runSyncs,
  SYNC_PARTNERS,
  syncLines,
  type SyncResult,
} from './caching';
import { positive } from '../common/args';
import { cpuMsOf, postgresCpuMs } from '../common/cpu';
import { startBenchDatabase, type BenchDatabase } from '../common/database';
import { listeningSocket, log, projectRoot, startChild, UNLIMITED_ENV, type ServerProcess } from '../common/processes';

const SCOPE_BASE = 'https://purl.imsglobal.org/spec/or/v1p1/scope';
const V1P2_SCOPE_BASE = 'https://purl.imsglobal.org/spec/or/v1p2/scope';
const PREFIX = '/ims/oneroster/v1p1';
/** The OneRoster 1.2 rostering service: the same rows as PREFIX, answered in the 1.2 shapes. */
const V1P2_ROSTERING = '/ims/oneroster/rostering/v1p2';

interface Args {
  scale: number;
  duration: number;
  warmup: number;
  /** Alternating slices each group of twins is measured in (`slices.ts`). */
  slices: number;
  connections: number[];
  logLevel: string;
  keep: boolean;
  /** Run only the scenarios whose name contains this text, or with `=` first, is exactly it (the baseline always runs). */
  only?: string;
  /** Measure PostgreSQL's own COPY of the imported rows beside the import (`copy-reference.ts`); default: without --only. */
  copyReference?: boolean;
}

const OPTIONS = {
  scale: { type: 'string' },
  duration: { type: 'string' },
  warmup: { type: 'string' },
  slices: { type: 'string' },
  connections: { type: 'string' },
  'log-level': { type: 'string', default: 'warn' },
  keep: { type: 'boolean', default: false },
  'copy-reference': { type: 'boolean' },
  'no-copy-reference': { type: 'boolean' },
  only: { type: 'string' },
} as const;

function parseArgs(argv: string[]): Args {
  const parsed = parseCommandLine({ args: argv, options: OPTIONS });
  if (typeof parsed === 'string') throw new Error(`${parsed} (see bench/oneroster/run.ts)`);
  const v = parsed.values;
  const connections = (v.connections ?? '8,32')
    .split(',')
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  if (connections.length === 0) throw new Error('--connections needs e.g. 8,32');
  return {
    scale: positive('scale', v.scale, 1),
    duration: positive('duration', v.duration, 10),
    warmup: positive('warmup', v.warmup, 10),
    slices: Math.max(1, Math.round(positive('slices', v.slices, 4))),
    connections,
    logLevel: v['log-level'],
    keep: v.keep,
    ...(v.only !== undefined ? { only: v.only } : {}),
    ...(v['copy-reference'] || v['no-copy-reference'] ? { copyReference: !!v['copy-reference'] } : {}),
  };
}

async function createTenant(
  url: string,
  rootOrg: string,
): Promise<{ tenantId: string; deploymentId: string; appId: string }> {
  const ds = createDataSource({ url, poolSize: 1, applicationName: 'bench-setup' });
  await ds.initialize();
  try {
    const tenantId = await createBenchTenant(ds, rootOrg);
    const scopes = [
      `${SCOPE_BASE}/roster.readonly`,
      `${SCOPE_BASE}/roster-core.readonly`,
      `${SCOPE_BASE}/gradebook.readonly`,
      `${SCOPE_BASE}/gradebook.createput`,
    ];
    const { appId, deploymentId } = await deployBenchApp(ds, tenantId, 'Bench Consumer', scopes);
    return { tenantId, deploymentId, appId };
  } finally {
    await ds.destroy();
  }
}

interface Scenario {
  name: string;
  target: 'service' | 'baseline';
  /** Path of the n-th request. */
  path: (n: number) => string;
  /** A JSON PUT: the body of the n-th request. */
  put?: (n: number) => string;
  /** Send exactly this many requests (no warm-up) instead of running for `--duration`. */
  amount?: number;
  /** Headers of every request besides the token (e.g. If-None-Match). */
  headers?: Record<string, string>;
  /** A status other than 2xx that counts as success (304 for revalidation). */
  expect?: number;
  /** Scenarios with the same key are twins a target compares: measured in alternating slices. */
  twins?: string;
}

async function run(
  baseUrl: string,
  scenario: Scenario,
  connections: number,
  duration: number,
  headers: Record<string, string>,
): Promise<RunResult> {
  let n = 0;
  const put = scenario.put;
  const result = await autocannon({
    url: baseUrl,
    connections,
    // autocannon ends a run on its next sample tick: 50 ms ticks keep a short fixed-amount run's elapsed time exact.
    ...(scenario.amount ? { amount: scenario.amount, sampleInt: 50 } : { duration }),
    headers: { ...headers, ...scenario.headers, ...(put ? { 'content-type': 'application/json' } : {}) },
    requests: [
      {
        ...(put ? { method: 'PUT' } : {}),
        setupRequest: (req) => {
          const i = n++;
          req.path = scenario.path(i);
          if (put) req.body = put(i);
          return req;
        },
      },
    ],
  });
  // A fixed amount finishes within a few seconds: its rate is requests over elapsed time (the
  // per-sample average is not per second there).
  const sent = result['2xx'] + result.non2xx;
  const expected = scenario.expect ? (result.statusCodeStats?.[String(scenario.expect)]?.count ?? 0) : 0;
  const rate = scenario.amount && result.duration > 0 ? sent / result.duration : result.requests.average;
  return {
    scenario: scenario.name,
    connections,
    requestsPerSecond: Math.round(rate * 10) / 10,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    requests: sent,
    seconds: result.duration,
    non2xx: result.non2xx - expected,
    errors: result.errors + result.timeouts,
    bytesPerResponse: sent > 0 ? Math.round((result.throughput.total ?? 0) / sent) : 0,
  };
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** A sequence 0..n-1 in a scrambled but deterministic order (stride coprime with n). */
function scrambled(n: number): (i: number) => number {
  let stride = Math.max(1, Math.floor(n * 0.618));
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  while (gcd(stride, n) !== 1) stride++;
  return (i) => (i * stride) % n;
}

/** What every stage of a run shares. */
interface Bench {
  root: string;
  args: Args;
  db: Awaited<ReturnType<typeof startBenchDatabase>>;
  issuer: BenchIssuer;
  children: ServerProcess[];
  dataDir: string;
}

interface ImportFigures {
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  copyReference?: CopyReference;
  /** The same package into a scratch database without the change feed's triggers (rows/s). */
  withoutEventsRowsPerSecond?: number;
}

interface Loaded {
  tenantId: string;
  deploymentId: string;
  appId: string;
  counts: Record<string, number>;
  generateSeconds: number;
  imported: ImportFigures;
}

/** Migrations, the tenant and its app, the synthetic district through the CSV importer (and COPY's figure beside it). */
async function loadDistrict(b: Bench): Promise<Loaded> {
  log('migrating');
  await runMigrations(b.db.url);
  const rootOrg = 'org-district';
  const { tenantId, deploymentId, appId } = await createTenant(b.db.url, rootOrg);

  log(`generating the synthetic district (scale ${b.args.scale})`);
  const genStart = Date.now();
  const summary = await generateRosterPackage({ out: b.dataDir, scale: b.args.scale, rootOrg });
  const generateSeconds = (Date.now() - genStart) / 1000;
  log(`generated ${summary.rows} rows in ${generateSeconds.toFixed(1)} s: ${JSON.stringify(summary.counts)}`);

  log('importing through the CSV importer');
  const importStart = Date.now();
  // As the imports API and the CLI run it (import-runner.ts): in a worker thread with its own young generation.
  const report = await runImport({
    databaseUrl: b.db.url,
    location: b.dataDir,
    tenantId,
    source: 'bench',
    onProgress: (m) => log(`  ${m}`),
  });
  const importSeconds = (Date.now() - importStart) / 1000;
  if (report.status !== 'succeeded') throw new Error(`import failed: ${JSON.stringify(report.errors.slice(0, 5))}`);
  const importRowsPerSecond = Math.round(report.rows / importSeconds);
  log(`imported ${report.rows} rows in ${importSeconds.toFixed(1)} s = ${importRowsPerSecond} rows/s`);
  let withoutEventsRowsPerSecond: number | undefined;
  if (b.args.copyReference ?? !b.args.only) {
    log('the same package without the change feed (scratch database, capture triggers dropped)');
    withoutEventsRowsPerSecond = await importWithoutEvents(b.db.url, b.dataDir, rootOrg);
    log(
      `  ${withoutEventsRowsPerSecond} rows/s without events: with them ${(importRowsPerSecond / withoutEventsRowsPerSecond).toFixed(2)} x`,
    );
  }
  if (!b.args.keep) rmSync(b.dataDir, { recursive: true, force: true });
  let copyReference: CopyReference | undefined;
  if (b.args.copyReference ?? !b.args.only) {
    log('the same rows through PostgreSQL COPY (reference)');
    copyReference = await measureCopyReference(b.db.url);
    for (const line of describeCopyReference(copyReference)) log(`  ${line}`);
  }
  const imported = {
    rows: report.rows,
    seconds: importSeconds,
    rowsPerSecond: importRowsPerSecond,
    copyReference,
    withoutEventsRowsPerSecond,
  };
  return { tenantId, deploymentId, appId, counts: summary.counts, generateSeconds, imported };
}

/** What the scenarios pick their distinct requests from. */
interface District {
  nUsers: number;
  nClasses: number;
  names: string[];
  stamp: Date;
  /** Ordinal of the first student: a page from there holds rows shaped like a class-shared page (students). */
  firstStudent: number;
  /** One class per connection count: each gets its first result sync at that count. */
  graded: GradedClass[];
}

async function surveyDistrict(url: string, tenantId: string, connectionCounts: number): Promise<District> {
  const probe = new Client({ connectionString: url });
  await probe.connect();
  try {
    const nUsers = Number(
      (await probe.query('SELECT count(*) AS n FROM roster_users WHERE tenant_id = $1', [tenantId])).rows[0].n,
    );
    const nClasses = Number(
      (await probe.query('SELECT count(*) AS n FROM roster_classes WHERE tenant_id = $1', [tenantId])).rows[0].n,
    );
    const names: string[] = (
      await probe.query('SELECT DISTINCT family_name AS f FROM roster_users WHERE tenant_id = $1 ORDER BY 1', [
        tenantId,
      ])
    ).rows.map((r: { f: string }) => r.f);
    const stamp: Date = (
      await probe.query('SELECT max(date_last_modified) AS d FROM roster_users WHERE tenant_id = $1', [tenantId])
    ).rows[0].d;
    const firstStudent = Number(
      (
        await probe.query(`SELECT min(ordinal) AS o FROM roster_users WHERE tenant_id = $1 AND role = 'student'`, [
          tenantId,
        ])
      ).rows[0].o ?? 0,
    );
    const graded = await classesWithStudents(probe, tenantId, connectionCounts);
    return { nUsers, nClasses, names, stamp, firstStudent, graded };
  } finally {
    await probe.end();
  }
}

/** A oneroster service (compiled, as a child process) with `env` over the bench's settings, once ready. */
async function startService(b: Bench, env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const socket = await listeningSocket();
  const child = await startChild(
    b.root,
    'apps/oneroster/src/main',
    {
      ...UNLIMITED_ENV,
      NODE_ENV: 'production',
      LOG_LEVEL: b.args.logLevel,
      DATABASE_URL: b.db.url,
      JWKS_URL: b.issuer.jwksUrl,
      TOKEN_ISSUER: b.issuer.issuer,
      TOKEN_AUDIENCE: b.issuer.audience,
      PUBLIC_BASE_URL: socket.url,
      ROSTER_EVENTS_CURSOR_SECRET: 'bench-roster-events-cursor-secret-of-this-run',
      ...env,
    },
    // Profiling aid: BENCH_SERVICE_NODE_ARGS="--cpu-prof --cpu-prof-dir=<dir>".
    { nodeArgs: (process.env['BENCH_SERVICE_NODE_ARGS'] ?? '').split(' ').filter(Boolean), socket },
  );
  b.children.push(child);
  return child;
}

/** The service (no response cache) and the baseline server, once both answer. */
async function startTargets(
  b: Bench,
  tenantId: string,
): Promise<Pick<Targets, 'serviceUrl' | 'baselineUrl' | 'servicePid' | 'baselinePid'>> {
  // No response cache: the scenarios repeat URLs (users page 1) and must measure the query path.
  const [service, baseline] = await Promise.all([
    startService(b, { ONEROSTER_RESPONSE_CACHE_BYTES: '0' }),
    startChild(
      b.root,
      'bench/oneroster/baseline-server',
      { DATABASE_URL: b.db.url, BASELINE_TENANT: tenantId },
      { readyPath: '/users' },
    ),
  ]);
  b.children.push(baseline);
  return {
    serviceUrl: service.url,
    baselineUrl: baseline.url,
    servicePid: service.child.pid as number,
    baselinePid: baseline.child.pid as number,
  };
}

/** Keys of the groups of twins (`Scenario.twins`). */
const PAGE_1 = 'users page 1';
const STUDENTS_PAGE = 'a page of students';
const CLASS_STUDENTS = 'class students';

const BASELINE_PAGE_1: Scenario = {
  name: 'baseline node:http+pg users page 1',
  target: 'baseline',
  path: () => '/users?offset=0&limit=100',
};

/**
 * The class-shared deployment's twins of users page 1 and class students, each measured in slices
 * alternating with its unshared twin's (targets: >= 0.95 x the unshared figure of the same run).
 */
function sharedScenarios(shared: SharedDeployment, auth: Record<string, string>): Scenario[] {
  const classAt = scrambled(shared.classes.length);
  return [
    {
      name: 'class-shared: users page 1 (limit 100)',
      target: 'service',
      path: () => `${PREFIX}/users?limit=100`,
      headers: auth,
      twins: STUDENTS_PAGE,
    },
    {
      name: 'class-shared: /classes/{id}/students (shared classes)',
      target: 'service',
      twins: CLASS_STUDENTS,
      path: (n) => `${PREFIX}/classes/${shared.classes[classAt(n % shared.classes.length)]}/students`,
      headers: auth,
    },
  ];
}

/** The service's read scenarios, each request distinct where the name says so. */
function readScenarios(d: District): Scenario[] {
  const deepBase = Math.floor((d.nUsers * 0.9) / 100) * 100;
  const deepPages = Math.max(1, Math.min(1000, Math.floor((d.nUsers - deepBase) / 100)));
  const deepPage = scrambled(deepPages);
  const nameAt = scrambled(d.names.length);
  const classAt = scrambled(d.nClasses);
  const since = (n: number) => new Date(d.stamp.getTime() - 1000 * (1 + (n % 3600))).toISOString();
  const q = (filter: string) => encodeURIComponent(filter);
  return [
    { name: 'users page 1 (limit 100)', target: 'service', path: () => `${PREFIX}/users?limit=100`, twins: PAGE_1 },
    // Each OneRoster 1.2 read is measured in slices alternating with its 1.1 twin's (targets: >= 0.95 x the 1.1 figure), so that drift of a shared machine weighs on both alike.
    {
      name: 'v1.2 users page 1 (limit 100)',
      target: 'service',
      path: () => `${V1P2_ROSTERING}/users?limit=100`,
      twins: PAGE_1,
    },
    // The target's reference, in slices beside page 1 (its runs before and after the block stay: p99 and noise).
    { ...BASELINE_PAGE_1, name: `${BASELINE_PAGE_1.name} ${BESIDE_PAGE_1}`, twins: PAGE_1 },
    {
      // Page 1 holds parents (sourcedIds sort par < stf < stu < tch); a class-shared page 1 holds
      // students, larger rows: this page of the first students is its like-for-like twin.
      name: 'users page of students (limit 100)',
      target: 'service',
      path: () => `${PREFIX}/users?limit=100&offset=${d.firstStudent}`,
      twins: STUDENTS_PAGE,
    },
    {
      name: `users offset ${deepBase}+ (distinct)`,
      target: 'service',
      path: (n) => `${PREFIX}/users?limit=100&offset=${deepBase + deepPage(n % deepPages) * 100}`,
    },
    {
      name: "familyName='…' (distinct names)",
      target: 'service',
      path: (n) => {
        const name = d.names[nameAt(n % d.names.length)] as string;
        return `${PREFIX}/users?limit=100&filter=${q(`familyName='${n % 2 ? name.toLowerCase() : name}'`)}`;
      },
    },
    {
      name: "dateLastModified>'…' (distinct, pages 1-20)",
      target: 'service',
      path: (n) => `${PREFIX}/users?limit=100&offset=${(n % 20) * 100}&filter=${q(`dateLastModified>'${since(n)}'`)}`,
    },
    {
      name: '/classes/{id}/students (distinct)',
      target: 'service',
      path: (n) => `${PREFIX}/classes/cls-${pad(classAt(n % d.nClasses) + 1, 7)}/students`,
      twins: CLASS_STUDENTS,
    },
    // Other classes than the 1.1 run's (from the middle of the scrambled order), so neither finds the other's pages cached.
    {
      name: 'v1.2 /classes/{id}/students (distinct)',
      target: 'service',
      twins: CLASS_STUDENTS,
      path: (n) =>
        `${V1P2_ROSTERING}/classes/cls-${pad(classAt((n + Math.floor(d.nClasses / 2)) % d.nClasses) + 1, 7)}/students`,
    },
  ];
}

/** The gradebook scenarios of one connection count: a fresh class synced, then its results replaced and read. */
function gradebookScenarios(cls: GradedClass, synced: GradedClass[]): [Scenario, Scenario, Scenario] {
  return [
    {
      name: `PUT results: class sync, ${RESULTS_PER_CLASS} creates (30 students x 40 line items)`,
      target: 'service',
      amount: RESULTS_PER_CLASS,
      path: (n) => resultPut(PREFIX, cls, n).path,
      put: (n) => resultPut(PREFIX, cls, n).body,
    },
    {
      name: 'PUT results: replace (score changes)',
      target: 'service',
      path: (n) => resultPut(PREFIX, cls, n).path,
      put: (n) => resultPut(PREFIX, cls, n + 1).body,
    },
    {
      name: '/classes/{id}/results pages (limit 100)',
      target: 'service',
      path: (n) => resultsPage(PREFIX, synced.length > 0 ? synced : [cls], n),
    },
  ];
}

interface Targets {
  serviceUrl: string;
  baselineUrl: string;
  /** Process ids of the service and the baseline server: their CPU time per request is reported. */
  servicePid: number;
  baselinePid: number;
  auth: Record<string, string>;
}

/** Sanity: every read scenario answers 200 before it is measured (the PUTs are checked by their line items and non-2xx counts). */
async function checkScenariosAnswer(t: Targets, scenarios: Scenario[]): Promise<void> {
  for (const s of scenarios) {
    const res = await fetch(`${s.target === 'service' ? t.serviceUrl : t.baselineUrl}${s.path(1)}`, {
      headers: s.target === 'service' ? { ...t.auth, ...s.headers } : {},
    });
    if (res.status !== 200) throw new Error(`${s.name}: HTTP ${res.status} ${await res.text()}`);
  }
}

function logResult(label: string, r: RunResult): void {
  const sliced = r.slices ? ` (${r.slices} slices alternating with its twins)` : '';
  log(
    `${label}${sliced} @${r.connections}: ${r.requestsPerSecond} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, server CPU ${r.serverCpuUs ?? '?'} µs/req, postgres CPU ${r.databaseCpuUs ?? '?'} µs/req, ${((r.bytesPerResponse ?? 0) / 1024).toFixed(1)} KiB/response${r.non2xx || r.errors ? `, ${r.non2xx} non-2xx, ${r.errors} errors` : ''}${r.autovacuum ? ' (an autovacuum worker ran beside it)' : ''}`,
  );
}

/**
 * The CPU clock of the bench's embedded PostgreSQL (found through its checkpointer), NaN for a
 * `DATABASE_URL` server, whose pids may not be this machine's: where a read's cost lands besides
 * the server answering it.
 */
async function databaseCpuClock(probe: Client, embedded: boolean): Promise<() => number> {
  const { rows } = embedded
    ? await probe.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'`)
    : { rows: [] };
  const checkpointer = rows[0]?.pid;
  return () => (checkpointer === undefined ? Number.NaN : postgresCpuMs(checkpointer));
}

/** Every scenario at every connection count, the baseline before and after each count's scenarios. */
async function measureScenarios(
  args: Args,
  t: Targets,
  scenarios: Scenario[],
  graded: GradedClass[],
  database: BenchDatabase,
): Promise<RunResult[]> {
  const results: RunResult[] = [];
  const synced: GradedClass[] = [];
  // `=name`: that scenario alone (a profile of one read whose name is part of another's).
  const selected = (s: Scenario) =>
    !args.only || (args.only.startsWith('=') ? s.name === args.only.slice(1) : s.name.includes(args.only));
  // Says which figures had an autovacuum worker running at their start or end (it takes a core from the scenario).
  const probe = new Client({ connectionString: database.url, application_name: 'bench-autovacuum-probe' });
  await probe.connect();
  const databaseCpuMs = await databaseCpuClock(probe, database.embedded);
  try {
    for (const [i, connections] of args.connections.entries()) {
      const target = (s: Scenario) =>
        s.target === 'service'
          ? { url: t.serviceUrl, headers: t.auth, pid: t.servicePid }
          : { url: t.baselineUrl, headers: {}, pid: t.baselinePid };
      const warm = (s: Scenario) => run(target(s).url, s, connections, args.warmup, target(s).headers);
      const slice = async (s: Scenario, seconds: number): Promise<Slice> => {
        const { url, headers, pid } = target(s);
        const cpuBefore = cpuMsOf(pid);
        const databaseBefore = databaseCpuMs();
        const vacuumBefore = await autovacuumWorkers(probe);
        const result = await run(url, s, connections, seconds, headers);
        const serverCpuMs = cpuMsOf(pid) - cpuBefore;
        const autovacuum = vacuumBefore + (await autovacuumWorkers(probe)) > 0;
        return { result, serverCpuMs, databaseCpuMs: databaseCpuMs() - databaseBefore, autovacuum };
      };
      const keep = (r: RunResult) => {
        results.push(r);
        logResult(r.scenario, r);
      };
      const measure = async (s: Scenario, label = s.name) => {
        await warm(s);
        keep(mergeSlices([await slice({ ...s, name: label }, args.duration)]));
      };
      // Twins: each warmed up, then measured in slices taking turns (slices.ts).
      const measureTwins = async (twins: Scenario[]) => {
        for (const s of twins) await warm(s);
        const slices = twins.map((): Slice[] => []);
        for (let k = 0; k < args.slices; k++)
          for (const [j, s] of twins.entries()) slices[j]!.push(await slice(s, args.duration / args.slices));
        for (const each of slices) keep(mergeSlices(each));
      };
      await measure(BASELINE_PAGE_1, `${BASELINE_PAGE_1.name} (before)`);
      for (const group of inRunOrder(scenarios.filter(selected))) {
        if (group.length > 1) await measureTwins(group);
        else await measure(group[0]!);
      }
      const [sync, replace, reads] = gradebookScenarios(graded[i] as GradedClass, synced);
      if ([sync, replace, reads].some(selected)) {
        // The first sync creates the results: no warm-up, a fixed amount.
        const first = await run(t.serviceUrl, sync, connections, args.duration, t.auth);
        results.push(first);
        logResult(sync.name, first);
        synced.push(graded[i] as GradedClass);
        await measure(replace);
        await measure(reads);
      }
      await measure(BASELINE_PAGE_1, `${BASELINE_PAGE_1.name} (after)`);
    }
  } finally {
    await probe.end();
  }
  return results;
}

/** Partners' syncs of the users collection against a second instance with the response cache on. */
async function measureSyncs(b: Bench, loaded: Loaded, t: Targets): Promise<SyncResult[]> {
  // Large enough for ten partners' copies of the users collection up to scale ~0.2 (BENCH_RESPONSE_CACHE_BYTES).
  const cached = await startService(b, {
    ONEROSTER_RESPONSE_CACHE_BYTES: process.env['BENCH_RESPONSE_CACHE_BYTES'] ?? String(1024 ** 3),
  });
  const cachedUrl = cached.url;
  const partnerScopes = [`${SCOPE_BASE}/roster.readonly`];
  const partners = await createPartners(b.db.url, loaded.tenantId, partnerScopes, SYNC_PARTNERS);
  const total = Number(
    (await fetch(`${cachedUrl}${PREFIX}/users?limit=1`, { headers: t.auth })).headers.get('x-total-count'),
  );
  const tokens = () => partnerHeaders(b.issuer, loaded.tenantId, partnerScopes, partners);
  return runSyncs({
    cachedUrl,
    baselineUrl: t.baselineUrl,
    usersPath: `${PREFIX}/users`,
    total,
    first: await tokens(),
    second: await tokens(),
    log,
  });
}

/** The services up, the app's token minted, line items created for the graded classes. */
async function prepareTargets(b: Bench, loaded: Loaded, graded: GradedClass[]): Promise<Targets> {
  const started = await startTargets(b, loaded.tenantId);
  const { serviceUrl } = started;
  const scopes = [
    ...['roster.readonly', 'gradebook.readonly', 'gradebook.createput'].map((s) => `${SCOPE_BASE}/${s}`),
    `${V1P2_SCOPE_BASE}/roster.readonly`,
  ];
  // `sub` is the app: it owns what it writes.
  const token = await b.issuer.mint({
    scopes,
    tenantId: loaded.tenantId,
    deploymentId: loaded.deploymentId,
    sub: loaded.appId,
  });
  const auth = { authorization: `Bearer ${token}` };
  log(`creating ${graded.length} x 40 line items`);
  for (const cls of graded) await createLineItems(serviceUrl, PREFIX, auth, cls);
  return { ...started, auth };
}

/** What sharing costs besides the reads: the first read after an import computes the deployment's visibility. */
interface SharingFigures {
  sharedClasses: number;
  sharedUsers: number;
  firstReadSeconds: number;
  secondReadSeconds: number;
}

/** The class-shared deployment, its token, and the time its first read takes (the visibility computed once). */
async function prepareSharing(
  b: Bench,
  loaded: Loaded,
  t: Targets,
  d: District,
): Promise<{ deployment: SharedDeployment; auth: Record<string, string>; figures: SharingFigures }> {
  const scopes = [`${SCOPE_BASE}/roster.readonly`];
  const deployment = await deployClassShared(b.db.url, loaded.tenantId, scopes, d.nClasses, (n) => pad(n, 7));
  const token = await b.issuer.mint({
    scopes,
    tenantId: loaded.tenantId,
    deploymentId: deployment.deploymentId,
    sub: deployment.appId,
  });
  const auth = { authorization: `Bearer ${token}` };
  const timed = async () => {
    const started = Date.now();
    const res = await fetch(`${t.serviceUrl}${PREFIX}/users?limit=1`, { headers: auth });
    if (res.status !== 200) throw new Error(`class-shared users: HTTP ${res.status} ${await res.text()}`);
    return { seconds: (Date.now() - started) / 1000, total: Number(res.headers.get('x-total-count')) };
  };
  const first = await timed();
  const second = await timed();
  const figures = {
    sharedClasses: SHARED_CLASSES,
    sharedUsers: first.total,
    firstReadSeconds: first.seconds,
    secondReadSeconds: second.seconds,
  };
  log(
    `class-shared deployment: ${figures.sharedClasses} classes, ${figures.sharedUsers} users; first read (visibility computed) ${figures.firstReadSeconds.toFixed(3)} s, next ${figures.secondReadSeconds.toFixed(3)} s`,
  );
  return { deployment, auth, figures };
}

/** Events a feed read walks at most (a full-size import logs about 3,000,000). */
const FEED_READ_EVENTS = 200_000;

/** The change feed read by the bench's deployment from the beginning: events/s. */
async function measureFeed(b: Bench, loaded: Loaded, t: Targets): Promise<{ events: number; perSecond: number }> {
  const scope = 'https://api.edu.example/scope/roster/events.readonly';
  const c = new Client({ connectionString: b.db.url });
  await c.connect();
  await c.query('UPDATE tenant_app_deployments SET scope = array_append(scope, $2) WHERE id = $1', [
    loaded.deploymentId,
    scope,
  ]);
  await c.end();
  const token = await b.issuer.mint({
    scopes: [scope],
    tenantId: loaded.tenantId,
    deploymentId: loaded.deploymentId,
    sub: loaded.appId,
  });
  const figures = await readFeed(t.serviceUrl, { authorization: `Bearer ${token}` }, FEED_READ_EVENTS);
  log(`change feed: ${figures.events} events read at ${figures.perSecond} events/s`);
  return figures;
}

/** Prints the table and writes the run's JSON to bench/results/. */
function report(
  b: Bench,
  loaded: Loaded & { sharing: SharingFigures; feed?: { events: number; perSecond: number } },
  results: RunResult[],
  syncs: SyncResult[],
  started: number,
): void {
  const targets = evaluateTargets(results, loaded.imported, loaded.feed);
  const output = {
    when: new Date().toISOString(),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, node: process.version },
    database: b.db.embedded ? 'embedded PostgreSQL (non-durable: fsync off)' : 'DATABASE_URL',
    scale: b.args.scale,
    counts: loaded.counts,
    generateSeconds: loaded.generateSeconds,
    import: loaded.imported,
    sharing: loaded.sharing,
    feed: loaded.feed,
    durationSeconds: b.args.duration,
    serviceLogLevel: b.args.logLevel,
    results,
    syncs,
    targets,
    totalSeconds: (Date.now() - started) / 1000,
  };
  printTable(output.results, output.import, targets, loaded.counts);
  if (syncs.length > 0) process.stdout.write(`${syncLines(syncs).join('\n')}\n`);
  const outDir = path.join(b.root, 'bench', 'results');
  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `oneroster-${output.when.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(output, null, 2)}\n`);
  log(`results written to ${path.relative(b.root, file)}`);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const root = projectRoot();
  const started = Date.now();
  const db = await startBenchDatabase(root);
  const issuer = await new BenchIssuer().start();
  const b: Bench = {
    root,
    args,
    db,
    issuer,
    children: [],
    dataDir: mkdtempSync(path.join(tmpdir(), 'edu-bench-roster-')),
  };
  try {
    const loaded = await loadDistrict(b);
    const district = await surveyDistrict(db.url, loaded.tenantId, args.connections.length);
    const targets = await prepareTargets(b, loaded, district.graded);
    const scenarios = readScenarios(district);
    const shared = await prepareSharing(b, loaded, targets, district);
    const [sharedPage1, sharedStudents] = sharedScenarios(shared.deployment, shared.auth) as [Scenario, Scenario];
    scenarios.splice(scenarios.findIndex((s) => s.name.startsWith('users page of students')) + 1, 0, sharedPage1);
    scenarios.splice(scenarios.findIndex((s) => s.name.startsWith('/classes/{id}/students')) + 1, 0, sharedStudents);
    await checkScenariosAnswer(targets, [BASELINE_PAGE_1, ...scenarios]);
    scenarios.splice(1, 0, await revalidationScenario(targets.serviceUrl, `${PREFIX}/users?limit=100`, targets.auth));
    await settleDatabase(db.url, log);
    const results = await measureScenarios(args, targets, scenarios, district.graded, db);
    const feed = !args.only || 'feed'.includes(args.only) ? await measureFeed(b, loaded, targets) : undefined;
    const syncs = !args.only || 'syncs'.includes(args.only) ? await measureSyncs(b, loaded, targets) : [];
    report(b, { ...loaded, sharing: shared.figures, feed }, results, syncs, started);
  } finally {
    for (const child of b.children) await child.stop();
    await issuer.stop();
    if (!args.keep) rmSync(b.dataDir, { recursive: true, force: true });
    await db.stop();
  }
}

function printTable(
  results: RunResult[],
  imp: { rows: number; seconds: number; rowsPerSecond: number; copyReference?: CopyReference },
  checks: TargetCheck[],
  counts: Record<string, number>,
): void {
  const lines: string[] = [];
  lines.push('');
  lines.push(
    `data: ${Object.entries(counts)
      .map(([k, v]) => `${k} ${v.toLocaleString('en')}`)
      .join(', ')}`,
  );
  lines.push(
    `import: ${imp.rows.toLocaleString('en')} rows in ${imp.seconds.toFixed(1)} s = ${imp.rowsPerSecond.toLocaleString('en')} rows/s`,
  );
  if (imp.copyReference) for (const line of describeCopyReference(imp.copyReference)) lines.push(`  ${line}`);
  lines.push('');
  const head = [
    'run',
    'conns',
    'req/s',
    'p50 ms',
    'p90 ms',
    'p99 ms',
    'p99/base',
    'max ms',
    'non-2xx',
    'server CPU µs/req',
    'postgres CPU µs/req',
  ];
  const p99Ratio = (r: RunResult) => {
    const base = baselineP99(results, r.connections);
    return base ? `${(r.p99 / base).toFixed(2)} x` : '';
  };
  const rows = results.map((r) => [
    r.scenario,
    String(r.connections),
    r.requestsPerSecond.toFixed(1),
    String(r.p50),
    String(r.p90),
    String(r.p99),
    p99Ratio(r),
    String(r.max),
    String(r.non2xx + r.errors),
    r.serverCpuUs === undefined ? '' : String(r.serverCpuUs),
    r.databaseCpuUs === undefined ? '' : String(r.databaseCpuUs),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
  const fmt = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join('  ');
  lines.push(fmt(head));
  lines.push(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) lines.push(fmt(r));
  lines.push('');
  lines.push('targets:');
  for (const c of checks) lines.push(`  ${c.met ? 'met ' : 'MISS'}  ${c.target}: ${c.measured}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error('[bench] failed:', err);
    process.exit(1);
  },
);
