import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer, type AddressInfo, type Server } from 'node:net';

/*
 * Servers that tests start. Each one serves a socket bound here to port 0 of 127.0.0.1 and handed
 * over to it: its URL is known before it starts (an issuer's configuration names it), no other
 * process can take the port meanwhile, and whatever answers on the port is that server. A child
 * process inherits the socket as a descriptor named by LISTEN_FD (README, "Processes and ports");
 * a server of this process takes it with `server.listen(socket.handOver())`.
 */

/** A TCP socket listening on a free port of 127.0.0.1, held until a server takes it over. */
export interface ListeningSocket {
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** The listening server to pass to `listen()` of a server of this process, which serves it from then on. Once. */
  handOver(): Server;
  /** Closes the socket if it was never handed over. */
  close(): Promise<void>;
}

/** `wanted` 0 (default) takes a free port; a given one serves that port again (a process restarted where it was). */
export async function listeningSocket(wanted = 0): Promise<ListeningSocket> {
  const server = createServer();
  // Nothing should connect before the server taking the socket over is up: such a connection is dropped.
  const refuse = (s: { destroy(): void }) => s.destroy();
  server.on('connection', refuse);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(wanted, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let handed = false;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    handOver() {
      if (handed) throw new Error(`the socket of port ${port} was handed over already`);
      handed = true;
      server.off('connection', refuse);
      return server;
    },
    close: () => new Promise<void>((resolve) => (handed ? resolve() : server.close(() => resolve()))),
  };
}

/** Has an app of this process (a Nest application) serve the socket, as `app.listen(port)` would a port. */
export async function listenOnSocket(app: { listen(port: number): Promise<unknown> }, socket: ListeningSocket) {
  // Nest passes its arguments on to net.Server#listen, which takes a listening server; its types name a port only.
  const listen = app.listen.bind(app) as unknown as (handle: Server) => Promise<unknown>;
  await listen(socket.handOver());
}

/** The descriptor of a listening server's socket, to hand to a child process. */
function descriptorOf(server: Server): number {
  // Node has no public accessor for it; the socket's handle carries it on every Unix.
  const fd = (server as unknown as { _handle?: { fd?: number } })._handle?.fd;
  if (typeof fd !== 'number' || fd < 0) throw new Error('cannot hand a listening socket to a child on this platform');
  return fd;
}

/**
 * A URL on which connections are refused for as long as it is held (an endpoint that is down).
 * Its port is the local end of an open connection to a throwaway listener: the kernel answers a
 * new connection to it with a refusal, and no server can bind the port meanwhile, unlike a port
 * that was merely free a moment ago.
 */
export async function refusingUrl(): Promise<{ url: string; port: number; release(): void }> {
  const listener = createServer((s) => s.unref());
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', () => resolve()));
  listener.unref();
  const held = connect((listener.address() as AddressInfo).port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => held.once('connect', () => resolve()).once('error', reject));
  held.unref();
  const port = held.localPort as number;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    release: () => {
      held.destroy();
      listener.close();
    },
  };
}

export interface ServerProcess {
  child: ChildProcess;
  /** Where it serves: `http://127.0.0.1:<port>`, the socket handed to it. */
  url: string;
  port: number;
  /** What it printed so far (stdout and stderr; the last megabyte or more of it). */
  output(): string;
  /** Signals it (SIGTERM unless told; SIGKILL after 20 s) and resolves with how it ended; at once if it already has. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface ServerProcessOptions {
  /** Named in the errors. */
  name: string;
  /** Arguments to node (flags, a script and its arguments). */
  args: string[];
  cwd: string;
  /** Its environment; the sockets' variables (LISTEN_FD, …) are added. */
  env: NodeJS.ProcessEnv;
  /** The socket it serves (LISTEN_FD) when its URL must be known beforehand; a new one otherwise. */
  socket?: ListeningSocket;
  /** Further sockets it serves, by the variable naming each one's descriptor (`ROSTER_SFTP_LISTEN_FD`). */
  moreSockets?: Record<string, ListeningSocket>;
  /** Path on its URL that answers 2xx once it is ready. */
  readyPath: string;
  timeoutMs: number;
}

const OUTPUT_KEPT = 1_000_000;

type Ending = { code: number | null; signal: NodeJS.Signals | null; error?: string };

/**
 * Spawns `command` with listening sockets as its descriptors 3, 4, …, each named to it by the
 * environment variable it is listed under (`{ LISTEN_FD: socket }`). The copies here are closed
 * once the child has them: from then on only the child serves them.
 */
export function spawnWithSockets(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; detached?: boolean },
  sockets: Record<string, ListeningSocket>,
): ChildProcess {
  const servers = Object.values(sockets).map((s) => s.handOver());
  const named = Object.fromEntries(Object.keys(sockets).map((name, i) => [name, String(3 + i)]));
  try {
    return spawn(command, args, {
      ...options,
      env: { ...options.env, ...named },
      stdio: ['ignore', 'pipe', 'pipe', ...servers.map(descriptorOf)],
    });
  } finally {
    for (const server of servers) server.close();
  }
}

/**
 * A server run by node as its own process on a socket handed to it, once `readyPath` answers 2xx
 * (only that process can answer on the socket); fails with what it printed when it exits first or
 * is not ready within `timeoutMs` (it is killed then). An exit later, not asked for by `stop()`,
 * is reported on stderr with its output.
 */
export async function startServerProcess(o: ServerProcessOptions): Promise<ServerProcess> {
  const socket = o.socket ?? (await listeningSocket());
  const child = spawnWithSockets(
    process.execPath,
    o.args,
    { cwd: o.cwd, env: o.env },
    { LISTEN_FD: socket, ...o.moreSockets },
  );
  let output = '';
  const keep = (d: Buffer) => {
    output += d;
    // A long-lived chatty process (a benchmark's) keeps its last megabyte or so.
    if (output.length > 2 * OUTPUT_KEPT) output = output.slice(-OUTPUT_KEPT);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let stopping = false;
  const ended = new Promise<Ending>((resolve) => {
    child.once('error', (err) => resolve({ code: null, signal: null, error: err.message }));
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const stop = (signal: NodeJS.Signals = 'SIGTERM') => {
    stopping = true;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      void ended.then(() => clearTimeout(killer));
    }
    return ended;
  };
  try {
    await untilReady(`${socket.url}${o.readyPath}`, ended, o.timeoutMs);
  } catch (err) {
    stopping = true;
    child.kill('SIGKILL');
    throw new Error(`${o.name} ${(err as Error).message}:\n${output}`);
  }
  void ended.then((e) => {
    if (!stopping) process.stderr.write(`${o.name} exited (${describe(e)}):\n${output.slice(-4000)}\n`);
  });
  return { child, url: socket.url, port: socket.port, output: () => output, stop };
}

const describe = (e: Ending) => e.error ?? (e.signal ? `signal ${e.signal}` : `code ${e.code}`);

/** Polls `url` until it answers 2xx; fails once the process has ended or the time is up. */
async function untilReady(url: string, ended: Promise<Ending>, timeoutMs: number): Promise<void> {
  let ending: Ending | undefined;
  void ended.then((e) => (ending = e));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(url, { signal: AbortSignal.timeout(5_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (ending) throw new Error(`exited before it was ready (${describe(ending)})`);
    if (Date.now() > deadline) throw new Error(`not ready within ${timeoutMs / 1000} s`);
    await Promise.race([ended, new Promise((r) => setTimeout(r, 50))]);
  }
}
