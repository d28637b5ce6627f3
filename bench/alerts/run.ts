/**
 * `npm run bench:alerts -- [--count 100000] [--full 500] [--full-bytes 1200000] [--full-webhooks 1] [--webhooks 4] [--kill-count 20000]`
 *
 * Webhook delivery end to end on one machine: PostgreSQL, Redis (append-only file, fsync every
 * second), the identity, alerts and webhook-dispatcher services as compiled child processes, and
 * a receiver process that verifies every JWT against the identity JWKS. Scenarios:
 *  1. burst: `--count` notification-only deliveries (messages × `--webhooks` partner apps, each
 *     with one webhook), submitted through `POST /v2/alerts/messages` in batches of 1,000;
 *  2. full payload: `--full` messages of about `--full-bytes` each to `--full-webhooks` full-payload webhooks;
 *  3. crash: a burst of `--kill-count`, the dispatcher SIGKILLed mid-way and restarted at once.
 * Reports deliveries/s, enqueue-to-first-attempt p50/p99 (delivery stored → first attempt
 * started), duplicates and lost deliveries beside the targets, and writes JSON to bench/results/.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import * as path from 'node:path';
import { Queue } from 'bullmq';
import { Client } from 'pg';
import { parseCommandLine } from '@edu/config';
import { AppEntity, createDataSource, DeploymentEntity, runMigrations, TenantEntity } from '@edu/persistence';
import { QUEUES, redisOptionsFromUrl } from '@edu/queue';
import { generateClientId, generateClientSecret, hashClientSecret } from '@edu/signing';
import { cpuMsOf, postgresCpuMs } from '../common/cpu';
import { startBenchDatabase } from '../common/database';
import {
  listeningSocket,
  log,
  projectRoot,
  quantile,
  startChild,
  UNLIMITED_ENV,
  type ServerProcess,
} from '../common/processes';
import { benchMessage, largeMessage } from './messages';

const SCHEMA_BASE = 'https://api.edu.example';
const ALERT_SCOPES = [`${SCHEMA_BASE}/scope/alerts/messages.read`, `${SCHEMA_BASE}/scope/alerts/webhooks.write`];
const OPERATOR_SECRET = `bench-operator-${randomUUID()}`;
const BATCH = 1_000;
/** The dispatcher's WEBHOOK_CONCURRENCY default: at most this many deliveries per process are on the wire when it dies. */
const DEFAULT_CONCURRENCY = 100;

interface Args {
  /** Store the whole burst before the dispatcher starts (isolates the drain from submission). */
  submitFirst: number;
  /** Write V8 CPU profiles of the alerts and dispatcher processes (bench/results/). */
  profile: number;
  /** Dispatcher processes (replicas) to run. */
  workers: number;
  count: number;
  full: number;
  fullBytes: number;
  /** Full-payload webhooks (partner apps) each full message goes to. */
  fullWebhooks: number;
  webhooks: number;
  killCount: number;
  parallel: number;
}

/** Each option's flag: every one takes a whole number. */
const FLAGS: Record<keyof Args, string> = {
  count: 'count',
  full: 'full',
  fullBytes: 'full-bytes',
  fullWebhooks: 'full-webhooks',
  webhooks: 'webhooks',
  killCount: 'kill-count',
  parallel: 'parallel',
  submitFirst: 'submit-first',
  profile: 'profile',
  workers: 'workers',
};

function parseArgs(argv: string[]): Args {
  const args: Args = {
    submitFirst: 0,
    profile: 0,
    workers: 2,
    count: 100_000,
    full: 500,
    fullBytes: 1_200_000,
    fullWebhooks: 1,
    webhooks: 4,
    killCount: 20_000,
    parallel: 2,
  };
  const options = Object.fromEntries(Object.values(FLAGS).map((flag) => [flag, { type: 'string' as const }]));
  const parsed = parseCommandLine({ args: argv, options });
  if (typeof parsed === 'string') throw new Error(`${parsed} (see bench/alerts/run.ts)`);
  for (const [key, flag] of Object.entries(FLAGS) as [keyof Args, string][]) {
    const value = parsed.values[flag];
    if (value === undefined) continue;
    const n = Number(value);
    if (typeof value !== 'string' || !Number.isInteger(n) || n < 0) throw new Error(`--${flag} needs a whole number`);
    args[key] = n;
  }
  return args;
}

