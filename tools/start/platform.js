// Starts the data stores and the four processes for `npm start` (see start.js).
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { startPostgres } = require('../infra/postgres');
const { startRedis } = require('../infra/redis');
const { nodeFlagsFor } = require('../runtime/node-flags');
const { loadDemoData } = require('./demo');
const { printBanner } = require('./banner');
const { attachLogs } = require('./logs');
const { demoAlertsConfig, DEFAULT_PORTS } = require('../demo/alerts/config');
const { shareDemoData, demoSharingConfig } = require('../demo/sharing/share');
const { registerDemoWebhooks } = require('../demo/alerts/webhooks');
const { registerRosterEventsWebhook } = require('../demo/roster-events/webhook');
const signInDemo = require('../demo/sign-in/platform');
const { prepareRosterSyncDemo, demoHostKeyFile } = require('../demo/roster-sync/demo');

const DB_NAME = 'edu_platform';

function port(name, fallback) {
  const v = process.env[name];
  return v ? Number(v) : fallback;
}

async function ensureDatabase(serverUrl, name) {
  const { Client } = require('pg');
  const c = new Client({ connectionString: serverUrl });
  await c.connect();
  try {
    const exists = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) await c.query(`CREATE DATABASE "${name}"`);
  } finally {
    await c.end();
  }
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

async function waitReady(url, timeoutMs, isAlive) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive()) return false;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.status === 200) return true;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}

/** Refuses to start when a port is taken, naming the variable that moves it. */
async function assertPortsFree(ports) {
  const net = require('node:net');
  for (const [name, { port, variable }] of Object.entries(ports)) {
    const free = await new Promise((resolve) => {
      const srv = net.createServer();
      srv.once('error', () => resolve(false));
      srv.listen(port, '0.0.0.0', () => srv.close(() => resolve(true)));
    });
    if (!free) throw new Error(`port ${port} (${name}) is already in use: stop what holds it or set ${variable}`);
  }
}

/**
 * The demo partner app's webhooks at the demo receiver (through the alerts API, idempotent).
 * Without the demo data (an external DATABASE_URL holding other data) it says so and goes on.
 */
async function registerWebhooksForDemo({ identityUrl, alertsUrl, receiverUrl, log }) {
  try {
    const config = demoAlertsConfig();
    const hooks = await registerDemoWebhooks({ identityUrl, alertsUrl, receiverUrl, config });
    for (const h of hooks) log(`demo webhook ${h.action}: ${config.app.name} ${h.type} -> ${h.endpoint}`);
    return config;
  } catch (err) {
    log(
      `demo webhooks not registered (${err.message}); \`npm run alerts:demo\` deliveries will not reach the demo receiver`,
    );
    return undefined;
  }
}

/** Class Roster Sync's roster-events webhook at the demo receiver (the change feed pushed); a failure is only reported. */
async function rosterEventsWebhookOrSay({ identityUrl, alertsUrl, receiverUrl, log }) {
  try {
    const hook = await registerRosterEventsWebhook({ identityUrl, alertsUrl, receiverUrl });
    log(`demo roster-events webhook ${hook.action}: Class Roster Sync -> ${hook.endpoint}`);
    return hook;
  } catch (err) {
    log(
      `demo roster-events webhook not registered (${err.message}); Lion City's changes will not reach the demo receiver`,
    );
    return undefined;
  }
}

/** The demo's data sharing (Maths Quest sees Lion City's maths classes, no contact details); a failure is only reported. */
async function shareDemoDataOrSay({ identityUrl, log }) {
  try {
    const config = demoSharingConfig();
    const action = await shareDemoData({ identityUrl, config });
    log(
      `demo data sharing ${action}: ${config.app.name} sees ${config.sharing.classes.length} classes, contact withheld`,
    );
  } catch (err) {
    log(`demo data sharing not set (${err.message}); Maths Quest sees the whole roster`);
  }
}

