/** Static checks of docker-compose.yml (Docker is not needed to run them). */
import * as path from 'node:path';
import { BaseEnv, HttpServiceEnv, loadConfig, ResourceServerEnv } from '@edu/config';
import { isObject, Json, JsonObject, loadYamlDocuments, REPO_ROOT } from './kustomize';
import { API_APPS, APP_PORTS, AppName, APPS, KNOWN_VARIABLES, MIGRATE_ENTRY, PUBLIC_URL_APPS, REDIS_APPS, RUNNER, SECRET_VARIABLES, SHUTDOWN_MARGIN_SECONDS } from './platform';

const COMPOSE_FILE = path.join(REPO_ROOT, 'docker-compose.yml');

const ENV_CLASS: Record<AppName, new () => object> = {
  identity: HttpServiceEnv,
  oneroster: ResourceServerEnv,
  alerts: ResourceServerEnv,
  'webhook-dispatcher': BaseEnv,
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
  return Object.fromEntries(Object.entries(asObject(deps)).map(([k, v]) => [k, String(asObject(v).condition ?? 'service_started')]));
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
  test('is one YAML document defining postgres, redis, migrate and the four apps', () => {
    expect(docs).toHaveLength(1);
    expect(Object.keys(services).sort()).toEqual(['postgres', 'redis', 'migrate', ...APPS].sort());
  });

  test('postgres is PostgreSQL 16 or 17 with a pg_isready healthcheck and a volume', () => {
    const pg = service('postgres');
    expect(String(pg.image)).toMatch(/^postgres:1[67](\b|[.-])/);
    expect(healthcheckText(pg)).toContain('pg_isready');
    expect(Array.isArray(pg.volumes) && pg.volumes.some((v) => String(v).endsWith(':/var/lib/postgresql/data'))).toBe(true);
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

  test.each(APPS)('%s is built from the Dockerfile with APP set to its name and publishes its port', (app) => {
    const s = service(app);
    const build = asObject(s.build);
    expect(build.context).toBe('.');
    expect(build.dockerfile ?? 'Dockerfile').toBe('Dockerfile');
    expect(asObject(build.args).APP).toBe(app);
    const port = APP_PORTS[app];
    expect(s.ports).toEqual([`${port}:${port}`]);
    expect(environmentOf(s).PORT).toBe(String(port));
  });

  test.each(APPS)('%s starts only after migrate completed and its data stores are healthy', (app) => {
    const deps = dependsOn(service(app));
    expect(deps.migrate).toBe('service_completed_successfully');
    expect(deps.postgres).toBe('service_healthy');
    if (REDIS_APPS.includes(app)) expect(deps.redis).toBe('service_healthy');
  });

  test.each(['postgres', 'redis', ...APPS])('%s has a working healthcheck', (name) => {
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

  test.each(PUBLIC_URL_APPS)('%s writes links on the URL clients on this machine use (its published port)', (app) => {
    const [published] = String((service(app).ports as Json[])[0]).split(':');
    expect(environmentOf(service(app)).PUBLIC_BASE_URL).toBe(`http://localhost:${published}`);
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