interface Stack {
  db: string;
  redis: string;
  identity: string;
  alerts: string;
  receiver: string;
  /** Process ids of the receiver and, when PostgreSQL runs on this machine, of its checkpointer. */
  pids: { receiver: number; postgresChild: number | undefined };
  dispatcherEnv: NodeJS.ProcessEnv;
  /** Starts the dispatcher replicas; returns them. */
  startDispatcher(): Promise<ServerProcess[]>;
  stop(): Promise<void>;
}

/** Redis for the run: REDIS_URL when set, else a redis-server of its own (removed by `stops`). */
async function benchRedis(root: string, stops: (() => Promise<void>)[]): Promise<string> {
  const given = process.env['REDIS_URL'];
  if (given) return given;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startRedis } = require(path.join(root, 'tools', 'infra', 'redis.js')) as {
    startRedis(o: { dataDir?: string }): Promise<{ url: string; stop(): Promise<void> }>;
  };
  const redisDir = mkdtempSync(path.join(tmpdir(), 'edu-bench-redis-'));
  log('starting redis-server (appendonly yes, appendfsync everysec)');
  const r = await startRedis({ dataDir: redisDir });
  stops.push(async () => (await r.stop(), rmSync(redisDir, { recursive: true, force: true })));
  return r.url;
}

/** The dispatcher replicas (`workers` of them), started together, each once ready, and stopped together. */
function dispatcherReplicas(root: string, env: NodeJS.ProcessEnv, workers: number, profile: string[]) {
  let running: ServerProcess[] = [];
  return {
    async start(): Promise<ServerProcess[]> {
      running = await Promise.all(
        Array.from({ length: Math.max(1, workers) }, async () => {
          return startChild(root, 'apps/webhook-dispatcher/src/main', env, { nodeArgs: profile });
        }),
      );
      return running;
    },
    async stop(): Promise<void> {
      await Promise.all(running.map((d) => d.stop()));
      running = [];
    },
  };
}

async function startStack(root: string, args: Args): Promise<Stack> {
  const stops: (() => Promise<void>)[] = [];
  const database = await startBenchDatabase(root);
  stops.push(() => database.stop());
  const db = database.url;
  await runMigrations(db);
  const redis = await benchRedis(root, stops);
  const profile = args.profile ? ['-r', path.join(root, 'bench', 'common', 'cpu-profile.js')] : [];
  const idSocket = await listeningSocket();
  const common = {
    ...UNLIMITED_ENV,
    DATABASE_URL: db,
    REDIS_URL: redis,
    QUEUE_PREFIX: `{bench-${randomUUID().slice(0, 6)}}`,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
    HOST: '127.0.0.1',
    TOKEN_ISSUER: idSocket.url,
  };
  const dev = { WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_ALLOWED_PORTS: '*' };
  const identity = await startChild(
    root,
    'apps/identity/src/main',
    { ...common, OPERATOR_CLIENT_SECRET: OPERATOR_SECRET },
    { socket: idSocket },
  );
  const jwks = `${identity.url}/.well-known/jwks.json`;
  await fetch(jwks); // makes sure the webhook key exists before the dispatcher signs
  const [alerts, receiver] = await Promise.all([
    startChild(root, 'apps/alerts/src/main', { ...common, ...dev, JWKS_URL: jwks }, { nodeArgs: profile }),
    startChild(root, 'bench/alerts/receiver', { JWKS_URL: jwks }, { nodeArgs: profile, readyPath: '/stats' }),
  ]);
  const dispatcherEnv = { ...common, ...dev, ALERTS_PUBLIC_BASE_URL: alerts.url };
  const dispatchers = dispatcherReplicas(root, { ...dispatcherEnv }, args.workers, profile);
  return {
    db,
    redis,
    identity: identity.url,
    alerts: alerts.url,
    receiver: receiver.url,
    pids: {
      receiver: receiver.child.pid as number,
      postgresChild: database.embedded
        ? (await sql<{ pid: number }>(db, `SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'`))[0]
            ?.pid
        : undefined,
    },
    dispatcherEnv,
    startDispatcher: () => dispatchers.start(),
    async stop() {
      await dispatchers.stop();
      for (const child of [alerts, receiver, identity]) await child.stop();
      for (const stop of stops.reverse()) await stop();
    },
  };
}

