// Starts the data stores and the four processes for `npm start` (see start.js).
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { startPostgres } = require('../infra/postgres');
const { startRedis } = require('../infra/redis');
const { loadDemoData } = require('./demo');
const { printBanner } = require('./banner');

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

/** Prefixes each output line of a child with its name; keeps the last lines for error reports. */
function pipeWithPrefix(stream, name, out, recent) {
  let buffer = '';
  const emit = (line) => {
    out.write(`[${name}] ${line}\n`);
    recent.push(line);
    if (recent.length > 20) recent.shift();
  };
  stream.on('data', (chunk) => {
    buffer += chunk;
    const lines = buffer.split('\n');
    buffer = lines.pop();
    lines.forEach(emit);
  });
  stream.on('end', () => buffer && emit(buffer));
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

async function startPlatform({ root, dataDir, log }) {
  const stops = [];
  const children = [];
  const exitListeners = [];
  const stop = async () => {
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

  try {
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

    require('../runtime/register-paths');
    const { runMigrations } = require(path.join(root, 'dist/libs/persistence/src/migrate'));
    const applied = await runMigrations(databaseUrl);
    log(applied.length ? `applied migrations: ${applied.join(', ')}` : 'database schema is up to date');

    const ports = { identity: port('IDENTITY_PORT', 3000), oneroster: port('ONEROSTER_PORT', 3001), alerts: port('ALERTS_PORT', 3002), dispatcher: port('DISPATCHER_PORT', 3003) };
    await assertPortsFree({
      identity: { port: ports.identity, variable: 'IDENTITY_PORT' },
      oneroster: { port: ports.oneroster, variable: 'ONEROSTER_PORT' },
      alerts: { port: ports.alerts, variable: 'ALERTS_PORT' },
      'webhook-dispatcher': { port: ports.dispatcher, variable: 'DISPATCHER_PORT' },
    });
    const identityUrl = `http://localhost:${ports.identity}`;
    const common = {
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
    };

    await loadDemoData({ root, dataDir, databaseUrl, log });

    // Per process: name, entry point, port, extra environment. Links in answers are built on
    // the URL printed in the banner (PUBLIC_BASE_URL), never on a request's Host header.
    const services = [
      ['identity', 'apps/identity/src/main', ports.identity, {}],
      ['oneroster', 'apps/oneroster/src/main', ports.oneroster, { PUBLIC_BASE_URL: `http://localhost:${ports.oneroster}` }],
      ['alerts', 'apps/alerts/src/main', ports.alerts, {}],
      ['webhook-dispatcher', 'apps/webhook-dispatcher/src/main', ports.dispatcher, {}],
    ];
    const recentOutput = new Map();
    for (const [name, entry, p, env] of services) {
      const child = spawn(process.execPath, [path.join(root, 'tools/runtime/run-dist.js'), entry], {
        cwd: root,
        env: { ...common, ...env, PORT: String(p) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const recent = [];
      recentOutput.set(name, recent);
      pipeWithPrefix(child.stdout, name, process.stdout, recent);
      pipeWithPrefix(child.stderr, name, process.stderr, recent);
      child.on('exit', (code) => exitListeners.forEach((l) => l(name, code)));
      children.push(child);
    }
    const readiness = await Promise.all(
      services.map(([name, , p], i) => waitReady(`http://localhost:${p}/health/ready`, 60_000, () => children[i].exitCode === null).then((ok) => [name, ok])),
    );
    const notReady = readiness.filter(([, ok]) => !ok).map(([n]) => n);
    if (notReady.length) {
      const details = notReady.map((n) => {
        const child = children[services.findIndex(([s]) => s === n)];
        const state = child.exitCode !== null ? `exited with ${child.exitCode}` : child.signalCode ? `killed by ${child.signalCode}` : 'still not ready after 60 s';
        return `${n} ${state}; its last output:\n${(recentOutput.get(n) ?? []).slice(-10).join('\n') || '(none)'}`;
      });
      throw new Error(`not ready: ${details.join('\n')}`);
    }
    printBanner({ ports });
  } catch (err) {
    await stop();
    throw err;
  }
  return { stop, onUnexpectedExit: (fn) => exitListeners.push(fn) };
}

module.exports = { startPlatform };
