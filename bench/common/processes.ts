/** Process and port helpers shared by the benchmarks. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import * as path from 'node:path';

export const log = (message: string): void => {
  process.stderr.write(`[bench] ${message}\n`);
};

/** The checkout's root: the nearest ancestor holding `tools/runtime` (run from dist/ or from source). */
export function projectRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'tools', 'runtime', 'run-dist.js'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('cannot find the project root (tools/runtime/run-dist.js)');
    dir = up;
  }
  return dir;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * The capacity benchmarks measure how much a service can serve: its rate limits (one client would
 * spend its budget in a second) and load shedding stay off. `bench:soak` keeps them on.
 */
export const UNLIMITED_ENV = { RATE_LIMIT_ENABLED: 'false', SHED_EVENT_LOOP_LAG_MS: '0', SHED_DB_POOL_WAIT_MS: '0' };

/** The Node flags an entry point is deployed with (tools/runtime/node-flags.js, the Dockerfile's CMD). */
function deployedNodeFlags(root: string, entry: string): string[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { nodeFlagsFor } = require(path.join(root, 'tools', 'runtime', 'node-flags.js')) as {
    nodeFlagsFor(entry: string): string[];
  };
  return nodeFlagsFor(entry);
}

/**
 * Starts a compiled entry point (`apps/alerts/src/main`, ...) as a child process with the Node
 * flags it is deployed with, then `nodeArgs` (profiling aids); keeps its output tail.
 */
export function startChild(
  root: string,
  entry: string,
  env: NodeJS.ProcessEnv,
  nodeArgs: string[] = [],
): ChildProcess & { tail(): string } {
  const args = [
    ...deployedNodeFlags(root, entry),
    ...nodeArgs,
    path.join(root, 'tools', 'runtime', 'run-dist.js'),
    entry,
  ];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  }) as ChildProcess & { tail(): string };
  let tail = '';
  const keep = (d: Buffer) => {
    tail = (tail + d.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.tail = () => tail;
  child.on('exit', (code) => {
    if (code !== 0 && code !== null) log(`${entry} exited with ${code}: ${tail}`);
  });
  return child;
}

export async function waitFor(url: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
    setTimeout(() => child.kill('SIGKILL'), 40_000).unref();
  });
}

/** The q-quantile (0..1) of numbers, by nearest rank. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
