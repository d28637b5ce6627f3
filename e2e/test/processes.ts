import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { listeningSocket, startServerProcess, type ListeningSocket, type ServerProcess } from '@edu/testing';

const root = path.resolve(__dirname, '..', '..');

/** Compiles the services into dist/ (incremental), as `npm start` and the images do. */
export function buildServices(): void {
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
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

export interface ServiceProcess extends ServerProcess {
  name: string;
}

/**
 * Rate limits and load shedding stay off unless a spec turns them on: specs of other features
 * send bursts no partner would, and many processes on a loaded test machine stall event loops.
 */
export const TRAFFIC_CONTROL_OFF = {
  RATE_LIMIT_ENABLED: 'false',
  SHED_EVENT_LOOP_LAG_MS: '0',
  SHED_DB_POOL_WAIT_MS: '0',
};

/**
 * Starts one compiled service (`node tools/runtime/run-dist.js apps/<name>/src/main`, or another
 * `entry`) on a socket handed to it and waits for /health/ready. `socket` when its own URL must be
 * known before it starts (an issuer), a new one otherwise; `moreSockets` for its other listeners.
 */
export async function startService(
  name: string,
  env: Record<string, string>,
  o: { socket?: ListeningSocket; moreSockets?: Record<string, ListeningSocket>; entry?: string } = {},
): Promise<ServiceProcess> {
  const socket = o.socket ?? (await listeningSocket());
  const started = await startServerProcess({
    name,
    args: [path.join(root, 'tools/runtime/run-dist.js'), o.entry ?? `apps/${name}/src/main`],
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      ...TRAFFIC_CONTROL_OFF,
      ...env,
      // The port of its socket: a service builds its own URL on PORT (OneRoster's links in development).
      PORT: String(socket.port),
      HOST: '127.0.0.1',
    },
    socket,
    moreSockets: o.moreSockets,
    readyPath: '/health/ready',
    timeoutMs: 30_000,
  });
  return { name, ...started };
}