/** The roster sync demo (a mirror tenant pulling Harbour View's API; Lion City's SFTP drop); a failure is only reported. */
async function rosterSyncDemoOrSay({ identityUrl, ports, log }) {
  try {
    return await prepareRosterSyncDemo({
      identityUrl,
      onerosterUrl: `http://localhost:${ports.oneroster}`,
      sftpPort: ports.sftp,
      log,
    });
  } catch (err) {
    log(`roster sync demo not set up (${err.message})`);
    return undefined;
  }
}

/** Stops the processes (SIGTERM, SIGKILL after 15 s), then the data stores in reverse order. */
function stopper(children, stops) {
  return async () => {
    await Promise.all(
      children.map(
        (c) =>
          new Promise((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            c.once('exit', resolve);
            c.kill('SIGTERM');
            setTimeout(() => c.kill('SIGKILL'), 15_000).unref();
          }),
      ),
    );
    for (const s of stops.reverse()) await s();
  };
}

/** PostgreSQL and Redis: the caller's DATABASE_URL and REDIS_URL, or embedded servers under dataDir. */
async function startDataStores({ dataDir, log, stops }) {
  fs.mkdirSync(dataDir, { recursive: true });
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    log('starting PostgreSQL (embedded, data in .data/postgres)');
    const pg = await startPostgres({ dataDir: path.join(dataDir, 'postgres'), port: port('PG_PORT', 54329), log });
    stops.push(pg.stop);
    databaseUrl = await ensureDatabase(pg.url, DB_NAME);
  }
  let redisUrl = process.env.REDIS_URL;
  if (!redisUrl) {
    log('starting Redis (data in .data/redis)');
    const redis = await startRedis({ dataDir: path.join(dataDir, 'redis'), port: port('REDIS_PORT', 63799), log });
    stops.push(redis.stop);
    redisUrl = redis.url;
  }
  return { databaseUrl, redisUrl };
}

