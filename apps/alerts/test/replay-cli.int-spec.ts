import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { loadConfig } from '@edu/config';
import { ScopeCatalog } from '@edu/domain';
import {
  baseTestEnv,
  createTestApp,
  createTestDatabase,
  sampleAlertMessage,
  TestIssuer,
  testRedis,
  World,
  type TestDatabase,
} from '@edu/testing';
import { alertsHttpOptions } from '../src/alerts-http';
import { AlertsModule } from '../src/alerts.module';
import { AlertsEnv } from '../src/config/alerts.env';
import { parseInstant, runReplayCli } from '../src/deliveries/replay-command';

const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
});
const ADMIN = catalog.uri('platform.admin');
const READ = catalog.uri('alerts.messages.read');
const HOOKS = catalog.uri('alerts.webhooks.write');

interface Row {
  id: string;
  webhook_id: string;
  tenant_id: string;
  message_id: string;
  kind: string;
  trigger: string;
  redelivery_of: string | null;
  status: string;
  enqueued_at: Date | null;
}

/**
 * `npm run alerts:replay`: redeliveries of undeliverable deliveries, made as the redeliver endpoint
 * makes one, left for the dispatcher's outbox relay to queue. No dispatcher runs here: deliveries
 * are made undeliverable the way it records them.
 */
