import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A TCP port free on 127.0.0.1 right now (for a server whose URL must be known before it starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  /** Signals it (SIGTERM unless told) and resolves with how it ended; at once if it already has. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface ServerProcessOptions {
  /** Named in the errors. */
  name: string;
  /** Arguments to node (a script and its arguments). */
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Answers 2xx once the server is ready. */
  readyUrl: string;
  timeoutMs: number;
}

/**
 * A server run by node as its own process, once `readyUrl` answers; fails with what it printed
 * when it exits first or is not ready within `timeoutMs` (it is killed then).
 */
export async function startServerProcess(o: ServerProcessOptions): Promise<ServerProcess> {
  let output = '';
  const child = spawn(process.execPath, o.args, { cwd: o.cwd, env: o.env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const deadline = Date.now() + o.timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${o.name} exited with ${child.exitCode}:\n${output}`);
    if (
      await fetch(o.readyUrl).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${o.name} not ready within ${o.timeoutMs / 1000} s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const stop = (signal: NodeJS.Signals = 'SIGTERM') =>
    new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null)
        return resolve({ code: child.exitCode, signal: child.signalCode });
      child.once('exit', (code, sig) => resolve({ code, signal: sig }));
      child.kill(signal);
    });
  return { child, output: () => output, stop };
}