async function migrate(root, databaseUrl, log) {
  require('../runtime/register-paths');
  const { runMigrations } = require(path.join(root, 'dist/libs/persistence/src/migrate'));
  const applied = await runMigrations(databaseUrl);
  log(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database schema is up to date');
}

/** Every process's port (from its variable or the default), refused when one is taken. */
async function reservePorts() {
  const ports = {
    identity: port('IDENTITY_PORT', 3000),
    oneroster: port('ONEROSTER_PORT', 3001),
    alerts: port('ALERTS_PORT', 3002),
    dispatcher: port('DISPATCHER_PORT', 3003),
    rosterSync: port('ROSTER_SYNC_PORT', 3004),
    sftp: port('ROSTER_SFTP_PORT', 2222),
    receiver: port('DEMO_RECEIVER_PORT', DEFAULT_PORTS.receiver),
    ...signInDemo.signInDemoPorts(port),
  };
  await assertPortsFree({
    identity: { port: ports.identity, variable: 'IDENTITY_PORT' },
    oneroster: { port: ports.oneroster, variable: 'ONEROSTER_PORT' },
    alerts: { port: ports.alerts, variable: 'ALERTS_PORT' },
    'webhook-dispatcher': { port: ports.dispatcher, variable: 'DISPATCHER_PORT' },
    'roster-sync': { port: ports.rosterSync, variable: 'ROSTER_SYNC_PORT' },
    'roster SFTP endpoint': { port: ports.sftp, variable: 'ROSTER_SFTP_PORT' },
    'demo webhook receiver': { port: ports.receiver, variable: 'DEMO_RECEIVER_PORT' },
    'demo upstream provider': { port: ports.upstream, variable: 'DEMO_UPSTREAM_PORT' },
    'demo partner app': { port: ports.partner, variable: 'DEMO_PARTNER_PORT' },
    'demo LMS': { port: ports.lms, variable: 'DEMO_LMS_PORT' },
    'demo SAML app': { port: ports.samlSp, variable: 'DEMO_SAML_SP_PORT' },
  });
  return ports;
}

/** The environment every process shares. */
function commonEnv({ databaseUrl, redisUrl, identityUrl }) {
  return {
    ...process.env,
    NODE_ENV: process.env.NODE_ENV || 'development',
    LOG_LEVEL: process.env.LOG_LEVEL || 'info',
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    TOKEN_ISSUER: identityUrl,
    JWKS_URL: `${identityUrl}/.well-known/jwks.json`,
    // Local development: partner test receivers usually run on this machine over http.
    WEBHOOK_ALLOW_HTTP: process.env.WEBHOOK_ALLOW_HTTP || 'true',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS || 'true',
    // ... on any port (the demo receiver listens on DEMO_RECEIVER_PORT).
    WEBHOOK_ALLOWED_PORTS: process.env.WEBHOOK_ALLOWED_PORTS || '*',
    // The same for roster sources: the demo SIS is this machine's own OneRoster API.
    ROSTER_SOURCE_ALLOW_HTTP: process.env.ROSTER_SOURCE_ALLOW_HTTP || 'true',
    ROSTER_SOURCE_ALLOW_PRIVATE_TARGETS: process.env.ROSTER_SOURCE_ALLOW_PRIVATE_TARGETS || 'true',
    ROSTER_SOURCE_ALLOWED_PORTS: process.env.ROSTER_SOURCE_ALLOWED_PORTS || '*',
    // KEY_ENCRYPTION_KEY: identity encrypts the signing keys with it, alerts the webhooks'
    // Standard Webhooks secrets, and the dispatcher decrypts both with it. All get the caller's
    // value when it is set, and otherwise the same demo default (@edu/config's DEMO_KEY_ENCRYPTION_KEY).
  };
}

/**
 * Per process: name, node arguments, port, extra environment, readiness path. Links in answers
 * are built on the URL printed in the banner (PUBLIC_BASE_URL), never on a request's Host header.
 */
function serviceList(root, ports, dataDir) {
  const runDist = (entry) => [...nodeFlagsFor(entry), path.join(root, 'tools/runtime/run-dist.js'), entry];
  return [
    // Sign-in: the core providers (Google, Microsoft) are the demo upstream provider below.
    ['identity', runDist('apps/identity/src/main'), ports.identity, signInDemo.identityDemoEnv(ports)],
    [
      'oneroster',
      runDist('apps/oneroster/src/main'),
      ports.oneroster,
      { PUBLIC_BASE_URL: `http://localhost:${ports.oneroster}` },
    ],
    // The delivery portal's links are built on it.
    ['alerts', runDist('apps/alerts/src/main'), ports.alerts, { PUBLIC_BASE_URL: `http://localhost:${ports.alerts}` }],
    // Notification-only deliveries link to getMessage on the alerts URL of the banner.
    [
      'webhook-dispatcher',
      runDist('apps/webhook-dispatcher/src/main'),
      ports.dispatcher,
      { ALERTS_PUBLIC_BASE_URL: `http://localhost:${ports.alerts}` },
    ],
    // Roster syncs: pulls from SIS APIs, the SFTP drop (folders in .data/roster-sftp), held syncs.
    [
      'roster-sync',
      runDist('apps/oneroster/src/sources/worker/main'),
      ports.rosterSync,
      {
        ROSTER_SFTP_PORT: String(ports.sftp),
        ROSTER_SFTP_ROOT: path.join(dataDir, 'roster-sftp'),
        ROSTER_SFTP_HOST_KEY_FILE: demoHostKeyFile(dataDir),
      },
    ],
    // A partner's webhook endpoint on this machine: verifies and logs each delivery.
    [
      'demo-receiver',
      [path.join(root, 'tools/demo/alerts/receiver.js')],
      ports.receiver,
      { DEMO_RECEIVER_PORT: String(ports.receiver) },
      '/health',
    ],
    // A school's Google/Microsoft stand-in and a partner app signing people in through identity.
    ...signInDemo.signInDemoServices(root, ports),
  ];
}

/** Spawns every process with its logs attached; returns each one's log output by name. */
function spawnServices({ root, services, common, logDir, children, exitListeners }) {
  const logs = new Map();
  for (const [name, args, p, env] of services) {
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...common, ...env, PORT: String(p) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The demo receiver prints plain lines (one per delivery); the services log JSON.
    const output = attachLogs(child, { name, dir: logDir, plain: name.startsWith('demo-') ? 'always' : 'until-json' });
    logs.set(name, output);
    child.on('exit', (code) => exitListeners.forEach((l) => l(name, code, output)));
    children.push(child);
  }
  return logs;
}

/** Waits up to 60 s for every process to answer its readiness path; throws naming those that did not, with their last output. */
async function awaitReadiness({ root, services, children, logs }) {
  const readiness = await Promise.all(
    services.map(([name, , p, , ready = '/health/ready'], i) =>
      waitReady(`http://localhost:${p}${ready}`, 60_000, () => children[i].exitCode === null).then((ok) => [name, ok]),
    ),
  );
  const notReady = readiness.filter(([, ok]) => !ok).map(([n]) => n);
  if (!notReady.length) return;
  const details = notReady.map((n) => {
    const child = children[services.findIndex(([s]) => s === n)];
    const state =
      child.exitCode !== null
        ? `exited with ${child.exitCode}`
        : child.signalCode
          ? `killed by ${child.signalCode}`
          : 'still not ready after 60 s';
    const { file, recent } = logs.get(n);
    return `${n} ${state}; its last output (all of it in ${path.relative(root, file)}):\n${recent().slice(-10).join('\n') || '(none)'}`;
  });
  throw new Error(`not ready: ${details.join('\n')}`);
}

async function startPlatform({ root, dataDir, log }) {
  const stops = [];
  const children = [];
  const exitListeners = [];
  const stop = stopper(children, stops);

  try {
    const { databaseUrl, redisUrl } = await startDataStores({ dataDir, log, stops });
    await migrate(root, databaseUrl, log);
    const ports = await reservePorts();
    const identityUrl = `http://localhost:${ports.identity}`;
    const common = commonEnv({ databaseUrl, redisUrl, identityUrl });

    await loadDemoData({ root, dataDir, databaseUrl, log });

    const services = serviceList(root, ports, dataDir);
    // Full JSON logs in .data/logs/<process>.log; the terminal shows warnings and errors only.
    const logDir = path.join(dataDir, 'logs');
    log(`starting ${services.map(([n]) => n).join(', ')} (full logs: ${path.relative(root, logDir)}/<process>.log)`);
    const logs = spawnServices({ root, services, common, logDir, children, exitListeners });
    const started = Date.now();
    await awaitReadiness({ root, services, children, logs });
    log(`all ${services.length} processes ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const demoAlerts = await registerWebhooksForDemo({
      identityUrl,
      alertsUrl: `http://localhost:${ports.alerts}`,
      receiverUrl: `http://localhost:${ports.receiver}`,
      log,
    });
    const demoRosterEvents = await rosterEventsWebhookOrSay({
      identityUrl,
      alertsUrl: `http://localhost:${ports.alerts}`,
      receiverUrl: `http://localhost:${ports.receiver}`,
      log,
    });
    await shareDemoDataOrSay({ identityUrl, log });
    const demoRosterSync = await rosterSyncDemoOrSay({ identityUrl, ports, log });
    const demoSignIn = await signInDemo.prepareSignInDemo({
      identityUrl,
      partner: ports.partner,
      upstream: ports.upstream,
      lms: ports.lms,
      samlSp: ports.samlSp,
      log,
    });
    printBanner({
      ports,
      demoAlerts,
      demoRosterEvents,
      demoSignIn,
      demoRosterSync,
      logDir: path.relative(root, logDir),
      processes: services.map(([n]) => n),
    });
  } catch (err) {
    await stop();
    throw err;
  }
  return { stop, onUnexpectedExit: (fn) => exitListeners.push(fn) };
}

module.exports = { startPlatform };
