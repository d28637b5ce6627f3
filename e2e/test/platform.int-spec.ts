import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ScopeCatalog } from '@edu/domain';
import { clientToken } from './http';
import { partnerWorld, type PartnerWorld } from './partner-world';
import { startService, type ServiceProcess } from './processes';

const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
});
const WEBHOOKS = catalog.uri('alerts.webhooks.write');
const ROSTER_CORE = catalog.uri('roster-core.readonly');

/**
 * The services as separate processes, as `npm start` and the deployments run them: tokens issued
 * by the identity process are verified by the alerts and oneroster processes through the JWKS
 * they fetch over HTTP.
 */
describe('platform (separate processes)', () => {
  let world: PartnerWorld;
  let db: PartnerWorld['db'];
  let identity: ServiceProcess;
  let alerts: ServiceProcess;
  let oneroster: ServiceProcess;
  let creds: PartnerWorld['creds'];

  beforeAll(async () => {
    world = await partnerWorld([WEBHOOKS, ROSTER_CORE], { tenant: { licences: ['data-operations'] } });
    ({ db, creds } = world);

    const common = { DATABASE_URL: db.url, REDIS_URL: process.env.REDIS_URL as string, QUEUE_PREFIX: '{e2e}' };
    identity = await startService('identity', { ...common });
    const verifier = {
      ...common,
      TOKEN_ISSUER: 'http://localhost:3000',
      JWKS_URL: `${identity.url}/.well-known/jwks.json`,
    };
    // The identity process issues tokens with its own TOKEN_ISSUER default; the others must expect it.
    [alerts, oneroster] = await Promise.all([
      startService('alerts', verifier),
      startService('oneroster', { ...verifier, PUBLIC_BASE_URL: 'https://roster.e2e.example' }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([alerts?.stop(), oneroster?.stop(), identity?.stop()]);
    await world?.stop();
  });

  const token = (extra: Record<string, string> = {}) =>
    clientToken(identity.url, creds, { tenant_id: creds.tenantId, ...extra });

  it('accepts identity-issued tokens in the alerts process (remote JWKS)', async () => {
    const bearer = await token();
    const created = await fetch(`${alerts.url}/v2/alerts/webhook`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ endpoint: 'https://hooks.partner.example/alerts', type: 'notification-only' }),
    });
    expect(created.status).toBe(200);
    expect(await created.json()).toMatchObject({ action: 'newWebhook', success: true });
  });

  it('enforces scopes across processes: a token narrowed to rostering cannot manage webhooks', async () => {
    const narrowed = await token({ scope: ROSTER_CORE });
    const res = await fetch(`${alerts.url}/v2/alerts/webhook`, { headers: { Authorization: `Bearer ${narrowed}` } });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error: 'insufficient_scope' });
  });

  it('refuses a token whose signature was altered in every verifying process', async () => {
    const good = await token();
    const [h, p, s] = good.split('.');
    const forged = `${h}.${p}.${s.slice(0, -4)}${s.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`;
    for (const [svc, route] of [
      [alerts, '/v2/alerts/webhook'],
      [oneroster, '/ims/oneroster/v1p1/orgs'],
    ] as const) {
      const res = await fetch(`${svc.url}${route}`, { headers: { Authorization: `Bearer ${forged}` } });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('invalid_token');
    }
  });

  it('stops cleanly on SIGTERM (shutdown hooks close HTTP, queue and database)', async () => {
    const extra = await startService('webhook-dispatcher', {
      DATABASE_URL: db.url,
      REDIS_URL: process.env.REDIS_URL as string,
      QUEUE_PREFIX: '{e2e}',
    });
    const started = Date.now();
    const exit = await extra.stop('SIGTERM');
    // Nest closes the app, then re-raises the signal so the exit status still says SIGTERM.
    expect(exit).toEqual({ code: null, signal: 'SIGTERM' });
    expect(extra.output()).not.toMatch(/"level":(50|60)/); // no error logged while closing
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('refuses to boot with a bad variable and names it', () => {
    const r = spawnSync(
      process.execPath,
      [path.resolve(__dirname, '../../tools/runtime/run-dist.js'), 'apps/alerts/src/main'],
      {
        env: {
          PATH: process.env.PATH ?? '',
          DATABASE_URL: db.url,
          REDIS_URL: 'not-redis',
          JWKS_URL: 'http://127.0.0.1:1/jwks.json',
        },
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(r.status).toBe(78);
    expect(r.stderr).toContain('REDIS_URL');
    expect(r.stderr).not.toContain('not-redis'); // secrets are masked even when wrong
  });

  it('refuses to boot oneroster in production without PUBLIC_BASE_URL, naming it', () => {
    const r = spawnSync(
      process.execPath,
      [path.resolve(__dirname, '../../tools/runtime/run-dist.js'), 'apps/oneroster/src/main'],
      {
        env: {
          PATH: process.env.PATH ?? '',
          NODE_ENV: 'production',
          DATABASE_URL: db.url,
          JWKS_URL: 'http://127.0.0.1:1/jwks.json',
          ROSTER_EVENTS_CURSOR_SECRET: 'a-cursor-secret-of-this-test-at-least-32-characters',
        },
        encoding: 'utf8',
        timeout: 30_000,
      },
    );
    expect(r.status).toBe(78);
    expect(r.stderr).toMatch(/"problems":\["PUBLIC_BASE_URL: /);
  });
});
