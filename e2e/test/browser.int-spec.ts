import type { Browser, BrowserContext } from 'playwright-core';
import { DataSource } from 'typeorm';
import { ScopeCatalog } from '@edu/domain';
import { createDataSource } from '@edu/persistence';
import {
  createTestDatabase,
  docOperations,
  refusingUrl,
  sampleAlertMessage,
  World,
  type TestDatabase,
} from '@edu/testing';
import { launchChromium, screenshot } from '@edu/testing/browser';
import { clientToken, jsonCall } from './http';
import { LOCAL_WEBHOOKS } from './partner-world';
import { buildServices, startService, type ServiceProcess } from './processes';

const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
});
const OPERATOR = { username: 'operator', password: 'e2e-browser-operator-secret' };
const BURST = 24;

/**
 * What an operator sees in a real browser (headless Chromium driven by playwright-core): the
 * delivery queue's dashboard on the alerts process after a small burst of messages, refused
 * without the operator credentials, and the OpenAPI page of each API listing its routes. The
 * services run as separate compiled processes; no dispatcher runs, so the burst's jobs wait.
 */
describe('in a browser: queue dashboard and OpenAPI pages', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let identity: ServiceProcess;
  let oneroster: ServiceProcess;
  let alerts: ServiceProcess;
  let browser: Browser;
  /** Requests the pages tried to send anywhere but the services under test. */
  const outside: string[] = [];

  beforeAll(async () => {
    buildServices();
    db = await createTestDatabase();
    ds = createDataSource({ url: db.url });
    await ds.initialize();
    const common = {
      DATABASE_URL: db.url,
      REDIS_URL: process.env.REDIS_URL as string,
      QUEUE_PREFIX: `{e2e-browser-${process.pid}}`,
      TOKEN_ISSUER: 'http://identity.e2e',
    };
    const operator = { OPERATOR_CLIENT_ID: OPERATOR.username, OPERATOR_CLIENT_SECRET: OPERATOR.password };
    identity = await startService('identity', { ...common, ...operator });
    const jwks = `${identity.url}/.well-known/jwks.json`;
    [oneroster, alerts] = await Promise.all([
      startService('oneroster', { ...common, JWKS_URL: jwks, PUBLIC_BASE_URL: 'https://roster.e2e.example' }),
      startService('alerts', { ...common, ...LOCAL_WEBHOOKS, ...operator, JWKS_URL: jwks }),
    ]);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([alerts?.stop(), oneroster?.stop(), identity?.stop()]);
    await ds?.destroy();
    await db?.drop();
  });

  /** A context that lets the pages reach the services under test only, and records what else they tried. */
  async function context(credentials?: { username: string; password: string }): Promise<BrowserContext> {
    const ctx = await browser.newContext({ httpCredentials: credentials, viewport: { width: 1400, height: 900 } });
    const allowed = [identity.url, oneroster.url, alerts.url];
    await ctx.route('**/*', (route) => {
      const url = route.request().url();
      if (allowed.some((a) => url.startsWith(`${a}/`) || url === a)) return route.continue();
      outside.push(url);
      return route.abort();
    });
    return ctx;
  }

  it('shows the delivery queue with its counts after a burst, with the operator credentials', async () => {
    // A partner app's webhook at a tenant, then a burst submitted as the alert generator does.
    const world = new World(ds);
    const tenant = await world.tenant();
    const dev = await world.developer();
    const app = await world.app({ type: 'developer', id: dev.id }, 'Wellbeing');
    await world.deploy(app.app.id, tenant.id, catalog.uris(['alerts.messages.read', 'alerts.webhooks.write']));
    const partner = await clientToken(
      identity.url,
      { id: app.clientId, secret: app.clientSecret },
      { tenant_id: tenant.id },
    );
    // Its endpoint is down; no dispatcher runs here anyway, so nothing is delivered.
    const down = await refusingUrl();
    expect(
      await jsonCall('POST', `${alerts.url}/v2/alerts/webhook`, partner, {
        endpoint: `${down.url}/alerts`,
        type: 'notification-only',
      }),
    ).toMatchObject({ status: 200 });
    down.release();
    const operator = await clientToken(identity.url, { id: OPERATOR.username, secret: OPERATOR.password });
    const submitted = await jsonCall('POST', `${alerts.url}/v2/alerts/messages`, operator, {
      tenant_id: tenant.id,
      messages: Array.from({ length: BURST }, () => sampleAlertMessage()),
    });
    expect(submitted.status).toBe(201);
    expect(submitted.body.messages.map((m: { deliveries: number }) => m.deliveries)).toEqual(Array(BURST).fill(1));

    const ctx = await context(OPERATOR);
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const res = await page.goto(`${alerts.url}/admin/queues`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    // The queue's card: its name and the waiting count of the burst.
    const card = page.locator('main').getByText('webhook-deliveries').first();
    await card.waitFor({ timeout: 20_000 });
    await page.getByText(String(BURST), { exact: true }).first().waitFor({ timeout: 20_000 });
    const text = await page.locator('main').innerText();
    expect(text).toMatch(/waiting/i);
    await screenshot(page, 'queue-dashboard');

    // The queue's own page lists the jobs (ids are the delivery ids).
    await card.click();
    await page.waitForURL(/\/admin\/queues\/queue\/webhook-deliveries/, { timeout: 10_000 });
    await page
      .getByText(/waiting/i)
      .first()
      .waitFor({ timeout: 10_000 });
    await screenshot(page, 'queue-dashboard-webhook-deliveries');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('refuses the dashboard without credentials or with wrong ones', async () => {
    for (const credentials of [
      undefined,
      { username: OPERATOR.username, password: 'wrong-password-of-the-operator' },
    ]) {
      const ctx = await context(credentials);
      // The server answers the page with a Basic challenge and every wrong answer with 401 again:
      // headless Chromium, which cannot ask a person, shows the 401 or gives up on the page.
      const page = await ctx.newPage();
      const outcome = await page.goto(`${alerts.url}/admin/queues`).then(
        async (r) =>
          `answered ${r?.status()}${(await r?.text())?.includes('webhook-deliveries') ? ' with the board' : ''}`,
        (e: Error) => (/ERR_INVALID_AUTH_CREDENTIALS/.test(e.message) ? 'refused' : e.message),
      );
      expect(['answered 401', 'refused']).toContain(outcome);
      for (const path of ['/admin/queues', '/admin/queues/api/queues']) {
        const res = await ctx.request.get(`${alerts.url}${path}`);
        expect({ path, status: res.status(), challenge: res.headers()['www-authenticate'] }).toEqual({
          path,
          status: 401,
          challenge: 'Basic realm="Queue dashboard", charset="UTF-8"',
        });
        expect(await res.text()).not.toContain('webhook-deliveries');
      }
      await ctx.close();
    }
  });

  it.each(['identity', 'oneroster', 'alerts'] as const)(
    "opens the %s OpenAPI page, which lists the service's routes",
    async (name) => {
      const service = { identity, oneroster, alerts }[name];
      const doc = await (await fetch(`${service.url}/docs-json`)).json();
      const expected = docOperations(doc)
        .map((o) => `${o.method} ${o.openApiPath}`)
        .sort();
      expect(expected.length).toBeGreaterThan(5);
      const ctx = await context();
      const page = await ctx.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      expect((await page.goto(`${service.url}/docs`, { waitUntil: 'load' }))?.status()).toBe(200);
      await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
      const rendered = await page.$$eval('.opblock', (blocks) =>
        blocks.map(
          (b) =>
            `${(b.querySelector('.opblock-summary-method')?.textContent ?? '').trim()} ${b.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? ''}`,
        ),
      );
      expect([...new Set(rendered)].sort()).toEqual(expected);
      await screenshot(page, `openapi-${name}`);
      expect(errors).toEqual([]);
      await ctx.close();
    },
  );

  it('sent nothing beyond this machine (every asset is served by the services)', () => {
    expect(outside).toEqual([]);
  });
});
