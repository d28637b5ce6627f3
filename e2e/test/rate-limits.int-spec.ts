import Redis from 'ioredis';
import { ScopeCatalog } from '@edu/domain';
import { createTestDatabase, sampleAlertMessage, untilClockReaches, World, type TestDatabase } from '@edu/testing';
import { DataSource } from 'typeorm';
import { createDataSource } from '@edu/persistence';
import { queuedRequest } from './http';
import { startRedis, type RedisServer } from './infra';
import { buildServices, startService, type ServiceProcess } from './processes';

const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
});
const PARTNER_SCOPES = [
  'roster-core.readonly',
  'v1p2.roster-core.readonly',
  'gradebook.delete',
  'id.tenant-core.readonly',
  'alerts.messages.read',
] as const;
const OPERATOR = { id: 'operator', secret: 'rate-limit-spec-operator-secret' };
const WINDOW_SECONDS = 6;

/** Small budgets, so a few requests spend them; the window is short so a refused client comes back within a test. */
const LIMITS = {
  RATE_LIMIT_ENABLED: 'true',
  RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS),
  RATE_LIMIT_READ_PER_CLIENT: '5',
  RATE_LIMIT_READ_PER_TENANT: '1000',
  RATE_LIMIT_GRADEBOOK_WRITE_PER_CLIENT: '50',
  RATE_LIMIT_TOKEN_PER_CLIENT: '4',
  RATE_LIMIT_TOKEN_PER_ADDRESS: '40',
  RATE_LIMIT_ALERT_SUBMISSIONS: '2',
  RATE_LIMIT_SIGN_IN_PER_ADDRESS: '3',
  RATE_LIMIT_SIGN_IN_ASSETS_PER_ADDRESS: '50',
  LOG_LEVEL: 'error',
};

interface Answer {
  status: number;
  headers: Headers;
  body: ReturnType<typeof JSON.parse>;
}

async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const imsxMinor = (info: { imsx_CodeMinor: { imsx_codeMinorField: { imsx_codeMinorFieldValue: string }[] } }) =>
  info.imsx_CodeMinor.imsx_codeMinorField[0].imsx_codeMinorFieldValue;

/**
 * Rate limits and load shedding over real HTTP, with real tokens from the identity process and the
 * counters in a Redis of this spec's own (which it stops at the end): the headers of every answer,
 * the 429s in each API's format with Retry-After, one budget shared by two processes of a service,
 * the token endpoint's own budgets, the operator's per-deployment quota, shedding during an
 * event-loop stall, and failing open for reads while Redis is down.
 */
