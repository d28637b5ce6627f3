import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ScopeCatalog } from '@edu/domain';
import { createDataSource, runMigrations } from '@edu/persistence';
import { World } from '@edu/testing';
import { startPostgres, startRedis, type PostgresServer, type RedisServer } from './infra';
import { buildServices, startService, type ServiceProcess } from './processes';

const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
});
const SCOPES = [
  catalog.uri('roster-core.readonly'),
  catalog.uri('alerts.webhooks.write'),
  catalog.uri('id.tenant-core.readonly'),
];

type Rendering = 'json' | 'imsx' | 'oauth';
interface Probe {
  name: string;
  rendering: Rendering;
  call: () => Promise<Response>;
}
interface Outcome {
  name: string;
  status: number;
  retryAfter: string | null;
  code: unknown;
  ms: number;
}

/** The error code of each rendering: `{error}` (identity, alerts, token endpoint) or imsx codeMinor. */
function codeOf(rendering: Rendering, body: unknown): unknown {
  if (rendering !== 'imsx') return (body as { error?: unknown } | null)?.error;
  const info = (
    body as {
      statusInfoSet?: {
        imsx_codeMajor: string;
        imsx_CodeMinor: { imsx_codeMinorField: { imsx_codeMinorFieldValue: string }[] };
      }[];
    } | null
  )?.statusInfoSet?.[0];
  return info
    ? `${info.imsx_codeMajor}/${info.imsx_CodeMinor.imsx_codeMinorField[0].imsx_codeMinorFieldValue}`
    : undefined;
}

async function run(probes: Probe[]): Promise<Outcome[]> {
  return Promise.all(
    probes.map(async (p) => {
      const started = Date.now();
      const res = await p.call();
      const body = await res.json().catch(() => null);
      return {
        name: p.name,
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        code: res.status === 200 ? undefined : codeOf(p.rendering, body),
        ms: Date.now() - started,
      };
    }),
  );
}

const UNAVAILABLE: Record<Rendering, string> = {
  json: 'service_unavailable',
  imsx: 'failure/server_busy',
  oauth: 'temporarily_unavailable',
};
const unavailable = (probes: Probe[]) =>
  probes.map((p) => ({ name: p.name, status: 503, retryAfter: '5', code: UNAVAILABLE[p.rendering] }));
const healthy = (probes: Probe[]) => probes.map((p) => ({ name: p.name, status: 200 }));
const summary = (outcomes: Outcome[], keys: (keyof Outcome)[]) =>
  outcomes.map((o) => Object.fromEntries(keys.map((k) => [k, o[k]])));

/** Repeats the probes until every one answers 200 (the services recover without a restart). */
async function recovered(probes: Probe[], withinMs: number): Promise<Outcome[]> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const outcomes = await run(probes);
    if (outcomes.every((o) => o.status === 200) || Date.now() > deadline) return outcomes;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * PostgreSQL and Redis outages are not the caller's fault: every service answers 503 with
 * Retry-After in its own error format (never 500, never an endless wait) and recovers by itself.
 * The services run as separate processes against their own PostgreSQL and Redis, which this spec
 * stops, freezes and restarts (the shared test servers are left alone).
 */
