import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { Client } from 'pg';
import { runMigrations } from '@edu/persistence';
import { startBenchDatabase, type BenchDatabase } from '../common/database';
import { startRoundTripCounter } from '../common/pg-round-trips';
import {
  listeningSocket,
  startChild,
  startServerProcess,
  UNLIMITED_ENV,
  type ListeningSocket,
  type ServerProcess,
} from '../common/processes';

/** The demo data's sign-in settings (tools/demo/sign-in/config.js). */
interface DemoConfig {
  app: { clientId: string; clientSecret: string; redirectUris: string[] };
  tenant: { id: string; name: string };
  people: { sub: string; email: string; name: string }[];
}

export interface SignInStack {
  identity: string;
  upstream: string;
  demo: DemoConfig;
  /** Process ids whose CPU time the report divides among the sign-ins (PostgreSQL's: a long-lived child's, when on this machine). */
  pids: { identity: number; upstream: number; postgresChild?: number };
  /** Transactions committed or rolled back in the stack's database so far (each statement outside one is one). */
  dbTransactions(): Promise<number>;
  /** Identity's database round trips so far (queries it sent and waited for), and its statements by text. */
  dbRoundTrips(): { total: number; statements: Map<string, number> };
  /** Index or sequential scans and written rows per table so far (pg_stat_user_tables). */
  tableActivity(): Promise<Map<string, { scans: number; writes: number }>>;
  stop(): Promise<void>;
}

/** A fresh database with the demo data set; its clean-up joins `stops`. */
async function demoDatabase(root: string, stops: (() => Promise<void>)[]): Promise<BenchDatabase> {
  const database = await startBenchDatabase(root);
  stops.push(() => database.stop());
  const db = database.url;
  await runMigrations(db);
  // The demo data set: Wellbeing Pulse at Lion City, whose staff sign in with Microsoft.
  const r = spawnSync(
    process.execPath,
    [
      path.join(root, 'tools/runtime/run-dist.js'),
      'apps/identity/src/provisioning/cli',
      path.join(root, 'tools/provision/demo.json'),
    ],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: db, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    },
  );
  if (r.status !== 0) throw new Error(`provisioning the demo data failed:\n${r.stdout}\n${r.stderr}`);
  return database;
}

/** The demo upstream provider (tools/demo/sign-in/upstream.js) as its own process, as npm start runs it. */
function startUpstream(root: string, socket: ListeningSocket, identity: string): Promise<ServerProcess> {
  return startServerProcess({
    name: 'demo upstream provider',
    args: [path.join(root, 'tools/demo/sign-in/upstream.js')],
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', DEMO_UPSTREAM_URL: socket.url, IDENTITY_URL: identity },
    socket,
    readyPath: '/health',
    timeoutMs: 30_000,
  });
}

/** PostgreSQL (embedded unless DATABASE_URL), the demo data, identity and the demo upstream provider. */
export async function startSignInStack(root: string, profile = false): Promise<SignInStack> {
  const stops: (() => Promise<void>)[] = [];
  const database = await demoDatabase(root, stops);
  const db = database.url;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const demoTools = require(path.join(root, 'tools/demo/sign-in/config.js')) as {
    demoSignInConfig(): DemoConfig;
    identitySignInEnv(url: string, env: object): Record<string, string>;
  };
  const [idSocket, upSocket] = [await listeningSocket(), await listeningSocket()];
  const identity = idSocket.url;
  const upstream = upSocket.url;
  const env = {
    ...UNLIMITED_ENV,
    DATABASE_URL: db,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
    TOKEN_ISSUER: identity,
    PUBLIC_BASE_URL: identity,
  };
  // Identity reaches PostgreSQL through a relay that counts its round trips.
  const relay = await startRoundTripCounter(db);
  stops.push(() => relay.stop());
  const nodeArgs = profile ? ['-r', path.join(root, 'bench', 'common', 'cpu-profile.js')] : [];
  const [id, up] = await Promise.all([
    startChild(
      root,
      'apps/identity/src/main',
      { ...env, DATABASE_URL: relay.url, ...demoTools.identitySignInEnv(upstream, {}) },
      { nodeArgs, socket: idSocket },
    ),
    startUpstream(root, upSocket, identity),
  ]);
  const stats = new Client({ connectionString: db });
  await stats.connect();
  stops.push(() => stats.end());
  const checkpointer = database.embedded
    ? (await stats.query(`SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'`)).rows[0]?.pid
    : undefined;
  return {
    identity,
    upstream,
    demo: demoTools.demoSignInConfig(),
    pids: { identity: id.child.pid as number, upstream: up.child.pid as number, postgresChild: checkpointer },
    async dbTransactions() {
      const { rows } = await stats.query(
        `SELECT (xact_commit + xact_rollback)::bigint AS n FROM pg_stat_database WHERE datname = current_database()`,
      );
      return Number(rows[0].n);
    },
    dbRoundTrips: () => ({ total: relay.roundTrips(), statements: relay.statements() }),
    async tableActivity() {
      const { rows } = await stats.query(
        `SELECT relname, (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::bigint AS scans, (n_tup_ins + n_tup_upd + n_tup_del)::bigint AS writes FROM pg_stat_user_tables`,
      );
      return new Map(
        rows.map((r: { relname: string; scans: string; writes: string }) => [
          r.relname,
          { scans: Number(r.scans), writes: Number(r.writes) },
        ]),
      );
    },
    async stop() {
      await Promise.all([id.stop(), up.stop()]);
      for (const stop of stops.reverse()) await stop();
    },
  };
}