describe('rate limits and load shedding (separate processes, own Redis)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let redis: RedisServer;
  let identity: ServiceProcess;
  let rosterA: ServiceProcess;
  let rosterB: ServiceProcess;
  let alerts: ServiceProcess;
  let world: World;
  let tenantId: string;
  /** When the token budget of this address, spent by a test, is there again. */
  let tokenAddressFreeAt = 0;

  /** A fresh partner deployment (its own client budget) and a token for it. */
  async function partner(
    scopes: readonly string[] = PARTNER_SCOPES,
  ): Promise<{ clientId: string; secret: string; appId: string; token: string }> {
    const dev = await world.developer();
    const app = await world.app({ type: 'developer', id: dev.id });
    await world.deploy(
      app.app.id,
      tenantId,
      scopes.map((s) => catalog.uri(s as never)),
    );
    const token = await tokenFor(app.clientId, app.clientSecret, { tenant_id: tenantId });
    expect(token.status).toBe(200);
    return { clientId: app.clientId, secret: app.clientSecret, appId: app.app.id, token: token.body.access_token };
  }

  const tokenFor = (
    id: string,
    secret: string,
    form: Record<string, string> = {},
    headers: Record<string, string> = {},
  ) =>
    call(`${identity.url}/oauth/token`, {
      method: 'POST',
      headers: { Authorization: basic(id, secret), 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams({ grant_type: 'client_credentials', ...form }),
    });

  const readOrgs = (service: ServiceProcess, token: string, version: 'v1p1' | 'v1p2' = 'v1p1') =>
    call(`${service.url}/ims/oneroster/${version === 'v1p1' ? 'v1p1' : 'rostering/v1p2'}/orgs`, {
      headers: bearer(token),
    });

  beforeAll(async () => {
    buildServices();
    [db, redis] = await Promise.all([createTestDatabase(), startRedis()]);
    ds = createDataSource({ url: db.url, poolSize: 2 });
    await ds.initialize();
    world = new World(ds);
    tenantId = (await world.tenant()).id;
    const common = {
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      QUEUE_PREFIX: '{rl-spec}',
      OPERATOR_CLIENT_ID: OPERATOR.id,
      OPERATOR_CLIENT_SECRET: OPERATOR.secret,
      ...LIMITS,
    };
    identity = await startService('identity', common);
    const verifier = {
      ...common,
      TOKEN_ISSUER: 'http://localhost:3000',
      JWKS_URL: `${identity.url}/.well-known/jwks.json`,
    };
    const roster = { ...verifier, PUBLIC_BASE_URL: 'https://roster.limits.example' };
    [rosterA, rosterB, alerts] = await Promise.all([
      startService('oneroster', roster),
      // Only B sheds: the stall test freezes it; a generous bound keeps a busy test machine from tripping it by chance.
      startService('oneroster', { ...roster, SHED_EVENT_LOOP_LAG_MS: '1000' }),
      startService('alerts', verifier),
    ]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([rosterA?.stop(), rosterB?.stop('SIGKILL'), alerts?.stop('SIGKILL')]);
    await identity?.stop();
    await ds?.destroy();
    await redis?.stop().catch(() => undefined);
    await db?.drop();
  });

  it('every answer carries RateLimit-Policy and RateLimit; past the budget OneRoster answers 429 server_busy with Retry-After, in each version\u2019s envelope', async () => {
    const p = await partner();
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await readOrgs(rosterA, p.token));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers[0].headers.get('ratelimit-policy')).toBe(
      `"read-client";q=5;w=${WINDOW_SECONDS}, "read-tenant";q=1000;w=${WINDOW_SECONDS}`,
    );
    expect(
      answers.map(
        (a) => /^"read-client";r=(\d+);t=\d+, "read-tenant";r=\d+;t=\d+$/.exec(a.headers.get('ratelimit') ?? '')?.[1],
      ),
    ).toEqual(['4', '3', '2', '1', '0']);

    const refused = await readOrgs(rosterA, p.token);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
    expect(refused.headers.get('ratelimit')).toBe(`"read-client";r=0;t=${retryAfter}`);
    expect(refused.body.statusInfoSet[0]).toMatchObject({ imsx_codeMajor: 'failure', imsx_severity: 'error' });
    expect(imsxMinor(refused.body.statusInfoSet[0])).toBe('server_busy');

    // v1.2 spends the same read budget and answers with one bare imsx_StatusInfo.
    const v1p2 = await readOrgs(rosterA, p.token, 'v1p2');
    expect(v1p2.status).toBe(429);
    expect(v1p2.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(v1p2.body.statusInfoSet).toBeUndefined();
    expect(imsxMinor(v1p2.body)).toBe('server_busy');
  });

  it('two processes of one service spend one budget, and a client that ignores its 429s keeps getting them at constant cost, until the window ends', async () => {
    const p = await partner();
    const alternating = [];
    for (let i = 0; i < 8; i++) alternating.push((await readOrgs(i % 2 === 0 ? rosterA : rosterB, p.token)).status);
    expect(alternating).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);

    const redisClient = new Redis(redis.url);
    try {
      const keysBefore = await redisClient.dbsize();
      const retries: number[] = [];
      const started = Date.now();
      let lastRefusalAt = 0;
      for (let i = 0; i < 30; i++) {
        const again = await readOrgs(i % 2 === 0 ? rosterA : rosterB, p.token);
        lastRefusalAt = Date.now();
        expect(again.status).toBe(429);
        retries.push(Number(again.headers.get('retry-after')));
      }
      // Refusals store nothing new and never push the window further out.
      expect(await redisClient.dbsize()).toBe(keysBefore);
      for (let i = 1; i < retries.length; i++) expect(retries[i]).toBeLessThanOrEqual(retries[i - 1]);
      expect(Date.now() - started).toBeLessThan(10_000);
      // Retry-After, counted from the answer that said it, is enough.
      await untilClockReaches(lastRefusalAt + retries[retries.length - 1] * 1000);
      expect((await readOrgs(rosterB, p.token)).status).toBe(200);
    } finally {
      redisClient.disconnect();
    }
  }, 30_000);

  it('the token endpoint has its own budgets per source address and per authenticated client id, answered in RFC 6749 form; a spoofed X-Forwarded-For changes nothing', async () => {
    const a = await partner();
    const p2 = await partner();
    // a's reads are spent; its token requests are a separate budget.
    for (let i = 0; i < 6; i++) await readOrgs(rosterA, a.token);
    // partner() took the first of a's four tokens of this window.
    const tokens = [];
    for (let i = 0; i < 3; i++) tokens.push(await tokenFor(a.clientId, a.secret, { tenant_id: tenantId }));
    expect(tokens.map((t) => t.status)).toEqual([200, 200, 200]);
    expect(tokens[0].headers.get('ratelimit-policy')).toBe(
      [
        `"token-address";q=40;w=${WINDOW_SECONDS}`,
        `"token-failures-address";q=100;w=${WINDOW_SECONDS}`,
        `"token-failures-client-address";q=20;w=${WINDOW_SECONDS}`,
        `"token-client";q=4;w=${WINDOW_SECONDS}`,
      ].join(', '),
    );
    // The client's own budget counts the tokens it authenticated for (shown once this one is counted).
    expect(tokens[2].headers.get('ratelimit')).toMatch(/^"token-address";r=\d+;t=\d+, .*"token-client";r=0;t=\d+$/);

    const spent = await tokenFor(a.clientId, a.secret, { tenant_id: tenantId });
    expect(spent.status).toBe(429);
    expect(spent.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(spent.headers.get('cache-control')).toBe('no-store');
    expect(spent.body).toMatchObject({ error: 'slow_down', error_description: expect.stringContaining('retry after') });

    // Guessing: other client ids from the same address stop at the address budget, whatever X-Forwarded-For claims.
    const b = await tokenFor(p2.clientId, p2.secret, { tenant_id: tenantId });
    expect(b.status).toBe(200);
    let guesses = 0;
    let guess: Answer;
    do {
      guess = await tokenFor(
        `guessed-client-${guesses}`,
        'guessed-secret',
        {},
        { 'X-Forwarded-For': `203.0.113.${guesses % 250}` },
      );
      guesses++;
    } while (guess.status === 401 && guesses < 50);
    expect(guess.status).toBe(429);
    expect(guesses).toBeLessThanOrEqual(40);
    expect(guess.headers.get('ratelimit')).toMatch(/^"token-address";r=0;t=\d+$/);
    // The next test gets tokens from this address again once the window this answer names has ended.
    tokenAddressFreeAt = Date.now() + Number(/t=(\d+)/.exec(guess.headers.get('ratelimit') ?? '')?.[1]) * 1000;
    expect(guess.body.error).toBe('slow_down');
    const spoofed = await tokenFor(
      p2.clientId,
      p2.secret,
      { tenant_id: tenantId },
      { 'X-Forwarded-For': '198.51.100.7', Forwarded: 'for=198.51.100.7' },
    );
    expect(spoofed.status).toBe(429);
  });

  it('the identity and alerts APIs answer a spent budget with 429 rate_limited and Retry-After; the operator\u2019s generator has its own submission budget', async () => {
    await untilClockReaches(tokenAddressFreeAt); // the address budget the last test spent
    const p = await partner();
    let identityAnswer: Answer | undefined;
    for (let i = 0; i < 6; i++)
      identityAnswer = await call(`${identity.url}/tenants/${tenantId}`, { headers: bearer(p.token) });
    expect(identityAnswer).toMatchObject({
      status: 429,
      body: { error: 'rate_limited', message: expect.stringContaining('read-client') },
    });
    expect(identityAnswer?.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);

    const operator = (await tokenFor(OPERATOR.id, OPERATOR.secret)).body.access_token as string;
    const submit = () =>
      call(`${alerts.url}/v2/alerts/messages`, {
        method: 'POST',
        headers: { ...bearer(operator), 'Content-Type': 'application/json' },
        body: JSON.stringify({ tenant_id: tenantId, messages: [sampleAlertMessage()] }),
      });
    const submissions = [await submit(), await submit(), await submit()];
    expect(submissions.map((s) => s.status)).toEqual([201, 201, 429]);
    expect(submissions[0].headers.get('ratelimit-policy')).toBe(`"alert-submissions";q=2;w=${WINDOW_SECONDS}`);
    expect(submissions[2].body.error).toBe('rate_limited');
    // Reads by the same operator token are another budget.
    expect(
      (
        await call(
          `${alerts.url}/v2/alerts/messages/${(submissions[0].body as { messages: { message_id: string }[] }).messages[0].message_id}`,
          { headers: bearer(operator) },
        )
      ).status,
    ).not.toBe(429);
  }, 30_000);

  it('the sign-in portal has its own budgets per address: pages spend `sign-in` (refused as a page), assets `sign-in-assets` (long-cached when versioned), never the anonymous budget', async () => {
    const pages = [];
    for (let i = 0; i < 4; i++) pages.push(await fetch(`${identity.url}/signin/interaction/unknown-${i}`));
    expect(pages.map((p) => p.status)).toEqual([400, 400, 400, 429]);
    expect(pages[0].headers.get('ratelimit-policy')).toBe(`"sign-in";q=3;w=${WINDOW_SECONDS}`);
    expect(pages.map((p) => p.headers.get('ratelimit') ?? '').every((f) => f.startsWith('"sign-in";r='))).toBe(true);
    expect(pages[3].headers.get('content-type')).toMatch(/^text\/html/);
    expect(pages[3].headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(await pages[3].text()).toContain('Too many sign-in attempts');

    // The stylesheet is another budget, so a school's morning of page loads does not spend the pages' budget.
    const css = await fetch(`${identity.url}/signin/assets/portal.css?v=1`);
    expect(css.status).toBe(200);
    expect(css.headers.get('ratelimit-policy')).toBe(`"sign-in-assets";q=50;w=${WINDOW_SECONDS}`);
    expect(css.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${identity.url}/signin/assets/portal.css`)).headers.get('cache-control')).toBe(
      'public, max-age=300',
    );
  });

  it('the operator sets a deployment\u2019s own read quota (a setting outside its bounds is a 400 naming it); every service applies it', async () => {
    const operator = (await tokenFor(OPERATOR.id, OPERATOR.secret)).body.access_token as string;
    const dev = await world.developer();
    const app = await world.app({ type: 'developer', id: dev.id });
    await world.deploy(
      app.app.id,
      tenantId,
      PARTNER_SCOPES.map((s) => catalog.uri(s)),
    );
    const patch = (settings: object) =>
      call(`${identity.url}/tenants/${tenantId}/apps/${app.app.id}`, {
        method: 'PATCH',
        headers: { ...bearer(operator), 'Content-Type': 'application/json' },
        body: JSON.stringify({ settings }),
      });
    const outOfBounds = await patch({ rate_limit_read: 0 });
    expect(outOfBounds.status).toBe(400);
    expect(outOfBounds.body.fields.map((f: { field: string }) => f.field)).toEqual(['settings.rate_limit_read']);
    expect((await patch({ rate_limit_read: 2 })).status).toBe(200);

    const token = (await tokenFor(app.clientId, app.clientSecret, { tenant_id: tenantId })).body.access_token as string;
    const reads = [await readOrgs(rosterA, token), await readOrgs(rosterB, token), await readOrgs(rosterA, token)];
    expect(reads.map((r) => r.status)).toEqual([200, 200, 429]);
    expect(reads[0].headers.get('ratelimit-policy')).toBe(
      `"read-client";q=2;w=${WINDOW_SECONDS}, "read-tenant";q=1000;w=${WINDOW_SECONDS}`,
    );
  });

  it('sheds load during an event-loop stall with requests piling up: those queued behind it get 503 with Retry-After at once and readiness fails, then it serves again', async () => {
    const p = await partner();
    rosterB.child.kill('SIGSTOP');
    // More than the 8 requests the shedder takes as load (libs/http MIN_IN_FLIGHT): a stall alone is no overload. The process
    // reads them one connection per loop turn after the stall, so on a busy machine the first are answered before the last are read.
    const reads = Array.from({ length: 12 }, () =>
      queuedRequest(`${rosterB.url}/ims/oneroster/v1p1/orgs`, { headers: bearer(p.token) }),
    );
    const readiness = queuedRequest(`${rosterB.url}/health/ready`);
    // The stall (the process stopped for 2.5 s), until every request is queued behind it at least.
    await Promise.all([new Promise((r) => setTimeout(r, 2_500)), ...[...reads, readiness].map((q) => q.written)]);
    rosterB.child.kill('SIGCONT');
    const parsed = async ({ answer }: ReturnType<typeof queuedRequest>): Promise<Answer> => {
      const a = await answer;
      return { status: a.status, headers: a.headers, body: a.text ? JSON.parse(a.text) : undefined };
    };
    const answers = await Promise.all(reads.map(parsed));
    const ready = parsed(readiness);
    // The first few are decided before the rest are read (and spend the read budget: 429 past it).
    expect(answers.filter((a) => ![200, 429, 503].includes(a.status))).toEqual([]);
    const shed = answers.filter((a) => a.status === 503);
    expect(shed.length).toBeGreaterThan(0);
    for (const a of shed) {
      expect(a.headers.get('retry-after')).toBe('2');
      expect(imsxMinor(a.body.statusInfoSet[0])).toBe('server_busy');
    }
    expect((await ready).status).toBe(503);
    expect(JSON.stringify((await ready).body)).toContain('load');

    // Ready again once the loop runs freely; a new partner, as this one's read budget may be spent.
    const deadline = Date.now() + 5_000;
    while ((await call(`${rosterB.url}/health/ready`)).status !== 200 && Date.now() < deadline);
    expect((await call(`${rosterB.url}/health/ready`)).status).toBe(200);
    expect((await readOrgs(rosterB, (await partner()).token)).status).toBe(200);
    const metrics = await (await fetch(`${rosterB.url}/metrics`)).text();
    expect(metrics).toMatch(
      new RegExp(
        `^http_requests_shed_total\\{route="/ims/oneroster/v1p1/orgs",client="[^"]+",reason="event_loop_lag"\\} ${shed.length}$`,
        'm',
      ),
    );
  }, 30_000);

  it('with Redis stopped, reads fail open (counted by the warning metric), tokens are still limited per process, and writes answer 503 with Retry-After; never a 500', async () => {
    const p = await partner();
    await redis.stop();
    const reads = [];
    for (let i = 0; i < 8; i++) reads.push(await readOrgs(rosterA, p.token));
    expect(reads.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(reads[0].headers.get('ratelimit-policy')).toContain('"read-client";q=5');
    expect(reads[0].headers.get('ratelimit')).toBeNull();

    const tokens = [];
    for (let i = 0; i < 6; i++) tokens.push((await tokenFor(p.clientId, p.secret, { tenant_id: tenantId })).status);
    expect(tokens).toEqual([200, 200, 200, 200, 429, 429]);

    const write = await call(`${rosterA.url}/ims/oneroster/v1p1/categories/no-such-category`, {
      method: 'DELETE',
      headers: bearer(p.token),
    });
    expect(write.status).toBe(503);
    expect(write.headers.get('retry-after')).toBe('5');
    expect(imsxMinor(write.body.statusInfoSet[0])).toBe('server_busy');

    const metrics = await (await fetch(`${rosterA.url}/metrics`)).text();
    expect(metrics).toMatch(/^rate_limit_store_unavailable_total\{group="read",action="allowed"\} 8$/m);
    expect(metrics).toMatch(/^rate_limit_store_unavailable_total\{group="gradebook-write",action="refused"\} 1$/m);
    expect((await call(`${rosterA.url}/health/ready`)).status).toBe(200);
  }, 30_000);
});
