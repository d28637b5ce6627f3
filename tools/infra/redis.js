// Starts a local redis-server (Debian's package), installing it when missing and running as root.
'use strict';
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const { onSomePort, PortTaken } = require('./ports');

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

/** The process id the Redis server on `port` reports (INFO server), or undefined when none answers. */
function serverPid(port) {
  return new Promise((resolve) => {
    let seen = '';
    const s = net.connect(port, '127.0.0.1', () => s.write('INFO server\r\n'));
    const done = (pid) => {
      s.destroy();
      resolve(pid);
    };
    s.setTimeout(2_000, () => done(undefined));
    s.on('data', (d) => {
      seen += d;
      const m = /\r\nprocess_id:(\d+)\r\n/.exec(seen);
      if (m) done(Number(m[1]));
    });
    s.on('error', () => done(undefined));
    s.on('close', () => done(undefined));
  });
}

/** Polls until the server on `port` is `child` (not another one holding the port); fails once it has exited. */
async function untilServing(port, child, timeoutMs, isAlive) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!isAlive()) throw new Error('redis-server exited during startup');
    if ((await serverPid(port)) === child.pid) return;
    if (Date.now() > deadline) throw new Error(`redis-server did not answer on ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Starts redis-server. dataDir set = append-only persistence there; unset = in-memory. */
async function startRedis({ port = 0, dataDir, log = () => {} } = {}) {
  const bin = ensureRedisServer(log);
  if (dataDir) fs.mkdirSync(dataDir, { recursive: true });
  return onSomePort(port, (p) => runServer(bin, p, dataDir));
}

async function runServer(bin, port, dataDir) {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--daemonize', 'no'];
  args.push('--protected-mode', 'yes');
  if (dataDir) args.push('--dir', dataDir, '--appendonly', 'yes');
  else args.push('--appendonly', 'no');
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (d) => {
    out = (out + d).slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let alive = true;
  // 'close': it has exited and everything it wrote has been read.
  child.on('close', () => {
    alive = false;
  });
  try {
    await untilServing(port, child, 15_000, () => alive);
  } catch (err) {
    child.kill('SIGKILL');
    if (/Address already in use/.test(out)) throw new PortTaken(`port ${port} is taken:\n${out}`);
    throw new Error(`${err.message}\n${out}`);
  }
  const stop = () =>
    new Promise((resolve) => {
      if (!alive) return resolve();
      child.once('close', () => resolve());
      child.kill('SIGTERM');
    });
  return { url: `redis://127.0.0.1:${port}`, port, stop, process: child };
}

module.exports = { startRedis, ensureRedisServer };