describe('dependency outages (separate processes, own PostgreSQL and Redis)', () => {
  let dataDir: string;
  let pg: PostgresServer;
  let redis: RedisServer;
  const services: Record<'identity' | 'oneroster' | 'alerts' | 'dispatcher', ServiceProcess | undefined> = {
    identity: undefined,
    oneroster: undefined,
    alerts: undefined,
    dispatcher: undefined,
  };
  let creds: { id: string; secret: string; tenantId: string };
  let bearer: string;

  const svc = (name: keyof typeof services) => services[name] as ServiceProcess;
  const tokenRequest = () =>
    fetch(`${svc('identity').url}/oauth/token`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${creds.id}:${creds.secret}`).toString('base64')}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'client_credentials', tenant_id: creds.tenantId }),
    });
  const read = (name: keyof typeof services, route: string) => () =>
    fetch(`${svc(name).url}${route}`, { headers: { Authorization: `Bearer ${bearer}` } });
  const ready = (name: keyof typeof services) => () => fetch(`${svc(name).url}/health/ready`);

  const databaseProbes = (): Probe[] => [
    { name: 'POST /oauth/token', rendering: 'oauth', call: tokenRequest },
    { name: 'identity read', rendering: 'json', call: read('identity', `/tenants/${creds.tenantId}`) },
    { name: 'rostering read', rendering: 'imsx', call: read('oneroster', '/ims/oneroster/v1p1/orgs') },
    { name: 'alerts read', rendering: 'json', call: read('alerts', '/v2/alerts/webhook') },
    { name: 'identity ready', rendering: 'json', call: ready('identity') },
    { name: 'oneroster ready', rendering: 'imsx', call: ready('oneroster') },
    { name: 'alerts ready', rendering: 'json', call: ready('alerts') },
    { name: 'dispatcher ready', rendering: 'json', call: ready('dispatcher') },
  ];
  const redisProbes = (): Probe[] => [
    { name: 'alerts ready', rendering: 'json', call: ready('alerts') },
    { name: 'dispatcher ready', rendering: 'json', call: ready('dispatcher') },
  ];

  beforeAll(async () => {
    buildServices();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'edu-outage-pg-'));
    [pg, redis] = await Promise.all([startPostgres({ dataDir, durable: false }), startRedis()]);
    await runMigrations(pg.url);
    const ds = createDataSource({ url: pg.url, poolSize: 2 });
    await ds.initialize();
    try {
      const world = new World(ds);
      const tenant = await world.tenant({ licences: ['data-operations'] });
      const dev = await world.developer();
      const app = await world.app({ type: 'developer', id: dev.id });
      await world.deploy(app.app.id, tenant.id, SCOPES);
      creds = { id: app.clientId, secret: app.clientSecret, tenantId: tenant.id };
      // One imported school, so rostering reads have rows to fetch (an empty roster needs no query).
      await ds.query(
        `INSERT INTO roster_orgs (tenant_id, sourced_id, status, date_last_modified, ordinal, name, type) VALUES ($1, 'school-1', 'active', now(), 0, 'School', 'school')`,
        [tenant.id],
      );
      await ds.query('INSERT INTO roster_data_versions (tenant_id, version, imported_at) VALUES ($1, 1, now())', [
        tenant.id,
      ]);
    } finally {
      await ds.destroy();
    }
    const common = { DATABASE_URL: pg.url, REDIS_URL: redis.url, QUEUE_PREFIX: '{outage}', LOG_LEVEL: 'fatal' };
    services.identity = await startService('identity', common);
    const verifier = {
      ...common,
      TOKEN_ISSUER: 'http://localhost:3000',
      JWKS_URL: `${services.identity.url}/.well-known/jwks.json`,
    };
    [services.oneroster, services.alerts, services.dispatcher] = await Promise.all([
      startService('oneroster', { ...verifier, PUBLIC_BASE_URL: 'https://roster.outage.example' }),
      startService('alerts', verifier),
      startService('webhook-dispatcher', common),
    ]);
    const token = await tokenRequest();
    expect(token.status).toBe(200);
    bearer = ((await token.json()) as { access_token: string }).access_token;
  });

  afterAll(async () => {
    pg?.resume();
    // A service closing its queue waits for Redis: give it 10 s, then kill it.
    const stop = async (s: ServiceProcess | undefined) => {
      if (!s) return;
      const killer = setTimeout(() => s.child.kill('SIGKILL'), 10_000);
      await s.stop();
      clearTimeout(killer);
    };
    await Promise.all(Object.values(services).map(stop));
    await Promise.all([pg?.stop(), redis?.stop()]);
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves every probe while PostgreSQL and Redis are up', async () => {
    const outcomes = await run(databaseProbes());
    expect(summary(outcomes, ['name', 'status'])).toEqual(healthy(databaseProbes()));
  });

  it('answers 503 with Retry-After while PostgreSQL is stopped, and 200 again once the same data directory is back', async () => {
    await pg.stop();
    let down: Outcome[];
    try {
      down = await run(databaseProbes());
    } finally {
      pg = await startPostgres({ dataDir, port: pg.port, durable: false });
    }
    expect(summary(down, ['name', 'status', 'retryAfter', 'code'])).toEqual(unavailable(databaseProbes()));

    const back = await recovered(databaseProbes(), 20_000);
    expect(summary(back, ['name', 'status'])).toEqual(healthy(databaseProbes()));
  });

  it('answers 503 within a bounded time while PostgreSQL hangs (accepts TCP, never answers), and recovers when it resumes', async () => {
    await run(databaseProbes()); // pooled connections are warm: the hang hits queries already on the wire
    pg.pause();
    let hung: Outcome[];
    try {
      hung = await run(databaseProbes());
    } finally {
      pg.resume();
    }
    expect(summary(hung, ['name', 'status', 'retryAfter', 'code'])).toEqual(unavailable(databaseProbes()));
    // 20 s client-side query timeout (5 s for a new connection, 3 s for readiness) plus slack.
    for (const o of hung) expect({ name: o.name, bounded: o.ms < 25_000 }).toEqual({ name: o.name, bounded: true });

    const back = await recovered(databaseProbes(), 20_000);
    expect(summary(back, ['name', 'status'])).toEqual(healthy(databaseProbes()));
  });

  it('reports not ready (503) where Redis is used while it is stopped, and ready again after it restarts', async () => {
    await redis.stop();
    let down: Outcome[];
    let dbOnly: { status: number; body: string };
    try {
      down = await run(redisProbes());
      const res = await read('alerts', '/v2/alerts/webhook')();
      dbOnly = { status: res.status, body: await res.text() };
    } finally {
      redis = await startRedis({ port: redis.port });
    }
    expect(summary(down, ['name', 'status', 'retryAfter', 'code'])).toEqual(unavailable(redisProbes()));
    // Routes that need only PostgreSQL keep working.
    expect(dbOnly).toEqual({ status: 200, body: expect.any(String) });

    const back = await recovered(redisProbes(), 20_000);
    expect(summary(back, ['name', 'status'])).toEqual(healthy(redisProbes()));
  });
});
