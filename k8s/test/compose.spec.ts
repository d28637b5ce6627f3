/** Static checks of docker-compose.yml (Docker is not needed to run them). */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BaseEnv, HttpServiceEnv, loadConfig, ResourceServerEnv } from '@edu/config';
import { alertsProxyNeeds, appRoutes, isOperatorRoute, OPS_ROUTES, samplePath } from './app-routes';
import { isObject, Json, JsonObject, loadYamlDocuments, REPO_ROOT } from './kustomize';
import {
  directive,
  directives,
  effective,
  locationFor,
  nginxSeconds,
  nginxSize,
  parseNginx,
  readNginx,
  targetOf,
} from './nginx-conf';
import {
  API_APPS,
  APP_PORTS,
  EXTRA_PORTS,
  AppName,
  APPS,
  KNOWN_VARIABLES,
  MIGRATE_ENTRY,
  PUBLIC_URL_APPS,
  REDIS_APPS,
  RUNNER,
  SECRET_VARIABLES,
  SHUTDOWN_MARGIN_SECONDS,
} from './platform';

const COMPOSE_FILE = path.join(REPO_ROOT, 'docker-compose.yml');

const ENV_CLASS: Record<AppName, new () => object> = {
  identity: HttpServiceEnv,
  oneroster: ResourceServerEnv,
  alerts: ResourceServerEnv,
  'webhook-dispatcher': BaseEnv,
  'roster-sync': BaseEnv,
};

const asObject = (value: Json | undefined): JsonObject => (isObject(value) ? value : {});

/** Compose accepts a list of `KEY=value` or a map; both become a map of strings here. */
function environmentOf(service: JsonObject): Record<string, string> {
  const env = service.environment;
  if (Array.isArray(env)) {
    return Object.fromEntries(env.map((entry) => String(entry).split(/=(.*)/s).slice(0, 2) as [string, string]));
  }
  return Object.fromEntries(Object.entries(asObject(env)).map(([k, v]) => [k, v === null ? '' : String(v)]));
}

/** `depends_on` as a map of service to condition (the short list form means service_started). */
function dependsOn(service: JsonObject): Record<string, string> {
  const deps = service.depends_on;
  if (Array.isArray(deps)) return Object.fromEntries(deps.map((d) => [String(d), 'service_started']));
  return Object.fromEntries(
    Object.entries(asObject(deps)).map(([k, v]) => [k, String(asObject(v).condition ?? 'service_started')]),
  );
}

function seconds(duration: Json | undefined): number {
  const match = /^(?:(\d+)m)?(?:(\d+)s)?$/.exec(String(duration ?? ''));
  if (!match || (!match[1] && !match[2])) return Number.NaN;
  return Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0);
}

function healthcheckText(service: JsonObject): string {
  const test = asObject(service.healthcheck).test;
  return Array.isArray(test) ? test.map(String).join(' ') : String(test ?? '');
}

const docs = loadYamlDocuments(COMPOSE_FILE, { merge: true });
const compose = asObject(docs[0]);
const services = asObject(compose.services);
const service = (name: string): JsonObject => {
  const s = services[name];
  if (!isObject(s)) throw new Error(`docker-compose.yml has no service ${name}`);
  return s;
};