/** A tenant with `webhooks` partner apps deployed with the alerts scopes; returns their ids. */
async function createTenant(db: string, apps: number): Promise<{ tenantId: string; appIds: string[] }> {
  const ds = createDataSource({ url: db, poolSize: 1, applicationName: 'bench-setup' });
  await ds.initialize();
  try {
    const tenant = await ds.getRepository(TenantEntity).save({
      name: 'Bench School',
      customerId: Math.floor(Math.random() * 1e9),
      govtId: 'BENCH',
      regionId: 'AU-NSW',
      licences: ['data-operations'],
      rootOrgSourcedId: null,
    });
    const appIds: string[] = [];
    for (let i = 0; i < apps; i++) {
      const app = await ds.getRepository(AppEntity).save({
        name: `Partner ${i}`,
        ownerType: 'tenant',
        ownerId: tenant.id,
        authType: 'oauth2',
        oauth2: { redirect_uris: ['https://partner.example/cb'] },
        saml: null,
        clientId: generateClientId('app'),
        clientSecretHash: hashClientSecret(generateClientSecret()),
      } as Partial<AppEntity>);
      await ds.getRepository(DeploymentEntity).save({
        appId: app.id,
        tenantId: tenant.id,
        scope: ALERT_SCOPES,
        clientId: null,
        clientSecretHash: null,
        settings: {},
      });
      appIds.push(app.id);
    }
    return { tenantId: tenant.id, appIds };
  } finally {
    await ds.destroy();
  }
}

async function sql<T>(db: string, text: string, params: unknown[] = []): Promise<T[]> {
  const c = new Client({ connectionString: db });
  await c.connect();
  try {
    return (await c.query(text, params)).rows as T[];
  } finally {
    await c.end();
  }
}

/**
 * Lets the database settle between scenarios, as pgbench vacuums before a run: the dead row
 * versions of the previous scenario's deliveries are vacuumed and dirty pages written now, not by
 * autovacuum and the checkpointer in the middle of the next measurement.
 */
async function settled(stack: Stack): Promise<void> {
  await sql(stack.db, 'VACUUM (ANALYZE)');
  await sql(stack.db, 'CHECKPOINT');
}

/** Registers one webhook per app (the receiver path names the scenario); returns their ids. */
async function registerWebhooks(
  db: string,
  appIds: string[],
  receiver: string,
  scenario: string,
  type: 'notification-only' | 'full-payload',
): Promise<string[]> {
  const rows = await sql<{ id: string }>(
    db,
    `INSERT INTO webhooks (app_id, endpoint, type) SELECT a, $2, $3 FROM unnest($1::uuid[]) AS a RETURNING id`,
    [appIds, `${receiver}/${scenario}`, type],
  );
  return rows.map((r) => r.id);
}

