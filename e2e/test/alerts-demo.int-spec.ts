import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import {
  createTestDatabase,
  listeningSocket,
  refusingUrl,
  startServerProcess,
  type ServerProcess,
  type TestDatabase,
} from '@edu/testing';
import {
  demoAlertsConfig,
  registerDemoWebhooks,
  startReceiver,
  type DemoAlertsConfig,
  type DemoReceiver,
} from './demo-tools';
import { clientToken } from './http';
import { buildServices, provisionDemo, runDist, type ServiceProcess, startService } from './processes';

const root = path.resolve(__dirname, '..', '..');
const ISSUER = 'https://identity.e2e.example';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

/** `npm run alerts:demo` as a user runs it, pointed at the test platform. */
function alertsDemo(
  args: string[],
  env: Record<string, string>,
): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [path.join(root, 'tools/demo/alerts/cli.js'), ...args], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The receiver as npm start runs it: its own process, one output line per delivery. */
class ReceiverProcess {
  private server?: ServerProcess;
  url = '';

  /** The lines it printed so far (stdout and stderr). */
  get lines(): string[] {
    return (this.server?.output() ?? '').split('\n').slice(0, -1);
  }

  async start(env: Record<string, string>): Promise<this> {
    const socket = await listeningSocket();
    this.url = `http://localhost:${socket.port}`;
    this.server = await startServerProcess({
      name: 'demo receiver',
      args: [path.join(root, 'tools/demo/alerts/receiver.js')],
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...env, HOST: '127.0.0.1' },
      socket,
      readyPath: '/health',
      timeoutMs: 10_000,
    });
    return this;
  }

  async until(predicate: (lines: string[]) => boolean, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.lines)) {
      if (Date.now() > deadline)
        throw new Error(`receiver: condition not met within ${timeoutMs} ms; its output:\n${this.lines.join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async stop(): Promise<number | null> {
    return (await this.server?.stop())?.code ?? null;
  }
}

/** `k=v` fields of a receiver line (values quoted when they hold spaces). */
function fields(line: string): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const m of line.matchAll(/(\w+)=("(?:[^"\\]|\\.)*"|\S+)/g))
    out[m[1]] = m[2].startsWith('"') ? (JSON.parse(m[2]) as string) : m[2];
  return out;
}

/**
 * The alerts demo of `npm start` end to end: the demo data set loaded with the real provisioning
 * and roster import tools, identity + alerts + dispatcher as processes, the demo receiver as a
 * process, the demo webhooks registered as npm start does, then `alerts:demo`.
 */
describe('alerts demo: npm run alerts:demo delivers to the demo receiver', () => {
  let db: TestDatabase;
  let identity: ServiceProcess;
  let alerts: ServiceProcess;
  let dispatcher: ServiceProcess;
  let receiver: ReceiverProcess;
  let demo: DemoAlertsConfig;
  let cliEnv: Record<string, string>;

  beforeAll(async () => {
    buildServices();
    demo = demoAlertsConfig();
    db = await createTestDatabase();
    provisionDemo(db.url);
    runDist(
      'apps/oneroster/src/imports/cli',
      ['--tenant', demo.tenant.id, '--quiet', path.join(root, 'tools/demo/oneroster', demo.tenant.id)],
      db.url,
    );

    identity = await startService('identity', { DATABASE_URL: db.url, TOKEN_ISSUER: ISSUER });
    const jwksUrl = `${identity.url}/.well-known/jwks.json`;
    const delivery = {
      DATABASE_URL: db.url,
      REDIS_URL: process.env.REDIS_URL as string,
      QUEUE_PREFIX: '{e2e-alerts-demo}',
      TOKEN_ISSUER: ISSUER,
      JWKS_URL: jwksUrl,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_ALLOWED_PORTS: '*',
    };
    [alerts, receiver] = await Promise.all([
      startService('alerts', delivery),
      new ReceiverProcess().start({ JWKS_URL: jwksUrl, TOKEN_ISSUER: ISSUER }),
    ]);
    dispatcher = await startService('webhook-dispatcher', { ...delivery, ALERTS_PUBLIC_BASE_URL: alerts.url });
    cliEnv = { IDENTITY_URL: identity.url, ALERTS_URL: alerts.url, DATABASE_URL: db.url };
  });

  afterAll(async () => {
    await Promise.all([dispatcher?.stop(), alerts?.stop(), receiver?.stop()]);
    await identity?.stop();
    await db?.drop();
  });

  it('registers the demo webhooks once (a second registration keeps them)', async () => {
    const urls = { identityUrl: identity.url, alertsUrl: alerts.url, receiverUrl: receiver.url, config: demo };
    const first = await registerDemoWebhooks(urls);
    expect(first.map((h) => [h.type, h.action])).toEqual([
      ['notification-only', 'created'],
      ['full-payload', 'created'],
    ]);
    const again = await registerDemoWebhooks(urls);
    expect(again.map((h) => [h.webhook_id, h.action])).toEqual(first.map((h) => [h.webhook_id, 'kept']));
    expect(again.every((h) => h.endpoint.startsWith(`${receiver.url}/`))).toBe(true);
  });

  it('submits messages built from the roster and the receiver verifies one delivery of each kind per message', async () => {
    const started = Date.now();
    const run = alertsDemo(['--count', '3'], cliEnv);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const submitted = [
      ...run.stdout.matchAll(
        new RegExp(`message (${UUID})  to ([^:]+): (\\d+) alerts? about .* -> (\\d+) deliveries`, 'g'),
      ),
    ].map((m) => ({ id: m[1], recipient: m[2], alerts: Number(m[3]), deliveries: Number(m[4]) }));
    expect(submitted).toHaveLength(3);
    expect(submitted.every((m) => m.deliveries === 2)).toBe(true);
    expect(run.stdout).toContain(`/v2/alerts/message/$MESSAGE_ID`);

    const verified = () =>
      receiver.lines.filter((l) => l.startsWith('verified ') && submitted.some((m) => l.includes(m.id)));
    await receiver.until(() => verified().length >= 6);
    const jwks = (await (await fetch(`${identity.url}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] };
    const got = verified().map((l): Record<string, string | undefined> => ({ ...fields(l), type: l.split(' ')[1] }));
    expect(got.map((d) => `${d.message} ${d.type}`).sort()).toEqual(
      submitted.flatMap((m) => [`${m.id} full-payload`, `${m.id} notification-only`]).sort(),
    );
    for (const d of got) {
      const m = submitted.find((s) => s.id === d.message)!;
      expect(d).toMatchObject({
        recipient: m.recipient,
        alerts: String(m.alerts),
        app: demo.app.name,
        tenant: demo.tenant.id,
        attempt: '1',
      });
      expect(jwks.keys.map((k) => k.kid)).toContain(d.kid);
      expect(d.kid).toMatch(/^wh-/);
    }
    expect(new Set(got.map((d) => d.jti)).size).toBe(6);
    expect(receiver.lines.filter((l) => l.startsWith('refused') || l.startsWith('duplicate'))).toEqual([]);
    expect(Date.now() - started).toBeLessThan(20_000);

    // What the notification-only receiver then fetches: the message, built from the tenant's roster.
    const access_token = await clientToken(
      identity.url,
      { id: demo.app.clientId, secret: demo.app.clientSecret },
      { tenant_id: demo.tenant.id },
    );
    const res = await fetch(`${alerts.url}/v2/alerts/message/${submitted[0].id}`, {
      headers: { Authorization: `Bearer ${access_token}` },
    });
    expect(res.status).toBe(200);
    const message = (await res.json()) as {
      recipient: { name: string; ext_id: string };
      alerts: {
        name: string;
        badges: { value: string }[];
        alerts: {
          rows: { type: string; list?: string[] }[];
          entity: { ext_id: string };
          student: { current_homeroom: string; current_year_level: number };
        }[];
      }[];
    };
    expect(message.recipient).toMatchObject({
      name: submitted[0].recipient,
      ext_id: expect.stringMatching(/^usr-sg-tch-/),
    });
    for (const group of message.alerts) {
      expect(group.badges[0].value).toMatch(/^Year \d+$/);
      for (const item of group.alerts) {
        expect(item.entity.ext_id).toMatch(/^usr-sg-stu-/);
        expect(item.student.current_homeroom).toMatch(/^\d\d[A-Z]$/);
        expect(item.student.current_year_level).toBeGreaterThan(0);
        expect(item.rows.find((r) => r.type === 'detail')?.list?.length).toBeGreaterThan(0);
      }
    }
  });

  it('names the tenants with a roster for an unknown tenant, and refuses bad arguments', () => {
    const unknown = alertsDemo(['--tenant', '00000000-0000-4000-8000-000000000000'], cliEnv);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toContain('tenant 00000000-0000-4000-8000-000000000000 is not known');
    expect(unknown.stderr).toContain(`${demo.tenant.id}  ${demo.tenant.name}`);

    const badCount = alertsDemo(['--count', 'lots'], cliEnv);
    expect(badCount.status).toBe(2);
    expect(badCount.stderr).toContain('--count must be a whole number');
    expect(badCount.stderr).toContain('usage: npm run alerts:demo');
  });

  it('says which service is not running', async () => {
    const refusing = await refusingUrl();
    const down = alertsDemo([], { ...cliEnv, ALERTS_URL: refusing.url });
    refusing.release();
    expect(down.status).toBe(1);
    expect(down.stderr).toMatch(
      /the alerts service does not answer at http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\): is `npm start` running\?/,
    );
  });
});

