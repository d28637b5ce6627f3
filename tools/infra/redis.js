// Starts a local redis-server (Debian's package), installing it when missing and running as root.
'use strict';
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const { freePort } = require('./postgres');

const CANDIDATES = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'];

function findRedisServer() {
  for (const c of CANDIDATES) if (fs.existsSync(c)) return c;
  try {
    return (
      execFileSync('sh', ['-c', 'command -v redis-server'], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim() || undefined
    );
  } catch {
    return undefined;
  }
}

function ensureRedisServer(log = () => {}) {
  const found = findRedisServer();
  if (found) return found;
  const isDebian = fs.existsSync('/usr/bin/apt-get');
  if (process.getuid() === 0 && isDebian) {
    log('installing redis-server (apt-get)');
    execFileSync(
      'sh',
      [
        '-c',
        'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null',
      ],
      { stdio: 'inherit' },
    );
    // The package starts a system service on 6379; we run our own instances instead.
    try {
      execFileSync('sh', ['-c', 'service redis-server stop >/dev/null 2>&1 || true']);
    } catch {
      /* no init system */
    }
    const installed = findRedisServer();
    if (installed) return installed;
  }
  throw new Error(
    'redis-server is not installed. Install it with `sudo apt-get install redis-server` ' +
      "(or your platform's package), or set REDIS_URL to an existing Redis server.",
  );
}

async function waitForPing(port, timeoutMs, isAlive) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error('redis-server exited during startup');
    const ok = await new Promise((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => s.write('PING\r\n'));
      s.on('data', (d) => {
        s.destroy();
        resolve(d.toString().startsWith('+PONG'));
      });
      s.on('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`redis-server did not answer on ${port} within ${timeoutMs} ms`);
}

/** Starts redis-server. dataDir set = append-only persistence there; unset = in-memory. */
async function startRedis({ port = 0, dataDir, log = () => {} } = {}) {
  const bin = ensureRedisServer(log);
  const actualPort = port || (await freePort());
  const args = [
    '--port',
    String(actualPort),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--daemonize',
    'no',
    '--protected-mode',
    'yes',
  ];
  if (dataDir) {
    fs.mkdirSync(dataDir, { recursive: true });
    args.push('--dir', dataDir, '--appendonly', 'yes');
  } else {
    args.push('--appendonly', 'no');
  }
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => {
    out = (out + d).slice(-4000);
  });
  child.stderr.on('data', (d) => {
    out = (out + d).slice(-4000);
  });
  let alive = true;
  child.on('exit', () => {
    alive = false;
  });
  try {
    await waitForPing(actualPort, 15_000, () => alive);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${err.message}\n${out}`);
  }
  const stop = () =>
    new Promise((resolve) => {
      if (!alive) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url: `redis://127.0.0.1:${actualPort}`, port: actualPort, stop, process: child };
}

module.exports = { startRedis, ensureRedisServer };
