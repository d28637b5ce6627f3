import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Redis from 'ioredis';
import { decodeJwt } from 'jose';
import { Client } from 'pg';
import {
  createTestDatabase,
  listeningSocket,
  refusingUrl,
  sampleAlertMessage,
  untilClockReaches,
  type ListeningSocket,
  type TestDatabase,
} from '@edu/testing';
import { checkK8sBlock } from './docs-k8s';
import { parseDoc, runDoc, type DocRun, type ServerProcess } from './docs-runner';
import {
  demoAlertsConfig,
  demoSharingConfig,
  shareDemoData,
  startReceiver,
  type DemoAlertsConfig,
  type DemoReceiver,
} from './demo-tools';
import { clientToken } from './http';
import { buildServices, provisionDemo, runDist, type ServiceProcess, startService } from './processes';

const root = path.resolve(__dirname, '..', '..');
const ISSUER = 'https://identity.docs.example';
const QUEUE_PREFIX = '{e2e-docs}';
/** The demo operator credentials (`npm start` prints them; refused in production). */
const OPERATOR = { id: 'operator', secret: 'demo-operator-secret-not-for-production' };
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

/** Every guide, in the order the test runs them (later guides build on what earlier ones did). */
const PARTNER_GUIDES = [
  'getting-a-token',
  'calling-the-apis',
  'oneroster-cookbook',
  'webhooks',
  'keeping-in-sync-events',
  'errors',
  'limits-and-retries',
  'sign-in',
  'sign-in-saml',
].map((g) => `docs/partners/${g}.md`);
const OPERATOR_GUIDES = [
  'rostering-data',
  'deploying-a-region',
  'dispatcher',
  'deliveries',
  'signing-keys',
  'tuning-limits',
  'sign-in',
  'connecting-your-lms',
  'sharing-data-with-an-app',
  'connecting-a-school-sis',
].map((g) => `docs/operators/${g}.md`);
// The sign-in demo's upstream provider (plain JS under tools/), standing in for Google, Microsoft and a school's own.
const load = createRequire(__filename);
const { identitySignInEnv } = load(
  '../../tools/demo/sign-in/config',
) as typeof import('../../tools/demo/sign-in/config');
const { registerRosterEventsWebhook } = load(
  '../../tools/demo/roster-events/webhook',
) as typeof import('../../tools/demo/roster-events/webhook');
const { rosterEventsDemo } = load('../../tools/start/banner') as {
  rosterEventsDemo: (identity: string, oneroster: string) => string[];
};
const { startDemoUpstream } = load(
  '../../tools/demo/sign-in/upstream',
) as typeof import('../../tools/demo/sign-in/upstream');
const { startDemoLms } = load('../../tools/demo/sign-in/lms') as typeof import('../../tools/demo/sign-in/lms');
const { startDemoSamlSp } = load(
  '../../tools/demo/sign-in/saml-sp',
) as typeof import('../../tools/demo/sign-in/saml-sp');
const { pointSamlAppAt } = load(
  '../../tools/demo/sign-in/saml-app',
) as typeof import('../../tools/demo/sign-in/saml-app');
/** Rate limits on, as in production, with a short window so a guide that waits out a 429 waits seconds. */
const LIMITS = {
  RATE_LIMIT_ENABLED: 'true',
  REDIS_URL: process.env.REDIS_URL as string,
  RATE_LIMIT_PREFIX: `rl-docs-${process.pid}`,
  RATE_LIMIT_WINDOW_SECONDS: '10',
};
const GUIDES = [...PARTNER_GUIDES, ...OPERATOR_GUIDES];
/** Debian packages of the tools whose package is named otherwise. */
const TOOL_PACKAGES: Record<string, string> = {
  'redis-cli': 'redis-tools',
  setsid: 'util-linux',
  sftp: 'openssh-client',
  'ssh-keygen': 'openssh-client',
};
/** The API and the sync worker share the sync queue; the demo SIS is this machine's own OneRoster API. */
const ROSTER_SOURCES = {
  QUEUE_PREFIX,
  ROSTER_SOURCE_ALLOW_HTTP: 'true',
  ROSTER_SOURCE_ALLOW_PRIVATE_TARGETS: 'true',
  ROSTER_SOURCE_ALLOWED_PORTS: '*',
};

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function expectRan(run: DocRun): void {
  if (!run.ok) throw new Error(run.failure);
  expect(run.results.length).toBeGreaterThan(0);
}