describe('alerts:replay: bulk redelivery of undeliverable deliveries', () => {
  let db: TestDatabase;
  let issuer: TestIssuer;
  let app: NestExpressApplication;
  let ds: DataSource;
  let tenantA: string;
  let tenantB: string;
  let tokenA: string;
  let tokenB: string;
  let hookA: string;
  let hookB: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    issuer = await new TestIssuer().start();
    const redis = testRedis();
    const env = loadConfig(
      AlertsEnv,
      baseTestEnv({
        DATABASE_URL: db.url,
        REDIS_URL: redis.url,
        QUEUE_PREFIX: redis.prefix,
        JWKS_URL: issuer.jwksUrl,
        TOKEN_ISSUER: issuer.issuer,
      }),
    );
    app = await createTestApp(AlertsModule.forRoot(env), alertsHttpOptions(env));
    ds = app.get(DataSource);
    const world = new World(ds);
    const dev = await world.developer();
    // Two partner apps, each deployed at one tenant (a webhook receives its app's deliveries of every tenant).
    const appA = (await world.app({ type: 'developer', id: dev.id }, 'Wellbeing')).app.id;
    const appB = (await world.app({ type: 'developer', id: dev.id }, 'Timetable')).app.id;
    tenantA = (await world.tenant()).id;
    tenantB = (await world.tenant()).id;
    await world.deploy(appA, tenantA, [READ, HOOKS]);
    await world.deploy(appB, tenantB, [READ, HOOKS]);
    tokenA = await issuer.mint({ scopes: [HOOKS], tenantId: tenantA, sub: appA });
    tokenB = await issuer.mint({ scopes: [HOOKS], tenantId: tenantB, sub: appB });
    const operator = await issuer.mint({ scopes: [ADMIN], sub: 'operator' });
    hookA = (
      await http()
        .post('/v2/alerts/webhook')
        .set(as(tokenA))
        .send({ endpoint: 'https://hooks.partner.example/a', type: 'notification-only' })
        .expect(200)
    ).body.webhook_id;
    hookB = (
      await http()
        .post('/v2/alerts/webhook')
        .set(as(tokenB))
        .send({ endpoint: 'https://hooks.partner.example/b', type: 'full-payload' })
        .expect(200)
    ).body.webhook_id;
    await http()
      .post('/v2/alerts/messages')
      .set(as(operator))
      .send({ tenant_id: tenantA, messages: Array.from({ length: 4 }, () => sampleAlertMessage()) })
      .expect(201);
    await http()
      .post('/v2/alerts/messages')
      .set(as(operator))
      .send({ tenant_id: tenantB, messages: Array.from({ length: 2 }, () => sampleAlertMessage()) })
      .expect(201);
    // As the dispatcher records a delivery whose 11th attempt failed: A's first three became
    // undeliverable 1, 2 and 30 hours ago, its fourth was delivered; both of B's 1 hour ago.
    const a = await ids(hookA);
    const b = await ids(hookB);
    await fail(a[0], '1 hour');
    await fail(a[1], '2 hours');
    await fail(a[2], '30 hours');
    await ds.query(
      `UPDATE webhook_deliveries SET status = 'delivered', attempt_count = 1, due_at = NULL, finished_at = now() WHERE id = $1`,
      [a[3]],
    );
    for (const id of b) await fail(id, '1 hour');
  });

  afterAll(async () => {
    await app?.close();
    await issuer?.stop();
    await db?.drop();
  });

  const http = () => request(app.getHttpServer());
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });
  const ids = async (hook: string): Promise<string[]> =>
    (
      await ds.query(
        `SELECT id FROM webhook_deliveries WHERE webhook_id = $1 AND trigger = 'message' ORDER BY created_at, id`,
        [hook],
      )
    ).map((r: { id: string }) => r.id);
  const fail = (id: string, ago: string) =>
    ds.query(
      `UPDATE webhook_deliveries SET status = 'undeliverable', attempt_count = 11, due_at = NULL, last_error_code = 'E_CONNECT', finished_at = now() - $2::interval WHERE id = $1`,
      [id, ago],
    );
  const rows = (): Promise<Row[]> =>
    ds.query(
      `SELECT id, webhook_id, tenant_id, message_id, kind, trigger, redelivery_of, status, enqueued_at FROM webhook_deliveries ORDER BY created_at, id`,
    );

  async function replay(...args: string[]): Promise<{ code: number; out: string; err: string }> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runReplayCli(
      args,
      { DATABASE_URL: db.url },
      { log: (l) => out.push(l), error: (l) => err.push(l) },
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  }

  it('--dry-run counts what a replay would redeliver, per webhook, and writes nothing', async () => {
    const before = await rows();
    const r = await replay('--since', '1d', '--dry-run');
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toMatch(/^Deliveries undeliverable since \d{4}-\d\d-\d\dT[\d:.]+Z: 4 to replay\.$/m);
    expect(r.out).toContain(`       2  webhook ${hookA}  app `);
    expect(r.out).toContain(`       2  webhook ${hookB}  app `);
    expect(r.out).toContain('https://hooks.partner.example/a');
    expect(r.out).toContain('Dry run: nothing written.');
    expect(await rows()).toEqual(before);
  });

  it("replays one webhook's deliveries in the window as redeliveries the outbox relay will queue, with the webhook's current type", async () => {
    await http().patch(`/v2/alerts/webhook/${hookA}`).set(as(tokenA)).send({ type: 'full-payload' }).expect(200);
    const [a0, a1, a2] = await ids(hookA);
    const r = await replay(
      '--webhook',
      hookA,
      '--since',
      new Date(Date.now() - 3 * 3_600_000).toISOString(),
      '--until',
      '30m',
    );
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(r.out).toContain(': 2 to replay.');
    expect(r.out).toContain(
      'Created 2 redeliveries (trigger "redeliver"); the webhook dispatcher queues them within a few seconds.',
    );

    const made = (await rows()).filter((d) => d.trigger === 'redeliver');
    expect(made.map((d) => d.redelivery_of).sort()).toEqual([a0, a1].sort());
    const originals = new Map((await rows()).map((d) => [d.id, d]));
    for (const d of made) {
      expect(d).toMatchObject({
        webhook_id: hookA,
        tenant_id: tenantA,
        status: 'pending',
        enqueued_at: null,
        kind: 'full-payload',
      });
      expect(d.message_id).toBe(originals.get(d.redelivery_of!)!.message_id);
    }
    // Undeliverable 30 hours ago: outside the window.
    expect(made.map((d) => d.redelivery_of)).not.toContain(a2);
    // The partner sees them in its delivery log.
    const log = await http().get(`/v2/alerts/webhook/${hookA}/deliveries?status=pending`).set(as(tokenA)).expect(200);
    expect(log.body.deliveries.map((d: { redelivery_of: string }) => d.redelivery_of).sort()).toEqual([a0, a1].sort());
  });

  it('replays nothing twice: a second run skips what an earlier replay or the partner already redelivered', async () => {
    const [b0] = await ids(hookB);
    await http().post(`/v2/alerts/webhook/${hookB}/deliveries/${b0}/redeliver`).set(as(tokenB)).expect(201);
    const count = (await rows()).length;
    const r = await replay('--since', '1d', '--tenant', tenantB);
    expect(r.code).toBe(0);
    expect(r.out).toContain(': 1 to replay.');
    expect(r.out).toContain('skipped: 1 already redelivered (by an earlier replay or by the partner)');
    expect((await rows()).length).toBe(count + 1);

    const again = await replay('--since', '1d');
    expect(again.code).toBe(0);
    expect(again.out).toContain(': 0 to replay.');
    expect(again.out).toContain('skipped: 4 already redelivered');
    expect(again.out).not.toContain('Created');
    expect((await rows()).length).toBe(count + 1);
  });

  it("skips deliveries whose message's payload was purged (retention): nothing is left to send", async () => {
    const operator = await issuer.mint({ scopes: [ADMIN], sub: 'operator' });
    await http()
      .post('/v2/alerts/messages')
      .set(as(operator))
      .send({ tenant_id: tenantB, messages: [sampleAlertMessage()] })
      .expect(201);
    const [purged] = (await ids(hookB)).slice(-1);
    await fail(purged, '10 minutes');
    await ds.query(
      `UPDATE alert_messages SET recipient = '{}', alerts = '[]', payload_purged_at = now()
        WHERE id = (SELECT message_id FROM webhook_deliveries WHERE id = $1)`,
      [purged],
    );
    const r = await replay('--since', '30m', '--webhook', hookB);
    expect(r.code).toBe(0);
    expect(r.out).toContain("skipped: 1 whose message's payload was purged (the tenant's retention): nothing to send");
    expect((await rows()).filter((d) => d.redelivery_of === purged)).toEqual([]);
  });

  it('skips deliveries whose webhook has been deleted', async () => {
    const [, , a2] = await ids(hookA);
    await http().delete(`/v2/alerts/webhook/${hookA}`).set(as(tokenA)).expect(200);
    const r = await replay('--since', '2d', '--dry-run');
    expect(r.code).toBe(0);
    expect(r.out).toContain(': 0 to replay.');
    expect(r.out).toContain('skipped: 1 whose webhook has been deleted');
    expect((await rows()).filter((d) => d.redelivery_of === a2)).toEqual([]);
  });

  it.each([
    [[], '--since is required'],
    [
      ['--since', 'yesterday'],
      '--since must be an ISO 8601 time (2025-03-01T02:00:00Z) or a duration before now (6h, 2d) (got "yesterday")',
    ],
    [['--since', '1h', '--webhook', 'hook-1'], '--webhook must be a uuid (got "hook-1")'],
    [['--since', '1h', '--until', '2h'], '--until must be later than --since'],
    [['--since', '1h', '--all'], "Unknown option '--all'"],
  ])('refuses %j with exit code 2 and the usage', async (args, message) => {
    const r = await replay(...args);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
    expect(r.err).toContain('usage: npm run alerts:replay -- --since');
  });

  it('reads times and durations', () => {
    const now = Date.parse('2025-03-01T12:00:00Z');
    expect(parseInstant('6h', now)?.toISOString()).toBe('2025-03-01T06:00:00.000Z');
    expect(parseInstant('2d', now)?.toISOString()).toBe('2025-02-27T12:00:00.000Z');
    expect(parseInstant('2025-03-01T02:00:00Z')?.toISOString()).toBe('2025-03-01T02:00:00.000Z');
    expect(parseInstant('2025-03-01T02:00:00+08:00')?.toISOString()).toBe('2025-02-28T18:00:00.000Z');
    expect(parseInstant('2025-03-01')?.toISOString()).toBe('2025-03-01T00:00:00.000Z');
    expect([parseInstant('yesterday'), parseInstant('2025-13-45'), parseInstant('6 h'), parseInstant('')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });
});
