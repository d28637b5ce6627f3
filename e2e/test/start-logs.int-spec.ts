import { EventEmitter } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';

// The log handling of `npm start` (plain JS under tools/start), loaded at run time.
const { attachLogs } = createRequire(__filename)('../../tools/start/logs') as {
  attachLogs: (
    child: EventEmitter,
    o: { name: string; dir: string; out: Writable; verbose?: boolean; plain?: 'always' | 'until-json' },
  ) => { file: string; recent: () => string[]; closed: Promise<void> };
};

/** A child process stand-in: two output streams and the events platform.js listens to. */
function fakeChild() {
  const child = Object.assign(new EventEmitter(), { stdout: new PassThrough(), stderr: new PassThrough() });
  const ended = (s: PassThrough) => new Promise((r) => s.once('end', r));
  /** Ends the output as a real child does ('close' after both streams ended), then waits for the log file. */
  const end = async (logs: { closed: Promise<void> }) => {
    const both = Promise.all([ended(child.stdout), ended(child.stderr)]);
    child.stdout.end();
    child.stderr.end();
    await both;
    child.emit('close');
    await logs.closed;
  };
  return { child, end };
}

function terminal() {
  const lines: string[] = [];
  const out = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { out, lines };
}

const rec = (level: number, extra: object) =>
  JSON.stringify({ level, time: Date.UTC(2026, 0, 1, 9, 30, 5), service: 'alerts', ...extra });

describe('npm start logs: full JSON in .data/logs, a quiet readable terminal', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'start-logs-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes every line to <process>.log unchanged and shows only warnings and errors, one short line each', async () => {
    const { child, end } = fakeChild();
    const { out, lines } = terminal();
    const logs = attachLogs(child, { name: 'alerts', dir, out, plain: 'until-json' });
    const written = [
      rec(30, { context: 'RouterExplorer', msg: 'Mapped {/v2/alerts/webhook, GET} route' }),
      rec(30, {
        req: { id: 'r1', method: 'GET', url: '/v2/alerts/webhook' },
        res: { statusCode: 200 },
        responseTime: 3,
        msg: 'request completed',
      }),
      rec(40, {
        req: { id: 'r2', method: 'GET', url: '/v2/alerts/webhook/x' },
        res: { statusCode: 404 },
        responseTime: 2,
        msg: 'request completed',
      }),
      rec(50, { context: 'Errors', msg: 'Unexpected failure', err: { message: 'x'.repeat(1000) }, error_id: 'e-1' }),
      'query failed: SELECT 1',
      '    FROM somewhere',
    ];
    child.stdout.write(written.slice(0, 3).join('\n') + '\n');
    child.stderr.write(written.slice(3).join('\n') + '\n');
    await end(logs);
    expect(readFileSync(logs.file, 'utf8').trimEnd().split('\n').sort()).toEqual([...written].sort());
    expect(path.relative(dir, logs.file)).toBe('alerts.log');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d WARN {2}\[alerts\] GET \/v2\/alerts\/webhook\/x -> 404 \(2 ms\)$/);
    expect(lines[1]).toMatch(/ERROR \[alerts\] Errors: Unexpected failure: x+…$/);
    expect(lines[1]!.length).toBeLessThan(300);
    // The last lines, readable, for a report when the process dies.
    expect(logs.recent().some((l) => l.includes('INFO  [alerts] GET /v2/alerts/webhook -> 200'))).toBe(true);
  });

  it('shows a crash while loading (plain text before any JSON) and a refused configuration', async () => {
    const { child, end } = fakeChild();
    const { out, lines } = terminal();
    const logs = attachLogs(child, { name: 'oneroster', dir, out, plain: 'until-json' });
    child.stderr.write('Error: Cannot find module x\n    at Module._resolveFilename\n');
    child.stderr.write(
      `${JSON.stringify({ level: 'fatal', service: 'oneroster', msg: 'Invalid configuration', problems: ['PUBLIC_BASE_URL: must be a URL (not set)'] })}\n`,
    );
    await end(logs);
    expect(lines).toEqual([
      '[oneroster] Error: Cannot find module x',
      '[oneroster]     at Module._resolveFilename',
      expect.stringMatching(/FATAL \[oneroster\] Invalid configuration: PUBLIC_BASE_URL: must be a URL \(not set\)$/),
    ]);
  });

  it('always shows the demo receiver lines, one line per request with START_VERBOSE, and keeps the previous run', async () => {
    const first = fakeChild();
    const firstLogs = attachLogs(first.child, { name: 'demo-receiver', dir, out: terminal().out });
    first.child.stdout.write('listening on http://localhost:3010\n');
    await first.end(firstLogs);
    const second = fakeChild();
    const { out, lines } = terminal();
    const secondLogs = attachLogs(second.child, { name: 'demo-receiver', dir, out, plain: 'always', verbose: true });
    second.child.stdout.write('verified notification-only message=m1\n');
    second.child.stdout.write(
      `${rec(30, { req: { method: 'POST', url: '/webhooks/a' }, res: { statusCode: 200 }, responseTime: 1 })}\n`,
    );
    await second.end(secondLogs);
    expect(lines).toEqual([
      '[demo-receiver] verified notification-only message=m1',
      expect.stringMatching(/INFO {2}\[demo-receiver\] POST \/webhooks\/a -> 200 \(1 ms\)$/),
    ]);
    expect(readdirSync(dir).sort()).toEqual(['demo-receiver.log', 'demo-receiver.previous.log']);
    expect(readFileSync(path.join(dir, 'demo-receiver.previous.log'), 'utf8')).toBe(
      'listening on http://localhost:3010\n',
    );
  });
});