describe('docker-compose.yml', () => {
  test('is one YAML document defining postgres, redis, migrate, the four apps and the proxy', () => {
    expect(docs).toHaveLength(1);
    expect(Object.keys(services).sort()).toEqual(['postgres', 'redis', 'migrate', 'proxy', ...APPS].sort());
  });

  test('postgres is PostgreSQL 16 or 17 with a pg_isready healthcheck and a volume', () => {
    const pg = service('postgres');
    expect(String(pg.image)).toMatch(/^postgres:1[67](\b|[.-])/);
    expect(healthcheckText(pg)).toContain('pg_isready');
    expect(Array.isArray(pg.volumes) && pg.volumes.some((v) => String(v).endsWith(':/var/lib/postgresql/data'))).toBe(
      true,
    );
  });

  test('redis is Redis 7 with append-only persistence and a ping healthcheck', () => {
    const redis = service('redis');
    expect(String(redis.image)).toMatch(/^redis:7(\b|[.-])/);
    const command = Array.isArray(redis.command) ? redis.command.map(String) : String(redis.command).split(/\s+/);
    expect(command.join(' ')).toMatch(/--appendonly yes/);
    expect(healthcheckText(redis)).toMatch(/redis-cli.*ping/);
  });

  test('migrate is a one-shot from the identity image that runs the migration entry after postgres is healthy', () => {
    const migrate = service('migrate');
    expect(asObject(asObject(migrate.build).args).APP).toBe('identity');
    expect(migrate.command).toEqual(['node', RUNNER, MIGRATE_ENTRY]);
    expect(dependsOn(migrate)).toEqual({ postgres: 'service_healthy' });
    expect(migrate.restart).toBe('no');
    expect(new URL(environmentOf(migrate).DATABASE_URL).hostname).toBe('postgres');
  });

  test.each(APPS)(
    '%s is built from the Dockerfile with APP set to its name and publishes its port (identity publicly, the others on loopback for health and metrics)',
    (app) => {
      const s = service(app);
      const build = asObject(s.build);
      expect(build.context).toBe('.');
      expect(build.dockerfile ?? 'Dockerfile').toBe('Dockerfile');
      expect(asObject(build.args).APP).toBe(app);
      const port = APP_PORTS[app];
      // The roster sync worker's SFTP endpoint is published too: schools' SIS systems connect to it.
      const extra = (EXTRA_PORTS[app] ?? []).map((p) => `${p}:${p}`);
      expect(s.ports).toEqual([app === 'identity' ? `${port}:${port}` : `127.0.0.1:${port}:${port}`, ...extra]);
      expect(environmentOf(s).PORT).toBe(String(port));
    },
  );

  test.each(APPS)('%s starts only after migrate completed and its data stores are healthy', (app) => {
    const deps = dependsOn(service(app));
    expect(deps.migrate).toBe('service_completed_successfully');
    expect(deps.postgres).toBe('service_healthy');
    if (REDIS_APPS.includes(app)) expect(deps.redis).toBe('service_healthy');
  });

  test.each(['postgres', 'redis', 'proxy', ...APPS])('%s has a working healthcheck', (name) => {
    const hc = asObject(service(name).healthcheck);
    expect(hc.disable).toBeUndefined();
    expect(Array.isArray(hc.test) && hc.test.length > 1).toBe(true);
    expect(seconds(hc.interval)).toBeGreaterThan(0);
    expect(Number(hc.retries)).toBeGreaterThan(0);
  });

  test.each(APPS)('%s healthcheck asks the app itself (node, no curl) on its PORT', (app) => {
    const text = healthcheckText(service(app));
    expect(text).toMatch(/^CMD node /);
    expect(text).toMatch(/\/health\/(live|ready)/);
    expect(text).toContain('process.env.PORT');
    expect(text).not.toMatch(/curl|wget/);
  });

  test.each(APPS)('%s sets only variables the processes read, and they pass the shared config validation', (app) => {
    const env = environmentOf(service(app));
    expect(Object.keys(env).filter((n) => !KNOWN_VARIABLES.has(n))).toEqual([]);
    expect(() => loadConfig(ENV_CLASS[app], env)).not.toThrow();
    expect(new URL(env.DATABASE_URL).hostname).toBe('postgres');
    if (REDIS_APPS.includes(app)) expect(new URL(env.REDIS_URL).hostname).toBe('redis');
    else expect(env.REDIS_URL).toBeUndefined();
  });

  test.each(PUBLIC_URL_APPS)(
    '%s writes links on the URL clients on this machine use (the unified host of the proxy)',
    (app) => {
      const [published] = String((service('proxy').ports as Json[])[0]).split(':');
      expect(environmentOf(service(app)).PUBLIC_BASE_URL).toBe(`http://localhost:${published}`);
    },
  );

  test('the dispatcher links notification-only deliveries to getMessage on the unified host', () => {
    const [published] = String((service('proxy').ports as Json[])[0]).split(':');
    expect(environmentOf(service('webhook-dispatcher')).ALERTS_PUBLIC_BASE_URL).toBe(`http://localhost:${published}`);
  });

  test('demo credentials are marked as local-only and never meet NODE_ENV=production', () => {
    for (const name of ['migrate', ...APPS]) {
      const env = environmentOf(service(name));
      expect(env.NODE_ENV).toBe('development');
      for (const secret of SECRET_VARIABLES) {
        if (!env[secret] || secret === 'REDIS_URL') continue;
        expect(`${name} ${secret}=${env[secret]}`).toMatch(/local-dev|not-for-production/);
      }
    }
    expect(String(asObject(service('postgres').environment).POSTGRES_PASSWORD)).toMatch(/local-dev/);
  });

  test('identity gets operator credentials and a key-encryption key of at least 32 characters', () => {
    const env = environmentOf(service('identity'));
    expect(env.OPERATOR_CLIENT_ID).toBeTruthy();
    expect(env.OPERATOR_CLIENT_SECRET.length).toBeGreaterThanOrEqual(16);
    expect(env.KEY_ENCRYPTION_KEY.length).toBeGreaterThanOrEqual(32);
    expect(environmentOf(service('webhook-dispatcher')).KEY_ENCRYPTION_KEY).toBe(env.KEY_ENCRYPTION_KEY);
  });

  test('every app agrees on the token issuer and audience; resource servers fetch the JWKS from identity', () => {
    const issuers = new Set(APPS.map((a) => environmentOf(service(a)).TOKEN_ISSUER));
    const audiences = new Set(APPS.map((a) => environmentOf(service(a)).TOKEN_AUDIENCE));
    expect([issuers.size, audiences.size]).toEqual([1, 1]);
    for (const app of API_APPS.filter((a) => a !== 'identity')) {
      const env = environmentOf(service(app));
      expect(env.JWKS_URL).toBe(`http://identity:${APP_PORTS.identity}/.well-known/jwks.json`);
      // One machine runs the unified host: no region set.
      expect(env.SERVICE_REGION ?? '').toBe('');
    }
  });

  test('the dispatcher gets a stop grace period above the webhook send timeout', () => {
    const dispatcher = service('webhook-dispatcher');
    const timeoutSeconds = Number(environmentOf(dispatcher).WEBHOOK_TIMEOUT_MS ?? 30_000) / 1000;
    expect(seconds(dispatcher.stop_grace_period)).toBeGreaterThanOrEqual(timeoutSeconds + SHUTDOWN_MARGIN_SECONDS);
  });

  test('every app image starts its own entry point (the Dockerfile CMD), not an override', () => {
    for (const app of APPS) {
      expect(service(app).command).toBeUndefined();
      expect(service(app).entrypoint).toBeUndefined();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// the proxy serving the unified host

describe('the proxy (the unified host on one port)', () => {
  const proxy = service('proxy');
  const [hostPort, containerPort] = String((proxy.ports as Json[])[0])
    .split(':')
    .map(Number);
  const mount = (proxy.volumes as Json[]).map(String).find((v) => v.includes('/etc/nginx/'))!;
  const [source, target, mode] = mount.split(':');
  const conf = readNginx(path.join(REPO_ROOT, source));
  const servers = directives(conf, 'server');
  const unified = servers.find((s) => directives(s.block, 'listen').some((l) => l.args[0] === String(containerPort)))!;
  const routes = { identity: appRoutes('identity'), oneroster: appRoutes('oneroster'), alerts: appRoutes('alerts') };
  const targetFor = (p: string) => {
    const location = locationFor(unified, p);
    return location ? targetOf(location) : undefined;
  };

  test('is the official nginx image, pinned, with its configuration from the repository mounted read-only', () => {
    expect(String(proxy.image)).toMatch(/^nginx:\d+\.\d+(\.\d+)?(-alpine)?$/);
    expect(proxy.build).toBeUndefined();
    expect(fs.existsSync(path.join(REPO_ROOT, source))).toBe(true);
    expect([source.startsWith('./'), target, mode]).toEqual([true, '/etc/nginx/conf.d/default.conf', 'ro']);
    expect(proxy.ports).toEqual([`${hostPort}:${containerPort}`]);
    expect(unified).toBeDefined();
  });

  test('starts once oneroster and alerts are healthy, and checks its own health server', () => {
    expect(dependsOn(proxy)).toEqual({ oneroster: 'service_healthy', alerts: 'service_healthy' });
    const url = new URL(String((asObject(proxy.healthcheck).test as Json[]).at(-1)));
    const health = servers.find((s) =>
      directives(s.block, 'listen').some((l) => l.args[0] === `${url.hostname}:${url.port}`),
    );
    expect(health).toBeDefined();
    expect(targetOf(locationFor(health!, url.pathname)!)).toEqual({ status: 200 });
    // The health server is not published.
    expect((proxy.ports as Json[]).map(String).some((p) => p.endsWith(`:${url.port}`))).toBe(false);
  });

  test('sends every public OneRoster and Alerts route to its app, unchanged, at the port the app listens on', () => {
    expect(routes.oneroster.length).toBeGreaterThan(30);
    for (const app of ['oneroster', 'alerts'] as const) {
      const wrong = routes[app]
        .filter((r) => !isOperatorRoute(r.path))
        .map((r) => ({ route: `${r.method} ${r.path}`, target: targetFor(samplePath(r.path)) }))
        .filter((r) => JSON.stringify(r.target) !== JSON.stringify({ proxyPass: `http://${app}:${APP_PORTS[app]}` }));
      expect({ app, wrong }).toEqual({ app, wrong: [] });
      // The compose service of that name runs that app on that port.
      expect(environmentOf(service(app)).PORT).toBe(String(APP_PORTS[app]));
    }
  });

  test('proxies exactly the API prefixes (as the Ingress does); identity, health, metrics and operator routes answer 404', () => {
    const proxied = directives(unified.block, 'location')
      .filter((l) => l.args[0] !== '=' && 'proxyPass' in (targetOf(l) ?? {}))
      .map((l) => `${l.args.at(-1)} -> ${(targetOf(l) as { proxyPass: string }).proxyPass}`);
    expect(proxied).toEqual([
      '/ims/oneroster/v1p1/ -> http://oneroster:3001',
      '/ims/oneroster/rostering/v1p2/ -> http://oneroster:3001',
      '/ims/oneroster/gradebook/v1p2/ -> http://oneroster:3001',
      '/ims/oneroster/resources/v1p2/ -> http://oneroster:3001',
      '/roster-events/v1/ -> http://oneroster:3001',
      '/v2/alerts/ -> http://alerts:3002',
    ]);
    const hidden = [
      ...routes.identity.map((r) => samplePath(r.path)),
      ...OPS_ROUTES,
      ...routes.oneroster.filter((r) => isOperatorRoute(r.path)).map((r) => samplePath(r.path)),
      '/docs',
      '/v2/alertsX',
      '/ims/oneroster/v1p1x',
      '/ims/oneroster/rostering/v1p2x',
    ];
    for (const p of hidden) expect({ path: p, target: targetFor(p) }).toEqual({ path: p, target: { status: 404 } });
  });

  test("leaves room for the apps' own limits: 32 MiB alert batches, other bodies of BODY_LIMIT_BYTES, test deliveries waiting 35 s", () => {
    const needs = alertsProxyNeeds();
    const alertsLocation = locationFor(unified, '/v2/alerts/messages')!;
    const onerosterLocation = locationFor(unified, '/ims/oneroster/v1p1/users')!;
    expect(nginxSize(effective(unified, alertsLocation, 'client_max_body_size')!)).toBeGreaterThan(
      needs.messagesBodyLimitBytes,
    );
    expect(nginxSize(effective(unified, onerosterLocation, 'client_max_body_size')!)).toBeGreaterThan(
      Number(environmentOf(service('oneroster')).BODY_LIMIT_BYTES),
    );
    expect(nginxSeconds(effective(unified, alertsLocation, 'proxy_read_timeout')!)).toBeGreaterThan(
      needs.testWaitMs / 1000,
    );
    // The request id the apps log and echo travels through.
    expect(directives(unified.block, 'proxy_set_header').map((d) => d.args[0])).toContain('X-Request-Id');
  });
});

test('the nginx reader follows nginx location matching (exact first, then the longest prefix)', () => {
  const [server] = parseNginx(`server { listen 80; # comment
    location = /a { return 204; }
    location /a/ { set $u http://x:1; proxy_pass $u; }
    location /a/b/ { proxy_pass http://y:2; }
    location / { return 404 '{"a": "b;}"}'; }
  }`);
  expect(directive(server.block, 'listen')?.args).toEqual(['80']);
  expect(['/a', '/a/', '/a/c', '/a/b/c', '/ab', '/'].map((p) => targetOf(locationFor(server, p)!))).toEqual([
    { status: 204 },
    { proxyPass: 'http://x:1' },
    { proxyPass: 'http://x:1' },
    { proxyPass: 'http://y:2' },
    { status: 404 },
    { status: 404 },
  ]);
  expect(() => locationFor(parseNginx('server { location ~ ^/x { return 200; } }')[0], '/x')).toThrow(
    /only exact and prefix/,
  );
  expect(() => parseNginx('server { listen 80 }')).toThrow();
  expect(nginxSize('33m')).toBe(33 * 1024 * 1024);
  expect(nginxSeconds('60s')).toBe(60);
});