/**
 * A partner's load balancer in front of the example receiver: passes every request through,
 * except that it loses the receiver's answer to the first alert delivery (the receiver got and
 * processed it; the platform sees a 502). The platform then retries the same delivery, the same
 * `jti`, and the receiver must recognise it.
 */
class LossyProxy {
  private server?: Server;
  lostJti?: string;
  url = '';

  async start(targetPort: number): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const headers: Record<string, string> = {};
        for (const h of ['content-type', 'webhook-id', 'webhook-attempt', 'webhook-timestamp', 'webhook-signature'])
          if (req.headers[h]) headers[h] = String(req.headers[h]);
        fetch(`http://127.0.0.1:${targetPort}${req.url}`, {
          method: req.method,
          headers,
          body: req.method === 'POST' ? body : undefined,
        })
          .then(async (answer) => {
            const text = await answer.text();
            let claims: Record<string, unknown> = {};
            try {
              claims = decodeJwt(body.toString('utf8'));
            } catch {
              /* not a token */
            }
            if (!this.lostJti && claims.type && claims.type !== 'test' && answer.status === 200) {
              this.lostJti = String(claims.jti);
              res.writeHead(502).end('bad gateway');
              return;
            }
            res
              .writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' })
              .end(text);
          })
          .catch(() => res.writeHead(502).end('receiver down'));
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/alerts`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

/**
 * docs/: every `sh` block of every guide runs, in order, against the compiled services as
 * processes on a fresh database holding the demo data set (conventions: docs/README.md).
 */
describe('docs: every command of the partner and operator guides runs against the real stack', () => {
  let db: TestDatabase;
  let pg: Client;
  let identity: ServiceProcess;
  let oneroster: ServiceProcess;
  let alerts: ServiceProcess;
  let dispatcher: ServiceProcess;
  /** The roster sync worker and its SFTP endpoint (docs/operators/connecting-a-school-sis.md). */
  let rosterSync: ServiceProcess;
  let sftpPort: number;
  let demo: DemoAlertsConfig;
  let demoReceiver: DemoReceiver;
  let demoUpstream: Awaited<ReturnType<typeof startDemoUpstream>>;
  let demoLms: Awaited<ReturnType<typeof startDemoLms>>;
  let demoSamlSp: Awaited<ReturnType<typeof startDemoSamlSp>>;
  const demoLines: string[] = [];
  let proxy: LossyProxy;
  /** The socket of the example receiver that partners/webhooks.md starts. */
  let receiverSocket: ListeningSocket;
  /** Where a webhook that is down points: connections are refused there. */
  let down: Awaited<ReturnType<typeof refusingUrl>>;
  let deliveryEnv: Record<string, string>;
  let dispatcherEnv: Record<string, string>;
  let partnerToken: string;
  let operatorToken: string;
  let messageId: string;
  /** A webhook of the demo app pointing at an endpoint that is down: its deliveries become undeliverable. */
  let downHook: string;
  const servers: ServerProcess[] = [];

  const env = (): Record<string, string> => ({
    IDENTITY: identity.url,
    ONEROSTER: oneroster.url,
    ALERTS: alerts.url,
    DISPATCHER: dispatcher.url,
    ISSUER,
    DATABASE_URL: db.url,
    GLOBAL_DATABASE_URL: db.url,
    REGIONAL_DATABASE_URL: db.url,
    REDIS_URL: process.env.REDIS_URL as string,
    RECEIVER_PORT: String(receiverSocket.port),
    WEBHOOK_ENDPOINT: proxy.url,
    MESSAGE_ID: messageId,
    WEBHOOK_ID: downHook,
    DEMO_UPSTREAM: demoUpstream.issuer,
    DEMO_LMS: demoLms.issuer,
    SAML_SP: demoSamlSp.url,
    ROSTER_SYNC: rosterSync.url,
    SFTP_HOST: '127.0.0.1',
    SFTP_PORT: String(sftpPort),
  });

  async function submitMessage(): Promise<string> {
    const res = await fetch(`${alerts.url}/v2/alerts/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tenant_id: demo.tenant.id, messages: [sampleAlertMessage()] }),
    });
    if (res.status !== 201) throw new Error(`submit: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { messages: { message_id: string }[] }).messages[0].message_id;
  }

  const rows = async <T>(sql: string, params: unknown[] = []): Promise<T[]> =>
    (await pg.query(sql, params)).rows as T[];

  beforeAll(async () => {
    // The guides' tools (docs/README.md): name a missing one instead of failing a guide obscurely.
    const missing = ['bash', 'curl', 'jq', 'zip', 'redis-cli', 'setsid', 'openssl', 'sftp', 'ssh-keygen'].filter(
      (tool) => spawnSync('bash', ['-c', `command -v ${tool}`]).status !== 0,
    );
    if (missing.length)
      throw new Error(
        `the docs test needs ${missing.join(', ')} on PATH (Debian: apt-get install ${[...new Set(missing.map((t) => TOOL_PACKAGES[t] ?? t))].join(' ')})`,
      );
    buildServices();
    demo = demoAlertsConfig();
    db = await createTestDatabase();
    provisionDemo(db.url);
    for (const tenant of readdirSync(path.join(root, 'tools/demo/oneroster')).filter((d) => UUID.test(d))) {
      runDist(
        'apps/oneroster/src/imports/cli',
        ['--tenant', tenant, '--quiet', path.join(root, 'tools/demo/oneroster', tenant)],
        db.url,
      );
    }
    pg = new Client({ connectionString: db.url });
    await pg.connect();

    // Sign-in: the OpenID Connect issuer is the address the guides call; its core providers are the demo upstream.
    const [identitySocket, upstreamSocket] = [await listeningSocket(), await listeningSocket()];
    const identityUrl = identitySocket.url;
    const upstreamUrl = upstreamSocket.url;
    const signIn = { PUBLIC_BASE_URL: identityUrl, ...identitySignInEnv(upstreamUrl, {}) };
    identity = await startService(
      'identity',
      { DATABASE_URL: db.url, TOKEN_ISSUER: ISSUER, ...LIMITS, ...signIn },
      { socket: identitySocket },
    );
    demoUpstream = await startDemoUpstream({ port: upstreamSocket.handOver(), issuer: upstreamUrl, identityUrl });
    const lmsSocket = await listeningSocket();
    demoLms = await startDemoLms({ port: lmsSocket.handOver(), issuer: lmsSocket.url });
    // As npm start does: the demo SAML app's settings point at the demo SAML service provider.
    const samlSpSocket = await listeningSocket();
    demoSamlSp = await startDemoSamlSp({ port: samlSpSocket.handOver(), baseUrl: samlSpSocket.url, identityUrl });
    await pointSamlAppAt({ identityUrl, spUrl: demoSamlSp.url, operator: OPERATOR });
    const jwksUrl = `${identity.url}/.well-known/jwks.json`;
    deliveryEnv = {
      DATABASE_URL: db.url,
      REDIS_URL: process.env.REDIS_URL as string,
      QUEUE_PREFIX,
      TOKEN_ISSUER: ISSUER,
      JWKS_URL: jwksUrl,
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_ALLOWED_PORTS: '*',
    };
    receiverSocket = await listeningSocket();
    [proxy, demoReceiver] = await Promise.all([
      new LossyProxy().start(receiverSocket.port),
      startReceiver({
        port: 0,
        host: '127.0.0.1',
        jwksUrl,
        issuer: ISSUER,
        apps: demo.knownApps,
        log: (l) => demoLines.push(l),
      }),
    ]);
    [oneroster, alerts] = await Promise.all([
      // development: links in answers are built on http://localhost:<port>, the URL the guides call.
      startService('oneroster', {
        DATABASE_URL: db.url,
        TOKEN_ISSUER: ISSUER,
        JWKS_URL: jwksUrl,
        NODE_ENV: 'development',
        ...LIMITS,
        ...ROSTER_SOURCES,
      }),
      startService('alerts', { ...deliveryEnv, ...LIMITS }),
    ]);
    // A fast schedule (the whole of it in about 5 s) and a sweeper that notices lost jobs at once.
    dispatcherEnv = {
      ...deliveryEnv,
      ALERTS_PUBLIC_BASE_URL: alerts.url,
      WEBHOOK_RETRY_BASE_MS: '5',
      WEBHOOK_SWEEP_INTERVAL_MS: '500',
      WEBHOOK_SWEEP_GRACE_MS: '1000',
    };
    dispatcher = await startService('webhook-dispatcher', dispatcherEnv);
    const sftpSocket = await listeningSocket();
    sftpPort = sftpSocket.port;
    rosterSync = await startService(
      'roster-sync',
      {
        DATABASE_URL: db.url,
        REDIS_URL: process.env.REDIS_URL as string,
        TOKEN_ISSUER: ISSUER,
        ...ROSTER_SOURCES,
        ROSTER_SFTP_ROOT: mkdtempSync(path.join(tmpdir(), 'docs-sftp-')),
        ROSTER_SFTP_SCAN_INTERVAL_MS: '300',
      },
      { entry: 'apps/oneroster/src/sources/worker/main', moreSockets: { ROSTER_SFTP_LISTEN_FD: sftpSocket } },
    );

    operatorToken = await clientToken(identity.url, OPERATOR);
    partnerToken = await clientToken(
      identity.url,
      { id: demo.app.clientId, secret: demo.app.clientSecret },
      { tenant_id: demo.tenant.id },
    );
    down = await refusingUrl();
    const created = await fetch(`${alerts.url}/v2/alerts/webhook`, {
      method: 'POST',
      headers: { authorization: `Bearer ${partnerToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ endpoint: `${down.url}/down`, type: 'notification-only' }),
    });
    downHook = ((await created.json()) as { webhook_id: string }).webhook_id;
    // The message partners read in calling-the-apis.md; its delivery to the dead endpoint becomes undeliverable.
    messageId = await submitMessage();
    // As npm start does: Lion City shares only its maths classes with Maths Quest (the guides show it).
    await shareDemoData({ identityUrl: identity.url });
  }, 180_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await Promise.all([
      rosterSync?.stop(),
      dispatcher?.stop(),
      alerts?.stop(),
      oneroster?.stop(),
      proxy?.stop(),
      demoReceiver?.close(),
      demoUpstream?.close(),
      demoLms?.stop(),
      demoSamlSp?.close(),
      receiverSocket?.close(),
    ]);
    down?.release();
    await identity?.stop();
    await pg?.end();
    await db?.drop();
  });

  it('every guide follows the block conventions, is linked from docs/README.md, and its relative links resolve', () => {
    const readme = readFileSync(path.join(root, 'docs/README.md'), 'utf8');
    const all = ['docs/README.md', ...GUIDES];
    const onDisk = ['partners', 'operators'].flatMap((d) =>
      readdirSync(path.join(root, 'docs', d)).map((f) => `docs/${d}/${f}`),
    );
    expect(onDisk.sort()).toEqual([...GUIDES].sort());
    for (const file of all) {
      parseDoc(file); // throws on a refused fence
      if (file !== 'docs/README.md') expect(readme).toContain(`(${path.relative('docs', file)})`);
      const text = readFileSync(path.join(root, file), 'utf8');
      for (const m of text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(m[1])) continue;
        expect({ file, link: m[1], exists: existsSync(path.resolve(root, path.dirname(file), m[1])) }).toEqual({
          file,
          link: m[1],
          exists: true,
        });
      }
    }
  });

  it('every command that needs a cluster names kustomizations that render and objects that exist', () => {
    const problems = GUIDES.flatMap((file) =>
      parseDoc(file)
        .blocks.filter((b) => b.kind === 'k8s')
        .flatMap((b) => checkK8sBlock(file, b)),
    );
    expect(problems).toEqual([]);
    expect(GUIDES.flatMap((file) => parseDoc(file).blocks.filter((b) => b.kind === 'k8s')).length).toBeGreaterThan(0);
  });

  it.each(['getting-a-token', 'calling-the-apis', 'oneroster-cookbook'])('partners/%s.md', async (guide) => {
    expectRan(await runDoc(parseDoc(`docs/partners/${guide}.md`), env()));
  });

  it('partners/webhooks.md: the example receiver verifies the platform deliveries, drops the retry of a delivery it already had, and takes a redelivery', async () => {
    const run = await runDoc(parseDoc('docs/partners/webhooks.md'), env(), undefined, receiverSocket);
    servers.push(...run.servers);
    expectRan(run);
    expect(run.servers).toHaveLength(1);
    const receiver = run.servers[0];
    const lines = receiver.output().split('\n').filter(Boolean);
    await receiver.stop();
    const verified = lines.filter((l) => l.startsWith('verified '));
    // The test delivery, the message (first attempt, whose answer the proxy lost), the redelivery.
    expect(verified.map((l) => /type=(\S+)/.exec(l)?.[1])).toEqual(['test', 'notification-only', 'notification-only']);
    expect(proxy.lostJti).toMatch(UUID);
    expect(verified[1]).toContain(`jti=${proxy.lostJti} `);
    expect(verified[1]).toMatch(/attempt=1$/);
    expect(lines.filter((l) => l.startsWith('duplicate '))).toEqual([
      `duplicate type=notification-only jti=${proxy.lostJti} attempt=2`,
    ]);
    // The redelivery is the same message under a new jti.
    expect(/message=(\S+)/.exec(verified[2])?.[1]).toBe(/message=(\S+)/.exec(verified[1])?.[1]);
    expect(verified[2]).not.toContain(proxy.lostJti!);
    expect(lines.filter((l) => l.startsWith('refused'))).toEqual([]);
    // The stock standardwebhooks library verified every delivery too, with the secret newWebhook
    // answered, also after the guide rotated it (the overlap keeps the old one signing).
    for (const l of verified) expect(l).toContain(' webhook-signature=verified ');
    // Every token it accepted was signed by a key the JWKS publishes.
    const kids = (
      (await (await fetch(`${identity.url}/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] }
    ).keys.map((k) => k.kid);
    for (const l of verified) expect(kids).toContain(/kid=(\S+)/.exec(l)?.[1]);
  });

  it('partners/keeping-in-sync-events.md: the pull loop sees a change, an update with its former values and a delete; a roster-events webhook gets the next change pushed', async () => {
    // Its own receiver on a socket of its own, reached directly (the alert guide's lossy proxy is not in the way).
    const socket = await listeningSocket();
    const run = await runDoc(
      parseDoc('docs/partners/keeping-in-sync-events.md'),
      { ...env(), RECEIVER_PORT: String(socket.port), WEBHOOK_ENDPOINT: `${socket.url}/roster` },
      undefined,
      socket,
    );
    servers.push(...run.servers);
    expectRan(run);
    expect(run.servers).toHaveLength(1);
    const receiver = run.servers[0];
    const lines = receiver.output().split('\n').filter(Boolean);
    await receiver.stop();
    // The example receiver verified the pushed batch like any delivery (JWKS, typ, issuer, audience).
    expect(lines.filter((l) => l.startsWith('verified ')).map((l) => /type=(\S+)/.exec(l)?.[1])).toEqual([
      'roster.events',
    ]);
    expect(lines.filter((l) => l.startsWith('refused'))).toEqual([]);
  });

  it("npm start's roster-events demo: the banner's write reaches Class Roster Sync's webhook at the demo receiver, and its pull shows it", async () => {
    const hook = await registerRosterEventsWebhook({
      identityUrl: identity.url,
      alertsUrl: alerts.url,
      receiverUrl: demoReceiver.url,
    });
    expect(hook.action).toBe('created');
    // Registering again keeps it (npm start runs it at every start).
    expect(
      (
        await registerRosterEventsWebhook({
          identityUrl: identity.url,
          alertsUrl: alerts.url,
          receiverUrl: demoReceiver.url,
        })
      ).action,
    ).toBe('kept');
    const banner = rosterEventsDemo(identity.url, oneroster.url);
    const ran = spawnSync('bash', ['-euo', 'pipefail', '-c', banner.join('\n')], { encoding: 'utf8', timeout: 30_000 });
    expect({ status: ran.status, stderr: ran.stderr }).toEqual({ status: 0, stderr: '' });
    expect(ran.stdout).toContain('"type":"categories.created","object":"categories","sourcedId":"cat-demo-homework"');
    await until('the pushed batch at the demo receiver', async () =>
      demoLines.some(
        (l) => l.startsWith('verified roster.events ') && l.includes('first="categories.created cat-demo-homework"'),
      ),
    );
  });

  it('partners/errors.md', async () => {
    expectRan(await runDoc(parseDoc('docs/partners/errors.md'), env()));
  });

  it('partners/limits-and-retries.md: with a small read budget set on the app’s deployment, the guide runs into a 429, waits as told and goes on', async () => {
    // The situation the guide deals with: the operator gave this deployment 3 reads a window.
    const appId = decodeJwt(partnerToken).sub as string;
    const setQuota = async (quota: number | null) => {
      const res = await fetch(`${identity.url}/tenants/${demo.tenant.id}/apps/${appId}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${operatorToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ settings: { rate_limit_read: quota } }),
      });
      expect(res.status).toBe(200);
      // OneRoster caches a deployment's settings (5 s, libs/persistence DeploymentQuotaReader):
      // read as the partner until its answers (refusals too) show the budget in force.
      const small = '"read-client";q=3;';
      const read = await until(`the read quota ${quota} in force`, async () => {
        const answer = await fetch(`${oneroster.url}/ims/oneroster/v1p1/orgs?limit=1`, {
          headers: { authorization: `Bearer ${partnerToken}` },
        });
        await answer.arrayBuffer();
        const inForce = (answer.headers.get('ratelimit-policy') ?? '').includes(small) === (quota === 3);
        return inForce && { at: Date.now(), headers: answer.headers };
      });
      // The guide starts with the whole budget: the window these reads spent ends first (RateLimit's t).
      const resetSeconds = /"read-client";r=\d+;t=(\d+)/.exec(read.headers.get('ratelimit') ?? '')?.[1];
      if (quota !== null) await untilClockReaches(read.at + Number(resetSeconds ?? 0) * 1000);
    };
    await setQuota(3);
    try {
      const run = await runDoc(parseDoc('docs/partners/limits-and-retries.md'), env());
      expectRan(run);
      expect(run.results.map((r) => r.stdout).join('\n')).toMatch(/request [1-3] answered 429/);
    } finally {
      await setQuota(null);
    }
    const metrics = await (await fetch(`${oneroster.url}/metrics`)).text();
    expect(metrics).toMatch(
      /^http_requests_rate_limited_total\{route="\/ims\/oneroster\/v1p1\/orgs",client="demo-wellbeing-pulse",policy="read-client"\} [1-9]/m,
    );
  });

  it('partners/sign-in.md: discovery, PKCE, a person signed in at the demo provider, the code exchange, the claims, refresh, logout', async () => {
    expectRan(await runDoc(parseDoc('docs/partners/sign-in.md'), env()));
  });

  it.each(['rostering-data', 'deploying-a-region', 'dispatcher'])('operators/%s.md', async (guide) => {
    expectRan(await runDoc(parseDoc(`docs/operators/${guide}.md`), env()));
  });

  it('operators/deliveries.md: after the endpoint is fixed, its undeliverable deliveries are replayed and arrive; after a Redis loss, the sweeper re-queues what Redis lost', async () => {
    // The dead endpoint's deliveries have all given up.
    const undeliverable = await until('the down webhook has no delivery under way', async () => {
      const open = await rows<{ n: number }>(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1 AND status IN ('pending', 'awaiting_retry', 'sending')`,
        [downHook],
      );
      const done = await rows<{ id: string; message_id: string }>(
        `SELECT id, message_id FROM webhook_deliveries WHERE webhook_id = $1 AND status = 'undeliverable'`,
        [downHook],
      );
      return open[0].n === 0 && done.length > 0 && done;
    });
    // The partner fixes its endpoint: the demo receiver stands in for it.
    const fixed = await fetch(`${alerts.url}/v2/alerts/webhook/${downHook}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${partnerToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ endpoint: `${demoReceiver.url}/webhooks/fixed` }),
    });
    expect(fixed.status).toBe(200);

    // Redis loses the queue while a delivery is queued and no dispatcher runs.
    await dispatcher.stop();
    const lostMessage = await submitMessage();
    const redis = new Redis(process.env.REDIS_URL as string);
    try {
      const keys = await redis.keys(`${QUEUE_PREFIX}:*`);
      expect(keys.length).toBeGreaterThan(0);
      await redis.del(...keys);
    } finally {
      redis.disconnect();
    }
    dispatcher = await startService('webhook-dispatcher', dispatcherEnv);
    await until('the sweeper re-queued the lost delivery and it was delivered', async () => {
      const [d] = await rows<{ status: string }>(
        `SELECT status FROM webhook_deliveries WHERE message_id = $1 AND webhook_id = $2`,
        [lostMessage, downHook],
      );
      const metrics = await (await fetch(`${dispatcher.url}/metrics`)).text();
      return d?.status === 'delivered' && /^webhook_deliveries_requeued_total\{reason="lost"\} [1-9]/m.test(metrics);
    });

    expectRan(await runDoc(parseDoc('docs/operators/deliveries.md'), env()));

    // Every undeliverable delivery was replayed once, and each replay reached the fixed endpoint.
    const replays = await until('the replays were delivered', async () => {
      const r = await rows<{ redelivery_of: string; status: string; message_id: string }>(
        `SELECT redelivery_of, status, message_id FROM webhook_deliveries WHERE webhook_id = $1 AND trigger = 'redeliver'`,
        [downHook],
      );
      return r.length > 0 && r.every((x) => x.status === 'delivered') && r;
    });
    expect(replays.map((r) => r.redelivery_of).sort()).toEqual(undeliverable.map((u) => u.id).sort());
    for (const r of replays)
      expect(demoLines.some((l) => l.startsWith('verified ') && l.includes(`message=${r.message_id}`))).toBe(true);
  });

  it('operators/signing-keys.md', async () => {
    expectRan(await runDoc(parseDoc('docs/operators/signing-keys.md'), env()));
  });

  it('operators/tuning-limits.md', async () => {
    expectRan(await runDoc(parseDoc('docs/operators/tuning-limits.md'), env()));
  });

  it('partners/sign-in-saml.md: the school’s IdP metadata, a person signed in to the demo SAML app, the response’s checks, the claims, a replay refused', async () => {
    expectRan(await runDoc(parseDoc('docs/partners/sign-in-saml.md'), env()));
  });

  it('operators/sign-in.md: a school adds its own provider and an unknown parent gets an account just in time', async () => {
    expectRan(await runDoc(parseDoc('docs/operators/sign-in.md'), env()));
    // One tenant-user, in one constituency: the one that allows the provider and self-service provisioning.
    const made = await rows<{ tenant_id: string; constituencies: string[] }>(
      `SELECT tu.tenant_id, tu.constituencies FROM tenant_users tu JOIN users u ON u.id = tu.user_id WHERE u.email = 'alex.visitor@example.com'`,
    );
    expect(made).toEqual([{ tenant_id: '9b8e7d6c-5a4f-4321-8fed-cba987654302', constituencies: ['guardian'] }]);
  });

  it('operators/sharing-data-with-an-app.md: a draft with rules, its preview, its activation, what the app then sees, the audit trail', async () => {
    expectRan(await runDoc(parseDoc('docs/operators/sharing-data-with-an-app.md'), env()));
    const [active] = await rows<{ mode: string }>(
      `SELECT active ->> 'mode' AS mode FROM deployment_sharing WHERE app_id = $1`,
      [demoSharingConfig().app.id],
    );
    expect(active?.mode).toBe('rules');
  });

  it('operators/connecting-your-lms.md: the demo LMS launches a student into the partner app; a stranger is refused', async () => {
    expectRan(await runDoc(parseDoc('docs/operators/connecting-your-lms.md'), env()));
    // Arjun was found by e-mail at the first launch: his record now holds the LMS's subject for him.
    const [lti] = await rows<{ id: string }>(
      `SELECT id FROM identity_providers WHERE type = 'lti1.3' AND lti ->> 'client_id' = 'demo-lms-tool'`,
    );
    const held = await rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM tenant_users tu JOIN users u ON u.id = tu.user_id WHERE u.email = 'arjun.menon@lioncity.edu.example' AND tu.idp_identifiers @> $1::jsonb`,
      [JSON.stringify([{ idp_id: lti.id }])],
    );
    expect(held).toEqual([{ n: 1 }]);
    expect(await rows(`SELECT id FROM users WHERE email = 'new.learner@lioncity.edu.example'`)).toEqual([]);
  });

  it('operators/connecting-a-school-sis.md: a SIS API synced, a schedule, a wiping sync held and rejected, an SFTP drop imported and archived', async () => {
    expectRan(await runDoc(parseDoc('docs/operators/connecting-a-school-sis.md'), env()));
    const syncs = await rows<{ status: string; trigger: string }>(
      `SELECT s.status, s.trigger FROM roster_syncs s JOIN tenants t ON t.id = s.tenant_id WHERE t.name = 'Bayview College' ORDER BY s.created_at`,
    );
    expect(syncs.map((s) => `${s.trigger}:${s.status}`)).toEqual([
      'manual:succeeded',
      'manual:succeeded',
      'manual:rejected',
      'sftp:succeeded',
    ]);
  });

  it('names only metrics the services export', async () => {
    const exported = new Set<string>();
    for (const service of [identity, oneroster, alerts, dispatcher]) {
      for (const line of (await (await fetch(`${service.url}/metrics`)).text()).split('\n')) {
        const name = /^([a-z_:]+)[{ ]/.exec(line)?.[1];
        if (name) exported.add(name);
      }
    }
    const named = new Set<string>();
    for (const file of GUIDES) {
      for (const m of readFileSync(path.join(root, file), 'utf8').matchAll(
        /\b((?:webhook|http_request|alert_messages)_[a-z_]*(?:_total|_seconds|_jobs|_count|_sum|_bucket))\b/g,
      ))
        named.add(m[1]);
    }
    expect(named.size).toBeGreaterThan(5);
    expect([...named].filter((n) => !exported.has(n) && !exported.has(`${n}_count`))).toEqual([]);
  });
});