async function operatorToken(identity: string): Promise<string> {
  const res = await fetch(`${identity}/oauth/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`operator:${OPERATOR_SECRET}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  if (res.status !== 200) throw new Error(`operator token: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Submits `total` messages from `make` in batches, `parallel` requests at a time. */
async function submit(
  stack: Stack,
  token: string,
  tenantId: string,
  total: number,
  batchSize: number,
  parallel: number,
  make: () => Record<string, unknown>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const n = Math.min(batchSize, total - next);
      next += n;
      const res = await fetch(`${stack.alerts}/v2/alerts/messages`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ tenant_id: tenantId, messages: Array.from({ length: n }, make) }),
      });
      if (res.status !== 201) throw new Error(`submission answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}

/** CPU time so far (ms) of the dispatcher replicas together, the receiver and PostgreSQL (NaN when it runs elsewhere). */
function cpuNow(
  stack: Stack,
  dispatchers: ServerProcess[],
): { dispatchers: number; receiver: number; postgres: number } {
  const backend = stack.pids.postgresChild;
  return {
    dispatchers: dispatchers.reduce((ms, d) => ms + cpuMsOf(d.child.pid as number), 0),
    receiver: cpuMsOf(stack.pids.receiver),
    postgres: backend === undefined ? Number.NaN : postgresCpuMs(backend),
  };
}

async function untilFinished(db: string, webhookIds: string[], expected: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await sql<{ done: number }>(
      db,
      `SELECT count(*)::int AS done FROM webhook_deliveries WHERE webhook_id = ANY($1::uuid[]) AND status IN ('delivered', 'undeliverable', 'cancelled')`,
      [webhookIds],
    );
    if (row.done >= expected || Date.now() > deadline) return row.done;
    await new Promise((r) => setTimeout(r, 500));
  }
}

interface ScenarioResult {
  scenario: string;
  deliveries: number;
  delivered: number;
  lost: number;
  duplicates: number;
  invalidSignatures: number;
  seconds: number;
  perSecond: number;
  firstAttemptP50Ms: number;
  firstAttemptP99Ms: number;
  /** Attempt duration (connect, send, answer) p50 / p99. */
  attemptP50Ms: number;
  attemptP99Ms: number;
  extra?: Record<string, number>;
}

async function measure(
  stack: Stack,
  scenario: string,
  webhookIds: string[],
  startedAt: number,
): Promise<ScenarioResult> {
  const rows = await sql<{ status: string; lag: number; finished: number }>(
    stack.db,
    `SELECT status, extract(epoch FROM first_attempt_at - created_at) * 1000 AS lag, extract(epoch FROM finished_at) * 1000 AS finished
       FROM webhook_deliveries WHERE webhook_id = ANY($1::uuid[])`,
    [webhookIds],
  );
  const attempts = await sql<{ ms: number }>(
    stack.db,
    `SELECT a.duration_ms AS ms FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.webhook_id = ANY($1::uuid[])`,
    [webhookIds],
  );
  const stats = (await (await fetch(`${stack.receiver}/stats?path=/${scenario}`)).json()) as {
    received: number;
    distinct: number;
    invalid: number;
  };
  // Read once: the receiver lets go of the scenario's delivery ids, which the next scenario's
  // collections would otherwise have to step over.
  await fetch(`${stack.receiver}/stats?path=/${scenario}`, { method: 'DELETE' });
  const delivered = rows.filter((r) => r.status === 'delivered');
  const lastFinished = Math.max(...delivered.map((r) => Number(r.finished)));
  const seconds = (lastFinished - startedAt) / 1000;
  const lags = rows.filter((r) => r.lag !== null).map((r) => Number(r.lag));
  return {
    scenario,
    deliveries: rows.length,
    delivered: delivered.length,
    lost: rows.length - stats.distinct,
    duplicates: stats.received - stats.distinct,
    invalidSignatures: stats.invalid,
    seconds: Math.round(seconds * 10) / 10,
    perSecond: Math.round(delivered.length / seconds),
    firstAttemptP50Ms: Math.round(quantile(lags, 0.5)),
    firstAttemptP99Ms: Math.round(quantile(lags, 0.99)),
    attemptP50Ms: quantile(
      attempts.map((a) => a.ms),
      0.5,
    ),
    attemptP99Ms: quantile(
      attempts.map((a) => a.ms),
      0.99,
    ),
  };
}

/** What the scenarios share: the stack, the options, the operator's token and the dispatcher replicas running. */
interface Run {
  readonly stack: Stack;
  readonly args: Args;
  readonly token: string;
  dispatcher: ServerProcess[] | undefined;
}

/** Notification-only deliveries submitted in batches while the dispatcher runs (or before, with --submit-first). */
async function runBurst(run: Run): Promise<ScenarioResult> {
  const { stack, args, token } = run;
  const { tenantId, appIds } = await createTenant(stack.db, args.webhooks);
  const hooks = await registerWebhooks(stack.db, appIds, stack.receiver, 'burst', 'notification-only');
  const messages = Math.ceil(args.count / hooks.length);
  log(
    `burst: ${messages} messages x ${hooks.length} webhooks = ${messages * hooks.length} notification-only deliveries`,
  );
  const started = Date.now();
  await submit(stack, token, tenantId, messages, BATCH, args.parallel, () => benchMessage());
  const submitted = Date.now();
  log(`burst: submitted in ${((submitted - started) / 1000).toFixed(1)} s`);
  run.dispatcher ??= await stack.startDispatcher();
  const drainFrom = args.submitFirst ? Date.now() : started;
  await untilFinished(stack.db, hooks, messages * hooks.length, 600_000);
  return {
    ...(await measure(stack, 'burst', hooks, drainFrom)),
    extra: { submitSeconds: Math.round((submitted - started) / 100) / 10 },
  };
}

/**
 * The delivery queue held still while messages are stored: BullMQ's pause (workers take no job,
 * new jobs wait in the paused list), so the dispatcher keeps running, warm, and drains them on
 * `resume`.
 */
async function pausedDeliveryQueue(stack: Stack): Promise<{ resume(): Promise<void> }> {
  const queue = new Queue(QUEUES.webhookDeliveries, {
    connection: redisOptionsFromUrl(stack.redis),
    prefix: stack.dispatcherEnv['QUEUE_PREFIX'],
  });
  await queue.pause();
  return { resume: async () => (await queue.resume(), await queue.close()) };
}

/** Full-payload messages submitted to fresh webhooks of a new tenant, delivered to the receiver's `path`. */
async function fullPayloadWebhooks(run: Run, path: string, messages: number) {
  const { stack, args, token } = run;
  const { tenantId, appIds } = await createTenant(stack.db, Math.max(1, args.fullWebhooks));
  const hooks = await registerWebhooks(stack.db, appIds, stack.receiver, path, 'full-payload');
  const submitAll = () =>
    submit(stack, token, tenantId, messages, 10, args.parallel, () => ({ ...largeMessage(args.fullBytes) }));
  return { hooks, deliveries: messages * hooks.length, submit: submitAll };
}

/**
 * Full payloads through a running dispatcher, as in production: a warm-up of a tenth of the
 * messages (at least 10) is delivered first, then the measured messages are stored with the
 * queue paused and released at once, so the rate is the dispatcher's, neither the pace of
 * submitting hundreds of megabytes through the API nor a freshly started process's.
 */
async function runFull(run: Run): Promise<ScenarioResult> {
  const { stack, args } = run;
  const dispatcher = (run.dispatcher ??= await stack.startDispatcher());
  const warmUp = await fullPayloadWebhooks(run, 'full-warmup', Math.max(10, Math.round(args.full / 10)));
  await warmUp.submit();
  await untilFinished(stack.db, warmUp.hooks, warmUp.deliveries, 600_000);
  const measured = await fullPayloadWebhooks(run, 'full', args.full);
  log(
    `full payload: ${args.full} messages of ${JSON.stringify(largeMessage(args.fullBytes)).length} bytes of JSON x ${measured.hooks.length} webhooks`,
  );
  const queue = await pausedDeliveryQueue(stack);
  const started = Date.now();
  let submitted: number;
  let cpu0: ReturnType<typeof cpuNow>;
  try {
    await measured.submit();
    submitted = Date.now();
    cpu0 = cpuNow(stack, dispatcher);
  } finally {
    // Also when the submission fails: a paused queue (and its open connection) must not outlive it.
    await queue.resume();
  }
  await untilFinished(stack.db, measured.hooks, measured.deliveries, 600_000);
  const cpu = cpuNow(stack, dispatcher);
  // Dispatch rate: from the first attempt to the last delivery.
  const [first] = await sql<{ at: number }>(
    stack.db,
    `SELECT extract(epoch FROM min(a.started_at)) * 1000 AS at FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.webhook_id = ANY($1::uuid[])`,
    [measured.hooks],
  );
  const r = await measure(stack, 'full', measured.hooks, Number(first.at));
  const [size] = await sql<{ bytes: number }>(
    stack.db,
    `SELECT avg(a.request_bytes)::int AS bytes FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.webhook_id = ANY($1::uuid[])`,
    [measured.hooks],
  );
  const perDelivery = (k: keyof typeof cpu) => Math.round(((cpu[k] - cpu0[k]) / measured.deliveries) * 10) / 10;
  const cpuMs = {
    dispatcherCpuMs: perDelivery('dispatchers'),
    receiverCpuMs: perDelivery('receiver'),
    postgresCpuMs: perDelivery('postgres'),
  };
  return {
    ...r,
    extra: { submitSeconds: Math.round((submitted - started) / 100) / 10, tokenBytes: size.bytes, ...cpuMs },
  };
}

/** A burst during which the dispatcher is SIGKILLed once a third has arrived, and restarted at once. */
async function runCrash(run: Run): Promise<ScenarioResult> {
  const { stack, args, token } = run;
  const { tenantId, appIds } = await createTenant(stack.db, args.webhooks);
  const hooks = await registerWebhooks(stack.db, appIds, stack.receiver, 'crash', 'notification-only');
  const messages = Math.ceil(args.killCount / hooks.length);
  const started = Date.now();
  await submit(stack, token, tenantId, messages, BATCH, args.parallel, () => benchMessage());
  for (;;) {
    const s = (await (await fetch(`${stack.receiver}/stats?path=/crash`)).json()) as { received: number };
    if (s.received >= (messages * hooks.length) / 3) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const before = await sql<{ id: string }>(
    stack.db,
    `SELECT id FROM webhook_deliveries WHERE webhook_id = ANY($1::uuid[]) AND status <> 'delivered'`,
    [hooks],
  );
  run.dispatcher?.forEach((d) => void d.stop('SIGKILL'));
  const killedAt = Date.now();
  log('crash: dispatcher SIGKILLed; restarting it');
  run.dispatcher = await stack.startDispatcher();
  const restartedAt = Date.now();
  // "Resumed" = the deliveries in flight when it died (locked by the dead worker) are delivered.
  const stalled = await sql<{ id: string }>(
    stack.db,
    `SELECT id FROM webhook_deliveries WHERE id = ANY($1::uuid[]) AND status <> 'delivered' ORDER BY created_at LIMIT 100`,
    [before.map((b) => b.id)],
  );
  await untilFinished(stack.db, hooks, messages * hooks.length, 600_000);
  const [resumed] = await sql<{ at: number }>(
    stack.db,
    `SELECT extract(epoch FROM max(finished_at)) * 1000 AS at FROM webhook_deliveries WHERE id = ANY($1::uuid[])`,
    [stalled.map((s) => s.id)],
  );
  const r = await measure(stack, 'crash', hooks, started);
  return {
    ...r,
    extra: { restartMs: restartedAt - killedAt, firstHundredOpenResumedMs: Math.round(Number(resumed.at) - killedAt) },
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const root = projectRoot();
  log(`machine: ${cpus().length} cores; PostgreSQL, Redis, identity, alerts, dispatcher and the receiver all on it`);
  const stack = await startStack(root, args);
  const results: ScenarioResult[] = [];
  try {
    const dispatcher = args.submitFirst ? undefined : await stack.startDispatcher();
    const run: Run = { stack, args, token: await operatorToken(stack.identity), dispatcher };
    if (args.count > 0) results.push(await runBurst(run));
    if (args.full > 0) {
      await settled(stack);
      results.push(await runFull(run));
    }
    if (args.killCount > 0) {
      await settled(stack);
      results.push(await runCrash(run));
    }
  } finally {
    await stack.stop();
  }
  report(results, args);
}

function report(results: ScenarioResult[], args: Args): void {
  const line = (label: string, value: string, target: string, ok: boolean | undefined) =>
    `  ${label.padEnd(42)} ${value.padStart(14)}   ${target.padEnd(22)} ${ok === undefined ? '' : ok ? 'met' : 'MISS'}`;
  const out: string[] = ['', 'bench:alerts'];
  for (const r of results) {
    out.push(`${r.scenario}: ${r.deliveries} deliveries`);
    if (r.scenario === 'burst') {
      out.push(line('submitted through the API in', `${r.extra?.submitSeconds} s`, '', undefined));
      out.push(
        line(
          args.submitFirst
            ? 'drained (dispatcher started after submission) in'
            : 'drained (from the first submission) in',
          `${r.seconds} s`,
          `<= 60 s${args.count !== 100_000 ? ' (scaled)' : ''}`,
          r.seconds <= (60 * args.count) / 100_000,
        ),
      );
      out.push(line('deliveries/s', String(r.perSecond), '>= 1,667', r.perSecond >= 1_667));
    }
    if (r.scenario === 'full')
      out.push(line('submitted through the API in', `${r.extra?.submitSeconds} s`, '', undefined));
    if (r.scenario === 'full')
      out.push(
        line(
          'deliveries/s (tokens of ~' + Math.round((r.extra?.tokenBytes ?? 0) / 1e5) / 10 + ' MB)',
          String(r.perSecond),
          '>= 100',
          r.perSecond >= 100,
        ),
      );
    if (r.scenario === 'full')
      out.push(
        line(
          'CPU per delivery: dispatchers / receiver / PostgreSQL',
          `${r.extra?.dispatcherCpuMs} / ${r.extra?.receiverCpuMs} / ${r.extra?.postgresCpuMs} ms`,
          '',
          undefined,
        ),
      );
    if (r.scenario === 'crash') {
      out.push(line('dispatcher restart (process up)', `${r.extra?.restartMs} ms`, '', undefined));
      out.push(
        line(
          'in-flight deliveries done after the kill',
          `${r.extra?.firstHundredOpenResumedMs} ms`,
          '<= 15,000 ms',
          (r.extra?.firstHundredOpenResumedMs ?? Infinity) <= 15_000,
        ),
      );
    }
    out.push(
      line('enqueue -> first attempt p50 / p99', `${r.firstAttemptP50Ms} / ${r.firstAttemptP99Ms} ms`, '', undefined),
    );
    out.push(line('attempt duration p50 / p99', `${r.attemptP50Ms} / ${r.attemptP99Ms} ms`, '', undefined));
    out.push(line('lost', String(r.lost), '0', r.lost === 0));
    out.push(
      line(
        'duplicates (same jti)',
        String(r.duplicates),
        r.scenario === 'crash' ? `<= in flight (${DEFAULT_CONCURRENCY * args.workers})` : '0',
        r.scenario === 'crash' ? r.duplicates <= DEFAULT_CONCURRENCY * args.workers : r.duplicates === 0,
      ),
    );
    out.push(line('signatures the receiver refused', String(r.invalidSignatures), '0', r.invalidSignatures === 0));
  }
  process.stdout.write(`${out.join('\n')}\n`);
  const dir = path.join(projectRoot(), 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `alerts-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ args, cores: cpus().length, results }, null, 2));
  log(`results written to ${file}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