/** The receiver's checks, against tokens signed here with a key of a JWKS served here. */
describe('demo receiver: verification, duplicates, refusals', () => {
  const APP = 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d06';
  let jwksServer: Server;
  let receiver: DemoReceiver;
  let key: CryptoKey;
  const lines: string[] = [];

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256');
    key = pair.privateKey;
    const jwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: 'wh-test', alg: 'ES256', use: 'sig' };
    jwksServer = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })),
    );
    await new Promise<void>((r) => jwksServer.listen(0, '127.0.0.1', r));
    const jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks.json`;
    receiver = await startReceiver({
      port: 0,
      host: '127.0.0.1',
      jwksUrl,
      issuer: ISSUER,
      apps: new Map([[APP, 'Wellbeing Pulse']]),
      log: (l) => lines.push(l),
    });
  });

  afterAll(async () => {
    await receiver?.close();
    await new Promise((r) => jwksServer?.close(r));
  });

  function sign(o: { jti?: string; aud?: string; kid?: string; typ?: string; exp?: number } = {}): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      type: 'notification-only',
      tenant_id: '9b8e7d6c-5a4f-4321-8fed-cba987654302',
      notice: { message_id: 'm-1', recipient: { name: 'Arjun Menon' }, alert_count: 3, alert_group_count: 2 },
    })
      .setProtectedHeader({ alg: 'ES256', kid: o.kid ?? 'wh-test', typ: o.typ ?? 'alert-webhook+jwt' })
      .setIssuer(ISSUER)
      .setAudience(o.aud ?? APP)
      .setSubject('m-1')
      .setJti(o.jti ?? randomUUID())
      .setIssuedAt(now - 10)
      .setExpirationTime(o.exp ?? now + 300)
      .sign(key);
  }

  async function post(token: string, contentType = 'application/jwt'): Promise<{ status: number; line: string }> {
    const before = lines.length;
    const res = await fetch(`${receiver.url}/webhooks/test`, {
      method: 'POST',
      headers: { 'content-type': contentType, 'webhook-attempt': '1' },
      body: token,
    });
    await res.text();
    expect(lines.length).toBe(before + 1); // exactly one line per request
    return { status: res.status, line: lines[lines.length - 1] };
  }

  it('verifies a delivery and drops a repeat of the same jti (still 200)', async () => {
    const token = await sign({ jti: 'delivery-1' });
    const first = await post(token);
    expect(first.status).toBe(200);
    expect(first.line).toBe(
      `verified notification-only message=m-1 recipient="Arjun Menon" alerts=3 students=2 app="Wellbeing Pulse" tenant=9b8e7d6c-5a4f-4321-8fed-cba987654302 jti=delivery-1 kid=wh-test attempt=1`,
    );
    const again = await post(await sign({ jti: 'delivery-1' }));
    expect(again.status).toBe(200);
    expect(again.line).toMatch(
      /^duplicate notification-only jti=delivery-1 \(already received; dropped, answered 200\)/,
    );
    expect(receiver.stats).toMatchObject({ verified: 1, duplicates: 1 });
  });

  it.each([
    [
      'another audience',
      { aud: 'c3d4e5f6-a7b8-4c9d-8e1f-2a3b4c5d6e07' },
      'claim aud: unexpected value (not a demo app)',
    ],
    ['an expired token', { exp: Math.floor(Date.now() / 1000) - 60 }, 'expired (exp in the past)'],
    ['an unknown kid', { kid: 'wh-unknown' }, 'kid is not in the platform JWKS'],
    ['an access token type', { typ: 'at+jwt' }, 'claim typ: unexpected value'],
  ])('refuses %s with 401 and says why', async (_name, opts, reason) => {
    const { status, line } = await post(await sign(opts));
    expect(status).toBe(401);
    expect(line).toContain(`refused reason=${JSON.stringify(reason)}`);
  });

  it('refuses a token whose signature was altered, and a body that is not a JWT', async () => {
    const [h, p, s] = (await sign()).split('.');
    const forged = await post(`${h}.${p}.${s.slice(0, -4)}${s.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`);
    expect(forged.status).toBe(401);
    expect(forged.line).toContain('refused reason="signature does not verify"');
    const json = await post('{"not":"a jwt"}', 'application/json');
    expect(json.status).toBe(415);
    expect(json.line).toContain('expected application/jwt');
  });
});
