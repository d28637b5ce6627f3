import { DataSource } from 'typeorm';
import { ScopeCatalog } from '@edu/domain';
import { sampleAlertMessage, WebhookReceiver } from '@edu/testing';
import { clientToken, jsonCall } from './http';
import { LOCAL_WEBHOOKS, partnerWorld, type PartnerWorld } from './partner-world';
import { startService, type ServiceProcess } from './processes';

const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
});
const READ = catalog.uri('alerts.messages.read');
const HOOKS = catalog.uri('alerts.webhooks.write');
const OPERATOR_SECRET = 'e2e-operator-secret-0123456789';

/**
 * Alerts end to end, as deployed: identity issues tokens and publishes the JWKS, alerts stores
 * and fans out, the dispatcher process signs and sends, and a receiver verifies every delivery
 * against the identity process's JWKS over HTTP. The dispatcher is killed and stopped mid-burst.
 */
describe('alerts delivery (separate processes)', () => {
  let partner: PartnerWorld;
  let ds: DataSource;
  let identity: ServiceProcess;
  let alerts: ServiceProcess;
  let dispatcher: ServiceProcess;
  let receiver: WebhookReceiver;
  let dispatcherEnv: Record<string, string>;
  let creds: { id: string; secret: string; tenantId: string; appId: string };

  beforeAll(async () => {
    partner = await partnerWorld([READ, HOOKS], { appName: 'Wellbeing' });
    ({ ds, creds } = partner);

    const common = {
      DATABASE_URL: partner.db.url,
      REDIS_URL: process.env.REDIS_URL as string,
      QUEUE_PREFIX: '{e2e-alerts}',
      TOKEN_ISSUER: 'http://identity.e2e',
    };
    identity = await startService('identity', { ...common, OPERATOR_CLIENT_SECRET: OPERATOR_SECRET });
    const jwks = `${identity.url}/.well-known/jwks.json`;
    alerts = await startService('alerts', {
      ...common,
      ...LOCAL_WEBHOOKS,
      JWKS_URL: jwks,
      WEBHOOK_TEST_WAIT_MS: '10000',
    });
    dispatcherEnv = {
      ...common,
      ...LOCAL_WEBHOOKS,
      ALERTS_PUBLIC_BASE_URL: 'https://alerts.e2e.example',
      WEBHOOK_RETRY_BASE_MS: '200',
      WEBHOOK_CONCURRENCY: '20',
      WEBHOOK_MAX_IN_FLIGHT_PER_WEBHOOK: '20',
      WEBHOOK_RELAY_INTERVAL_MS: '500',
    };
    dispatcher = await startService('webhook-dispatcher', dispatcherEnv);
    receiver = await new WebhookReceiver({ jwksUrl: jwks }).start();
  });

  afterAll(async () => {
    await Promise.all([dispatcher?.stop(), alerts?.stop(), identity?.stop()]);
    await receiver?.stop();
    await partner?.stop();
  });

  const partnerToken = () => clientToken(identity.url, creds, { tenant_id: creds.tenantId });
  const operatorToken = () => clientToken(identity.url, { id: 'operator', secret: OPERATOR_SECRET });

  async function webhook(path: string, type: string): Promise<string> {
    const res = await jsonCall('POST', `${alerts.url}/v2/alerts/webhook`, await partnerToken(), {
      endpoint: `${receiver.url}${path}`,
      type,
    });
    expect(res.status).toBe(200);
    return res.body.webhook_id;
  }

  async function submit(count: number): Promise<{ message_id: string; deliveries: number }[]> {
    const res = await jsonCall('POST', `${alerts.url}/v2/alerts/messages`, await operatorToken(), {
      tenant_id: creds.tenantId,
      messages: Array.from({ length: count }, () => sampleAlertMessage()),
    });
    expect(res.status).toBe(201);
    return res.body.messages;
  }

  const deliveryIdsOf = async (webhookId: string): Promise<string[]> =>
    (await ds.query(`SELECT id FROM webhook_deliveries WHERE webhook_id = $1`, [webhookId])).map(
      (r: { id: string }) => r.id,
    );
  const openCount = async (webhookId: string): Promise<number> =>
    (
      await ds.query(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1 AND status <> 'delivered'`,
        [webhookId],
      )
    )[0].n;

  async function untilDelivered(webhookId: string, timeoutMs: number): Promise<number> {
    const started = Date.now();
    while ((await openCount(webhookId)) > 0) {
      if (Date.now() - started > timeoutMs)
        throw new Error(`${await openCount(webhookId)} deliveries of ${webhookId} still open after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
    return Date.now() - started;
  }

  it('delivers both kinds, signed with a key of the identity JWKS, and getMessage counts them as sent', async () => {
    const notify = await webhook('/notify', 'notification-only');
    const full = await webhook('/full', 'full-payload');
    const [sent] = await submit(1);
    expect(sent.deliveries).toBe(2);
    await untilDelivered(notify, 20_000);
    await untilDelivered(full, 20_000);
    const got = receiver.deliveries.filter((d) => d.claims.sub === sent.message_id);
    expect(got.map((d) => [d.path, d.verified, d.claims.type]).sort()).toEqual([
      ['/full', true, 'full-payload'],
      ['/notify', true, 'notification-only'],
    ]);
    const notice = got.find((d) => d.path === '/notify')!.claims;
    expect(notice).toMatchObject({
      iss: 'http://identity.e2e',
      aud: creds.appId,
      tenant_id: creds.tenantId,
      notice: { message_url: `https://alerts.e2e.example/v2/alerts/message/${sent.message_id}` },
    });
    const message = await jsonCall('GET', `${alerts.url}/v2/alerts/message/${sent.message_id}`, await partnerToken());
    expect(message.status).toBe(200);
    expect(message.body).toMatchObject({ queued_alert_count: 0, sent_alert_count: 2, fetched_alert_count: 1 });
    expect(got.find((d) => d.path === '/full')!.claims.message).toMatchObject({
      message_id: sent.message_id,
      recipient: message.body.recipient,
      alerts: message.body.alerts,
    });
    for (const id of [notify, full])
      expect((await jsonCall('DELETE', `${alerts.url}/v2/alerts/webhook/${id}`, await partnerToken())).status).toBe(
        200,
      );
  });

  it('answers a test delivery with its result', async () => {
    const hook = await webhook('/test', 'notification-only');
    const ok = await jsonCall('POST', `${alerts.url}/v2/alerts/webhook/${hook}/test`, await partnerToken());
    expect(ok).toMatchObject({
      status: 200,
      body: {
        success: true,
        status: 'delivered',
        attempt: { attempt_number: 1, response_status: 200, error_code: null },
      },
    });
    receiver.responder = (d) => (d.path === '/test' ? { status: 410 } : { status: 200 });
    const failed = await jsonCall('POST', `${alerts.url}/v2/alerts/webhook/${hook}/test`, await partnerToken());
    expect(failed).toMatchObject({
      status: 200,
      body: { success: false, status: 'undeliverable', attempt: { response_status: 410, error_code: 'E_HTTP' } },
    });
    receiver.responder = () => ({ status: 200 });
    await jsonCall('DELETE', `${alerts.url}/v2/alerts/webhook/${hook}`, await partnerToken());
  });

  it('loses nothing when the dispatcher is killed mid-burst: every delivery arrives after a restart, duplicates carry the same jti', async () => {
    const hook = await webhook('/burst-kill', 'notification-only');
    receiver.responder = () => ({ status: 200, delayMs: 30 });
    await submit(300);
    const ids = await deliveryIdsOf(hook);
    await receiver.until((all) => all.filter((d) => d.path === '/burst-kill').length >= 60, 30_000);
    await dispatcher.stop('SIGKILL');
    const restartedAt = Date.now();
    dispatcher = await startService('webhook-dispatcher', dispatcherEnv);
    await untilDelivered(hook, 60_000);
    const recovered = Date.now() - restartedAt;
    const got = receiver.deliveries.filter((d) => d.path === '/burst-kill');
    const jtis = new Set(got.map((d) => d.claims.jti));
    expect([...ids].filter((id) => !jtis.has(id))).toEqual([]); // nothing lost
    expect(got.every((d) => d.verified)).toBe(true);
    const duplicates = got.length - jtis.size;
    expect(duplicates).toBeLessThanOrEqual(20); // at most what was in flight (the worker's concurrency)
    process.stdout.write(
      `SIGKILL mid-burst: ${ids.length} deliveries, ${duplicates} duplicates (same jti), all done ${recovered} ms after the restart\n`,
    );
    receiver.responder = () => ({ status: 200 });
  }, 120_000);

  it('loses and duplicates nothing when the dispatcher is stopped with SIGTERM mid-burst', async () => {
    const hook = await webhook('/burst-term', 'notification-only');
    receiver.responder = () => ({ status: 200, delayMs: 30 });
    await submit(300);
    const ids = await deliveryIdsOf(hook);
    await receiver.until((all) => all.filter((d) => d.path === '/burst-term').length >= 60, 30_000);
    const exit = await dispatcher.stop('SIGTERM');
    expect(exit.signal ?? exit.code).toBeDefined();
    expect(dispatcher.output()).not.toMatch(/"level":(50|60)/);
    dispatcher = await startService('webhook-dispatcher', dispatcherEnv);
    await untilDelivered(hook, 60_000);
    const got = receiver.deliveries.filter((d) => d.path === '/burst-term');
    expect(got.length).toBe(ids.length);
    expect(new Set(got.map((d) => d.claims.jti)).size).toBe(ids.length);
    receiver.responder = () => ({ status: 200 });
  }, 120_000);
});
