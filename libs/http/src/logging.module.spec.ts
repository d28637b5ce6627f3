import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pinoHttp } from 'pino-http';
import { requestLogOptions } from './logging.module';

/** A server logging through the request log's options into `lines`; `handle` answers each request. */
async function loggedServer(
  level: string,
  handle: (req: IncomingMessage & { log: { error(o: object, msg: string): void } }, res: ServerResponse) => void,
): Promise<{ url: string; lines: Record<string, unknown>[]; server: Server }> {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = pinoHttp(requestLogOptions({ level, service: 'test-service' }), sink);
  const server = createServer((req, res) => {
    logger(req, res);
    handle(req as never, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, lines, server };
}

/**
 * Polls until `lines` holds the line logged when the answer with `status` finished (just after the
 * client has it); the lines of earlier requests of a test come before it.
 */
async function untilAnswerLogged(lines: Record<string, unknown>[], status?: number): Promise<void> {
  const done = () =>
    lines.some((l) => l.res && (status === undefined || (l.res as { statusCode: number }).statusCode === status));
  for (const deadline = Date.now() + 5_000; !done(); await new Promise((r) => setTimeout(r, 5)))
    if (Date.now() > deadline) throw new Error(`no request line logged: ${JSON.stringify(lines)}`);
}

describe('request log options', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('logs a request as id, method and URL with its status, never its headers', async () => {
    const s = await loggedServer('info', (_req, res) => res.writeHead(200).end('ok'));
    server = s.server;
    await fetch(`${s.url}/users?limit=5`, {
      headers: { authorization: 'Bearer secret-token', cookie: 'sid=secret-cookie', 'x-request-id': 'req-42' },
    });
    await untilAnswerLogged(s.lines);
    expect(s.lines).toHaveLength(1);
    expect(s.lines[0]).toMatchObject({
      level: 30,
      service: 'test-service',
      req: { id: 'req-42', method: 'GET', url: '/users?limit=5' },
      res: { statusCode: 200 },
      msg: 'request completed',
    });
    expect(Object.keys(s.lines[0].req as object).sort()).toEqual(['id', 'method', 'url']);
    expect(JSON.stringify(s.lines)).not.toMatch(/secret-token|secret-cookie|authorization|cookie/i);
  });

  it('logs 4xx at warn and 5xx at error; at level warn a 2xx is not logged', async () => {
    const statuses = [200, 404, 503];
    let i = 0;
    const s = await loggedServer('warn', (_req, res) => res.writeHead(statuses[i++] as number).end());
    server = s.server;
    for (let n = 0; n < statuses.length; n++) await fetch(`${s.url}/x`);
    await untilAnswerLogged(s.lines, 503);
    expect(s.lines.map((l) => [l.level, (l.res as { statusCode: number }).statusCode])).toEqual([
      [40, 404],
      [50, 503],
    ]);
  });

  it('serializes an error logged during a request with its type, message and stack, beside the request', async () => {
    const s = await loggedServer('info', (req, res) => {
      req.log.error({ err: new TypeError('broken pipe') }, 'handler failed');
      res.writeHead(500).end();
    });
    server = s.server;
    await fetch(`${s.url}/boom`);
    await untilAnswerLogged(s.lines);
    const failure = s.lines.find((l) => l.msg === 'handler failed') as Record<string, never>;
    expect(failure).toMatchObject({
      level: 50,
      req: { method: 'GET', url: '/boom' },
      err: { type: 'TypeError', message: 'broken pipe' },
    });
    expect(failure.err['stack']).toContain('TypeError: broken pipe');
  });

  it('makes a request id when the caller sends none or an unusable one, and echoes it', async () => {
    const s = await loggedServer('info', (_req, res) => res.writeHead(204).end());
    server = s.server;
    const res = await fetch(`${s.url}/y`, { headers: { 'x-request-id': 'bad id with spaces' } });
    await untilAnswerLogged(s.lines);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect((s.lines[0].req as { id: string }).id).toBe(id);
  });
});
