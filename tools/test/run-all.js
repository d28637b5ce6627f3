#!/usr/bin/env node
// `npm test`: every jest project through Nx, sharing one PostgreSQL and one Redis (started here
// unless DATABASE_URL / REDIS_URL point at servers), then one closing line `N passed, N failed`.
'use strict';
const { spawnSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startPostgres } = require('../infra/postgres');
const { startRedis } = require('../infra/redis');

const root = path.resolve(__dirname, '..', '..');
const nxBin = path.join(root, 'node_modules', '.bin', 'nx');
const extraArgs = process.argv.slice(2); // e.g. --projects=identity

function testProjects() {
  const out = spawnSync(nxBin, ['show', 'projects', '--with-target', 'test', '--json'], {
    cwd: root,
    env: { ...process.env, NX_DAEMON: 'false' },
    encoding: 'utf8',
  });
  if (out.status !== 0) throw new Error(`nx show projects failed: ${out.stderr}`);
  return JSON.parse(out.stdout);
}

async function main() {
  process.env.NX_DAEMON = 'false';
  process.env.NX_NO_CLOUD = 'true';
  process.env.TZ = 'UTC';
  const stops = [];
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'edu-test-run-'));
  try {
    if (!process.env.DATABASE_URL) {
      // Its own temp dir: startPostgres hands it to the server's OS user.
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'edu-test-pg-'));
      const pg = await startPostgres({ dataDir, durable: false });
      process.env.DATABASE_URL = pg.url;
      stops.push(async () => {
        await pg.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      });
    }
    if (!process.env.REDIS_URL) {
      const redis = await startRedis();
      process.env.REDIS_URL = redis.url;
      stops.push(redis.stop);
    }
    const countsFile = path.join(work, 'counts.jsonl');
    fs.writeFileSync(countsFile, '');
    const projects = testProjects();
    const code = await new Promise((resolve) => {
      const child = spawn(
        nxBin,
        ['run-many', '-t', 'test', '--parallel=2', '--outputStyle=static', '--skipNxCache', ...extraArgs],
        {
          cwd: root,
          stdio: 'inherit',
          env: { ...process.env, TEST_COUNTS_FILE: countsFile, FORCE_COLOR: '0' },
        },
      );
      child.on('exit', (c) => resolve(c ?? 1));
    });
    const lines = fs
      .readFileSync(countsFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const l of lines) {
      passed += l.passed;
      failed += l.failed + l.suiteErrors;
      skipped += l.skipped;
    }
    // A project selected but never reported (jest crashed before running) counts as a failure.
    const selected = extraArgs.length ? [] : projects;
    const missing = selected.filter((p) => !lines.some((l) => l.project === p));
    failed += missing.length;
    if (missing.length) console.error(`Projects that reported no results: ${missing.join(', ')}`);
    if (code !== 0 && failed === 0) failed = 1; // nx failed for a reason jest did not count
    console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
    process.exitCode = failed > 0 ? 1 : 0;
  } finally {
    for (const stop of stops) await stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
