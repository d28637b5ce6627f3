import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ScopeCatalog } from '@edu/domain';
import { sampleAlertMessage, WebhookReceiver, World } from '@edu/testing';
import { closedContext, launchChromium, screenshot } from '@edu/testing/browser';
import { clientToken, jsonCall } from './http';
import { LOCAL_WEBHOOKS, partnerWorld, type PartnerWorld } from './partner-world';
import { startService, type ServiceProcess } from './processes';

const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
});
const READ = catalog.uri('alerts.messages.read');
const HOOKS = catalog.uri('alerts.webhooks.write');
const OPERATOR = { id: 'operator', secret: 'e2e-portal-operator-secret-0123' };

/**
 * The partners' delivery portal in Chromium, against the compiled services: a partner opens the
 * link its app asked for, sees its endpoints and their deliveries with every attempt and answer,
 * redelivers an undeliverable message, re-enables an endpoint that answered 410, sends a test and
 * rotates the secret; a used or expired link and another app's session show nothing. The pages
 * load nothing but the alerts service (no script at all). Screenshots go to test-artifacts/.
 */
describe('in a browser: the delivery portal', () => {
  let partner: PartnerWorld;
  let identity: ServiceProcess;
  let alerts: ServiceProcess;
  let dispatcher: ServiceProcess;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let token: string;
  let otherToken: string;
  const hooks: Record<'main' | 'gone', string> = { main: '', gone: '' };
  const outside: string[] = [];
  let up = false;

  beforeAll(async () => {
    partner = await partnerWorld([READ, HOOKS], { appName: 'Wellbeing Pulse' });
    const world = new World(partner.ds);
    const other = await world.app({ type: 'developer', id: (await world.developer()).id }, 'Other Partner');
    await world.deploy(other.app.id, partner.creds.tenantId, [HOOKS]);
    const common = {
      DATABASE_URL: partner.db.url,
      REDIS_URL: process.env.REDIS_URL as string,
      QUEUE_PREFIX: `{e2e-portal-${process.pid}}`,
      TOKEN_ISSUER: 'http://identity.e2e',
    };
    identity = await startService('identity', { ...common, OPERATOR_CLIENT_SECRET: OPERATOR.secret });
    const jwks = `${identity.url}/.well-known/jwks.json`;
    alerts = await startService('alerts', {
      ...common,
      ...LOCAL_WEBHOOKS,
      JWKS_URL: jwks,
      WEBHOOK_TEST_WAIT_MS: '10000',
    });
    dispatcher = await startService('webhook-dispatcher', {
      ...common,
      ...LOCAL_WEBHOOKS,
      WEBHOOK_RETRY_BASE_MS: '20',
      WEBHOOK_MAX_RETRIES: '1',
      WEBHOOK_RELAY_INTERVAL_MS: '200',
    });
    receiver = await new WebhookReceiver({ jwksUrl: jwks }).start();
    // The main endpoint fails until fixed; the other one says it is gone.
    receiver.responder = (d) => ({ status: up || d.claims.type === 'test' ? 200 : d.path === '/gone' ? 410 : 500 });
    token = await clientToken(identity.url, partner.creds, { tenant_id: partner.creds.tenantId });
    otherToken = await clientToken(
      identity.url,
      { id: other.clientId, secret: other.clientSecret },
      {
        tenant_id: partner.creds.tenantId,
      },
    );
    for (const name of ['main', 'gone'] as const) {
      const made = await jsonCall('POST', `${alerts.url}/v2/alerts/webhook`, token, {
        endpoint: `${receiver.url}/${name}`,
        type: 'notification-only',
      });
      hooks[name] = made.body.webhook_id;
    }
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([dispatcher?.stop(), alerts?.stop(), identity?.stop()]);
    await receiver?.stop();
    await partner?.stop();
  });

  const rows = <T>(sql: string, params: unknown[] = []): Promise<T[]> => partner.ds.query(sql, params);
  async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 150));
    }
  }
  /** A portal link of `bearer`'s app, on this stack's alerts URL. */
  async function link(bearer = token): Promise<string> {
    const made = await jsonCall('POST', `${alerts.url}/v2/alerts/portal-sessions`, bearer);
    expect(made.status).toBe(201);
    const url = new URL(made.body.url);
    return `${alerts.url}${url.pathname}${url.search}`;
  }
  const context = (): Promise<BrowserContext> => closedContext(browser, [alerts.url], outside);
  const click = async (page: Page, webhook: string, label: string) => {
    await page.locator(`section[data-webhook="${webhook}"] .actions button`, { hasText: label }).click();
    await page.waitForLoadState();
  };

  it('shows the endpoints and their deliveries, then redelivers, re-enables, tests and rotates from the page', async () => {
    const operator = await clientToken(identity.url, OPERATOR);
    const sent = await jsonCall('POST', `${alerts.url}/v2/alerts/messages`, operator, {
      tenant_id: partner.creds.tenantId,
      messages: [sampleAlertMessage(), sampleAlertMessage()],
    });
    expect(sent.status).toBe(201);
    // The main endpoint gives up on both messages (and on the endpoint.disabled event it is told).
    await until('the main endpoint gave up and the gone one was disabled', async () => {
      const [{ open, undeliverable }] = await rows<{ open: number; undeliverable: number }>(
        `SELECT count(*) FILTER (WHERE status IN ('pending', 'awaiting_retry'))::int AS open,
                count(*) FILTER (WHERE status = 'undeliverable' AND trigger = 'message')::int AS undeliverable
           FROM webhook_deliveries WHERE webhook_id = $1`,
        [hooks.main],
      );
      const [gone] = await rows<{ status: string }>(`SELECT status FROM webhooks WHERE id = $1`, [hooks.gone]);
      return open === 0 && undeliverable === 2 && gone.status === 'disabled';
    });
    up = true;

    const page = await (await context()).newPage();
    await page.goto(await link());
    expect(new URL(page.url()).pathname).toBe('/v2/alerts/portal');
    expect(await page.locator('h1').innerText()).toBe('Wellbeing Pulse');
    const gone = page.locator(`section[data-webhook="${hooks.gone}"]`);
    expect(await gone.locator('.facts').first().innerText()).toContain('disabled endpoint_gone');
    const main = page.locator(`section[data-webhook="${hooks.main}"]`);
    expect(await main.locator('details.delivery', { hasText: 'message notification-only' }).count()).toBe(2);
    expect(await main.locator('details.delivery', { hasText: 'endpoint.disabled' }).count()).toBe(1);
    await main.locator('details.delivery', { hasText: 'message notification-only' }).first().locator('summary').click();
    expect(await main.locator('details.delivery[open] tbody tr').count()).toBe(2);
    expect(await main.locator('details.delivery[open] tbody tr').first().innerText()).toContain('500');
    await screenshot(page, 'delivery-portal');

    await main.locator('details.delivery[open] button', { hasText: 'Redeliver' }).click();
    await page.waitForLoadState();
    expect(await page.locator('.flash').innerText()).toContain('is on its way');
    await until('the redelivery was delivered', async () =>
      (
        await rows<{ status: string }>(
          `SELECT status FROM webhook_deliveries WHERE webhook_id = $1 AND trigger = 'redeliver'`,
          [hooks.main],
        )
      ).some((r) => r.status === 'delivered'),
    );

    await click(page, hooks.gone, 'Re-enable');
    expect(await page.locator('.flash').innerText()).toContain('Re-enabled');
    await until('what the gone endpoint held was delivered', async () => {
      const open = await rows(`SELECT 1 FROM webhook_deliveries WHERE webhook_id = $1 AND status <> 'delivered'`, [
        hooks.gone,
      ]);
      return open.length === 0;
    });
    await page.reload();
    expect(await gone.locator('.facts').first().innerText()).toContain('status active');
    await screenshot(page, 'delivery-portal-reenabled');

    await click(page, hooks.main, 'Send a test');
    expect(await page.locator('.flash').innerText()).toContain('Test delivered: your endpoint answered 200');
    await click(page, hooks.main, 'Rotate secret');
    expect(await page.locator('.flash code.secret').innerText()).toMatch(/^whsec_/);
    await screenshot(page, 'delivery-portal-rotated');
    expect(outside).toEqual([]);
  });

  it('refuses a link used twice and an expired one, and shows another app nothing of this one', async () => {
    const ctx = await context();
    const page = await ctx.newPage();
    const once = await link();
    await page.goto(once);
    await page.goto(once);
    expect(await page.locator('h1').innerText()).toBe('This portal session has ended');
    await screenshot(page, 'delivery-portal-refused-used');

    const expired = await link();
    await rows(`UPDATE alert_portal_sessions SET expires_at = now() - interval '1 second' WHERE opened_at IS NULL`);
    const fresh = await (await context()).newPage();
    await fresh.goto(expired);
    expect(await fresh.locator('h1').innerText()).toBe('This portal session has ended');
    expect(await fresh.locator('body').innerText()).not.toContain('receiver');

    const otherCtx = await context();
    const otherPage = await otherCtx.newPage();
    const own = await jsonCall('POST', `${alerts.url}/v2/alerts/webhook`, otherToken, {
      endpoint: `${receiver.url}/other-app`,
      type: 'full-payload',
    });
    await otherPage.goto(await link(otherToken));
    const shown = await otherPage.locator('body').innerText();
    expect(shown).toContain('/other-app');
    expect(shown).not.toContain(`${receiver.url}/main`);
    expect(await otherPage.locator(`section[data-webhook="${own.body.webhook_id}"]`).count()).toBe(1);
    expect(await otherPage.locator(`section[data-webhook="${hooks.main}"]`).count()).toBe(0);
    // Its own session, with its own form token, aimed at this app's webhook: refused, nothing shown.
    const csrf = await otherPage.locator('input[name="csrf"]').first().getAttribute('value');
    const res = await otherCtx.request.post(`${alerts.url}/v2/alerts/portal/webhooks/${hooks.main}/rotate-secret`, {
      form: { csrf: csrf ?? '' },
    });
    expect(res.status()).toBe(404);
    expect(await res.text()).toContain('There is nothing here for your app');
    expect(await res.text()).not.toContain(`${receiver.url}/main`);
    await screenshot(otherPage, 'delivery-portal-other-app');
    expect(outside).toEqual([]);
  });
});
