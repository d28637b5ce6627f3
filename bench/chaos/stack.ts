/**
 * The platform the chaos bench breaks, started for the run: its own PostgreSQL and Redis, the
 * migrations, the demo data set and the soak's partners, the four processes on ports known
 * beforehand, and the bench's webhook receiver with the demo app's two alert webhooks pointing at it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runMigrations } from '@edu/persistence';
import { listeningSocket, log, startChild, type ServerProcess } from '../common/processes';
import { provisionPartners } from '../soak/partners';
import type { Stack } from '../soak/workload';
import { ChaosPostgres, ChaosRedis } from './datastores';
import { ChaosService } from './service';

export const SERVICES = ['identity', 'oneroster', 'alerts', 'dispatcher'] as const;
export type ServiceName = (typeof SERVICES)[number];

const ENTRIES: Record<ServiceName, string> = {
  identity: 'apps/identity/src/main',
  oneroster: 'apps/oneroster/src/main',
  alerts: 'apps/alerts/src/main',
  dispatcher: 'apps/webhook-dispatcher/src/main',
};

export interface ChaosStack {
  readonly root: string;
  readonly urls: Stack;
  readonly services: Record<ServiceName, ChaosService>;
  readonly postgres: ChaosPostgres;
  readonly redis: ChaosRedis;
  readonly receiverUrl: string;
  /** The receiver paths of the demo app's alert webhooks. */
  readonly webhookPaths: string[];
  /** Stops everything; the processes' output is left in `logDir`. */
  stop(): Promise<{ logDir: string }>;
}

/** What every process gets: the stores, the issuer, and webhooks allowed to this machine's receiver. */
function commonEnv(db: string, redis: string, identityUrl: string): NodeJS.ProcessEnv {
  return {
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    DATABASE_URL: db,
    REDIS_URL: redis,
    TOKEN_ISSUER: identityUrl,
    JWKS_URL: `${identityUrl}/.well-known/jwks.json`,
    WEBHOOK_ALLOW_HTTP: 'true',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_ALLOWED_PORTS: '*',
  };
}

/** The demo data set, loaded as `npm start` loads it (tools/start/demo.js). */
async function loadDemo(root: string, databaseUrl: string): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { loadDemoData } = require(path.join(root, 'tools', 'start', 'demo.js')) as {
    loadDemoData(o: { root: string; dataDir: string; databaseUrl: string; log(m: string): void }): Promise<void>;
  };
  const dataDir = mkdtempSync(path.join(tmpdir(), 'edu-chaos-demo-'));
  try {
    await loadDemoData({ root, dataDir, databaseUrl, log });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The four processes, identity first (the others verify its tokens), each on a port bound up front. */
async function startServices(root: string, db: string, redis: string): Promise<Record<ServiceName, ChaosService>> {
  const sockets = Object.fromEntries(
    await Promise.all(SERVICES.map(async (s) => [s, await listeningSocket()] as const)),
  ) as Record<ServiceName, Awaited<ReturnType<typeof listeningSocket>>>;
  const common = commonEnv(db, redis, sockets.identity.url);
  const own: Record<ServiceName, NodeJS.ProcessEnv> = {
    identity: {},
    oneroster: { PUBLIC_BASE_URL: sockets.oneroster.url },
    alerts: { PUBLIC_BASE_URL: sockets.alerts.url },
    dispatcher: { ALERTS_PUBLIC_BASE_URL: sockets.alerts.url },
  };
  const start = (s: ServiceName) => ChaosService.start(root, s, ENTRIES[s], { ...common, ...own[s] }, sockets[s]);
  const identity = await start('identity');
  const [oneroster, alerts, dispatcher] = await Promise.all([start('oneroster'), start('alerts'), start('dispatcher')]);
  return { identity, oneroster, alerts, dispatcher };
}

/** The demo app's webhooks at the receiver, registered through the alerts API as a partner would. */
async function registerWebhooks(root: string, urls: Stack, receiverUrl: string): Promise<string[]> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { demoAlertsConfig } = require(path.join(root, 'tools', 'demo', 'alerts', 'config.js')) as {
    demoAlertsConfig(): { webhooks: { path: string }[] };
  };
  const { registerDemoWebhooks } = require(path.join(root, 'tools', 'demo', 'alerts', 'webhooks.js')) as {
    registerDemoWebhooks(o: object): Promise<unknown[]>;
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  const config = demoAlertsConfig();
  await registerDemoWebhooks({ identityUrl: urls.identity, alertsUrl: urls.alerts, receiverUrl, config });
  return config.webhooks.map((w) => w.path);
}

export async function startChaosStack(root: string): Promise<ChaosStack> {
  log('starting PostgreSQL and Redis for the run');
  const postgres = await ChaosPostgres.start(root);
  const redis = await ChaosRedis.start(root);
  await runMigrations(postgres.url);
  log('loading the demo data set and the soak partners');
  await loadDemo(root, postgres.url);
  provisionPartners(root, postgres.url);
  log('starting identity, oneroster, alerts, webhook-dispatcher and the receiver');
  const services = await startServices(root, postgres.url, redis.url);
  const urls = {
    identity: services.identity.url,
    oneroster: services.oneroster.url,
    alerts: services.alerts.url,
    dispatcher: services.dispatcher.url,
  };
  const receiver: ServerProcess = await startChild(
    root,
    'bench/alerts/receiver',
    { JWKS_URL: `${urls.identity}/.well-known/jwks.json` },
    { readyPath: '/stats' },
  );
  const webhookPaths = await registerWebhooks(root, urls, receiver.url);
  return {
    root,
    urls,
    services,
    postgres,
    redis,
    receiverUrl: receiver.url,
    webhookPaths,
    async stop() {
      const logDir = mkdtempSync(path.join(tmpdir(), 'edu-chaos-logs-'));
      for (const s of SERVICES) {
        await services[s].stop();
        writeFileSync(path.join(logDir, `${s}.log`), services[s].output());
      }
      await receiver.stop();
      await redis.stop();
      await postgres.stop();
      return { logDir };
    },
  };
}
