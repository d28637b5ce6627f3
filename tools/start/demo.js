// Loads the demo data set once: identity objects through the provisioning CLI, then the
// OneRoster CSV packages through the rostering importer. A marker in .data/ remembers it.
'use strict';
const { spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const DEMO_FILE = 'tools/provision/demo.json';
const ROSTER_DIR = 'tools/demo/oneroster';

/** Rostering packages to import: tools/demo/oneroster/<tenant id>/ folders holding manifest.csv. */
function rosterPackages(root) {
  const dir = path.join(root, ROSTER_DIR);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, 'manifest.csv')))
    .map((d) => ({ tenantId: d.name, folder: path.join(dir, d.name) }));
}

function fingerprint(root, databaseUrl) {
  const h = createHash('sha256').update(databaseUrl);
  const demo = path.join(root, DEMO_FILE);
  if (fs.existsSync(demo)) h.update(fs.readFileSync(demo));
  for (const p of rosterPackages(root)) {
    for (const f of fs.readdirSync(p.folder).sort()) h.update(f).update(fs.readFileSync(path.join(p.folder, f)));
  }
  return h.digest('hex');
}

/** Runs a compiled CLI with its output in .data/logs/demo-data.log; its last lines are shown when it fails. */
function runDist(root, dataDir, entry, args, databaseUrl) {
  const logFile = path.join(dataDir, 'logs', 'demo-data.log');
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const fd = fs.openSync(logFile, 'a');
  try {
    const r = spawnSync(process.execPath, [path.join(root, 'tools/runtime/run-dist.js'), entry, ...args], {
      cwd: root,
      stdio: ['ignore', fd, fd],
      env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: process.env.LOG_LEVEL || 'warn' },
    });
    if (r.status !== 0) {
      const tail = fs.readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-15).join('\n');
      throw new Error(
        `${entry} ${args.join(' ')} failed (exit ${r.status}); the end of ${path.relative(root, logFile)}:\n${tail}`,
      );
    }
  } finally {
    fs.closeSync(fd);
  }
}

async function loadDemoData({ root, dataDir, databaseUrl, log }) {
  const marker = path.join(dataDir, 'demo-data.loaded');
  const print = fingerprint(root, databaseUrl);
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === print) {
    log('demo data already loaded');
    return;
  }
  if (
    fs.existsSync(path.join(root, DEMO_FILE)) &&
    fs.existsSync(path.join(root, 'dist/apps/identity/src/provisioning/cli.js'))
  ) {
    log(`loading demo identity data (${DEMO_FILE})`);
    runDist(root, dataDir, 'apps/identity/src/provisioning/cli', [path.join(root, DEMO_FILE)], databaseUrl);
  }
  const importer = 'apps/oneroster/src/imports/cli';
  if (fs.existsSync(path.join(root, 'dist', `${importer}.js`))) {
    for (const p of rosterPackages(root)) {
      log(`importing demo rostering data for tenant ${p.tenantId}`);
      runDist(root, dataDir, importer, ['--tenant', p.tenantId, p.folder], databaseUrl);
    }
  }
  fs.writeFileSync(marker, print);
}

module.exports = { loadDemoData };
