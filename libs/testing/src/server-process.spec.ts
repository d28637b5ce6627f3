import { createServer } from 'node:net';
import { listeningSocket, refusingUrl, startServerProcess, type ServerProcessOptions } from './server-process';

/** A node child serving the socket it inherits (LISTEN_FD): answers its pid; `ready` after `readyAfterMs`. */
const SERVER = `
  const started = Date.now();
  require('node:http')
    .createServer((req, res) => {
      const ready = Date.now() - started >= Number(process.env.READY_AFTER_MS || 0);
      res.statusCode = req.url === '/ready' && !ready ? 503 : 200;
      res.end(String(process.pid));
    })
    .listen({ fd: Number(process.env.LISTEN_FD) });
`;

const options = (o: Partial<ServerProcessOptions> = {}): ServerProcessOptions => ({
  name: 'test server',
  args: ['-e', SERVER],
  cwd: __dirname,
  env: { PATH: process.env.PATH ?? '' },
  readyPath: '/ready',
  timeoutMs: 10_000,
  ...o,
});

/** Resolves with the error code of binding `port` on 127.0.0.1, or 'bound'. */
const bindCode = (port: number) =>
  new Promise<string>((resolve) => {
    const s = createServer();
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve('bound')));
  });

describe('server processes on a handed socket', () => {
  it('holds the port from before the start: nothing else can bind it', async () => {
    const socket = await listeningSocket();
    try {
      expect(socket.url).toBe(`http://127.0.0.1:${socket.port}`);
      expect(await bindCode(socket.port)).toBe('EADDRINUSE');
    } finally {
      await socket.close();
    }
  });

  it('is ready once that very child answers on its socket, which it keeps serving until stopped', async () => {
    const socket = await listeningSocket();
    const server = await startServerProcess(options({ socket, env: { PATH: '', READY_AFTER_MS: '300' } }));
    try {
      expect(server.url).toBe(socket.url);
      const res = await fetch(`${server.url}/ready`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(String(server.child.pid));
    } finally {
      expect(await server.stop()).toEqual({ code: null, signal: 'SIGTERM' });
    }
    await expect(fetch(server.url)).rejects.toThrow();
  });

  it('reports a child that exits before it is ready, with its output', async () => {
    const started = startServerProcess(options({ args: ['-e', 'console.error("no config"); process.exit(3)'] }));
    await expect(started).rejects.toThrow(/test server exited before it was ready \(code 3\):\nno config/);
  });

  it('reports a child killed before it is ready', async () => {
    const started = startServerProcess(options({ args: ['-e', 'process.kill(process.pid, "SIGKILL")'] }));
    await expect(started).rejects.toThrow(/exited before it was ready \(signal SIGKILL\)/);
  });

  it('gives up on a child that never gets ready, and kills it', async () => {
    const started = startServerProcess(options({ env: { PATH: '', READY_AFTER_MS: '3600000' }, timeoutMs: 500 }));
    await expect(started).rejects.toThrow(/test server not ready within 0.5 s/);
  });
});

describe('a URL that refuses connections', () => {
  it('refuses every connection while held, and no server can take its port', async () => {
    const down = await refusingUrl();
    try {
      await expect(fetch(down.url)).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } });
      expect(await bindCode(down.port)).toBe('EADDRINUSE');
    } finally {
      down.release();
    }
  });
});
