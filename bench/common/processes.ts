/** Process helpers shared by the benchmarks (servers start on sockets handed to them: @edu/testing/server-process). */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import {
  listeningSocket,
  startServerProcess,
  type ListeningSocket,
  type ServerProcess,
} from '@edu/testing/server-process';

export { listeningSocket, startServerProcess, type ListeningSocket, type ServerProcess };

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
 * flags it is deployed with, then `nodeArgs` (profiling aids), on a socket handed to it (`socket`
 * when its URL must be known first, a new one otherwise), once `readyPath` answers 2xx.
 */
export async function startChild(
  root: string,
  entry: string,
  env: NodeJS.ProcessEnv,
  o: { nodeArgs?: string[]; socket?: ListeningSocket; readyPath?: string } = {},
): Promise<ServerProcess> {
  const socket = o.socket ?? (await listeningSocket());
  return startServerProcess({
    name: entry,
    args: [
      ...deployedNodeFlags(root, entry),
      ...(o.nodeArgs ?? []),
      path.join(root, 'tools', 'runtime', 'run-dist.js'),
      entry,
    ],
    cwd: root,
    // PORT names its socket's port: a service builds its own URL on it.
    env: { ...process.env, ...env, PORT: String(socket.port) },
    socket,
    readyPath: o.readyPath ?? '/health/ready',
    timeoutMs: 60_000,
  });
}

/** The q-quantile (0..1) of numbers, by nearest rank. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
