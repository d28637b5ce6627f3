import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

/** Compiles the services into dist/ (incremental), as `npm start` and the images do. */
export function buildServices(): void {
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
}

/** Runs a compiled CLI (provisioning, roster import) against a database, as the README's commands do. */
export function runDist(entry: string, args: string[], databaseUrl: string): void {
  const r = spawnSync(process.execPath, [path.join(root, 'tools/runtime/run-dist.js'), entry, ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`${entry} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
}

/** Loads npm start's demo data set (tools/provision/demo.json) into a database. */
export function provisionDemo(databaseUrl: string): void {
  runDist('apps/identity/src/provisioning/cli', [path.join(root, 'tools/provision/demo.json')], databaseUrl);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface ServiceProcess {
  name: string;
  url: string;
  child: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Rate limits and load shedding stay off unless a spec turns them on: specs of other features
 * send bursts no partner would, and many processes on a loaded test machine stall event loops.
 */
export const TRAFFIC_CONTROL_OFF = { RATE_LIMIT_ENABLED: 'false', SHED_EVENT_LOOP_LAG_MS: '0', SHED_DB_POOL_WAIT_MS: '0' };

/**
 * Starts one compiled service (`node tools/runtime/run-dist.js apps/<name>/src/main`) and waits for
 * /health/ready. `fixedPort` when its own URL must be known before it starts (an issuer).
 */
export async function startService(name: string, env: Record<string, string>, fixedPort?: number): Promise<ServiceProcess> {
  const port = fixedPort ?? (await freePort());
  let output = '';
  const child = spawn(process.execPath, [path.join(root, 'tools/runtime/run-dist.js'), `apps/${name}/src/main`], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'test', LOG_LEVEL: 'warn', ...TRAFFIC_CONTROL_OFF, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${url}/health/ready`)).status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${name} not ready within 30 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = (signal: NodeJS.Signals = 'SIGTERM') =>
    new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve({ code: child.exitCode, signal: child.signalCode });
      child.once('exit', (code, sig) => resolve({ code, signal: sig }));
      child.kill(signal);
    });
  return { name, url, child, output: () => output, stop };
}
