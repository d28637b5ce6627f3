import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { loadConfig } from '@edu/config';
import { ScopeCatalog } from '@edu/domain';
import { DeliveryQueue } from '@edu/queue';
import {
  baseTestEnv,
  createTestApp,
  createTestDatabase,
  TestIssuer,
  testRedis,
  World,
  type TestDatabase,
} from '@edu/testing';
import { alertsHttpOptions } from '../src/alerts-http';
import { AlertsModule } from '../src/alerts.module';
import { AlertsEnv } from '../src/config/alerts.env';
import { runReplayCli } from '../src/deliveries/replay-command';
import { activateSharing, messageAbout, putRoster } from './support/sharing';

const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
});
const ADMIN = catalog.uri('platform.admin');
const READ = catalog.uri('alerts.messages.read');
const HOOKS = catalog.uri('alerts.webhooks.write');

interface Partner {
  appId: string;
  deploymentId: string;
  token: string;
  hook: string;
}

interface DeliveryRow {
  id: string;
  message_id: string;
  status: string;
  reason: string | null;
  due_at: Date | null;
  finished_at: Date | null;
  enqueued_at: Date | null;
}

/**
 * Data sharing applied to alerts (design §11), over real HTTP with real tokens, PostgreSQL and
 * Redis: an app shared by class gets deliveries only of messages about people it sees, the others
 * are in its delivery log as withheld (reason not_shared) and never queued, redelivered or read;
 * apps without sharing get everything, as before.
 */
describe('alerts API: data sharing decides which deliveries are sent', () => {
  let db: TestDatabase;
  let issuer: TestIssuer;
  let app: NestExpressApplication;
  let ds: DataSource;
  let tenant: string;
  let operator: string;
  let maths: Partner; // shared by class (cls-maths), contact and preferred names withheld
  let open: Partner; // no sharing at all
  let allWithheldIds: Partner; // mode all, identifiers withheld
  const submitted: Record<string, ReturnType<typeof messageAbout>> = {};
  const ids: Record<string, string> = {};

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
    tenant = (await world.tenant()).id;
    operator = await issuer.mint({ scopes: [ADMIN], sub: 'operator' });
    const dev = await world.developer();
    const partner = async (name: string): Promise<Partner> => {
      const appId = (await world.app({ type: 'developer', id: dev.id }, name)).app.id;
      const deploymentId = (await world.deploy(appId, tenant, [READ, HOOKS])).deployment.id;
      const token = await issuer.mint({ scopes: [READ, HOOKS], tenantId: tenant, sub: appId });
      const hook = (
        await http()
          .post('/v2/alerts/webhook')
          .set('Authorization', `Bearer ${token}`)
          .send({ endpoint: `https://hooks.${name.toLowerCase()}.example/in`, type: 'notification-only' })
          .expect(200)
      ).body.webhook_id;
      return { appId, deploymentId, token, hook };
    };
    [maths, open, allWithheldIds] = [await partner('Maths'), await partner('Open'), await partner('Ids')];
    await putRoster(ds, tenant, [
      { id: 'cls-maths', teachers: ['T-MATHS'], students: ['S-ANA'] },
      { id: 'cls-art', teachers: ['T-ART'], students: ['S-BEN'] },
    ]);
    const deployment = (p: Partner) => ({ id: p.deploymentId, tenantId: tenant, appId: p.appId });
    await activateSharing(ds, deployment(maths), {
      mode: 'classes',
      classes: ['cls-maths'],
      withhold: ['contact', 'preferred_names'],
    });
    await activateSharing(ds, deployment(allWithheldIds), { mode: 'all', withhold: ['identifiers'] });

    Object.assign(submitted, {
      seen: messageAbout('T-MATHS', ['S-ANA']),
      oneUnseen: messageAbout('T-MATHS', ['S-ANA', 'S-BEN']),
      otherClass: messageAbout('T-ART', ['S-BEN']),
      unknownRecipient: messageAbout('NOT-IN-ROSTER', ['S-ANA']),
    });
    const names = Object.keys(submitted);
    const res = await submit(names.map((n) => submitted[n])).expect(201);
    names.forEach((n, i) => (ids[n] = res.body.messages[i].message_id));
    answered = res.body.messages.map((m: { deliveries: number }) => m.deliveries);
  });

  let answered: number[];

  afterAll(async () => {
    await app?.close();
    await issuer?.stop();
    await db?.drop();
  });

  const http = () => request(app.getHttpServer());
  const as = (token: string) => ({ Authorization: `Bearer ${token}` });
  const submit = (messages: unknown[]) =>
    http().post('/v2/alerts/messages').set(as(operator)).send({ tenant_id: tenant, messages });
  const deliveriesOf = (p: Partner): Promise<DeliveryRow[]> =>
    ds.query(
      `SELECT id, message_id, status, reason, due_at, finished_at, enqueued_at FROM webhook_deliveries WHERE webhook_id = $1`,
      [p.hook],
    );
  const byMessage = (rows: DeliveryRow[], name: string) => rows.find((r) => r.message_id === ids[name]) as DeliveryRow;

  it('sends the class-shared app only the message about people it sees; an unshared app and a mode-all app get every one', async () => {
    // Every message goes to the two apps that share everyone; the first to the maths app too.
    expect(answered).toEqual([3, 2, 2, 2]);
    const queue = app.get(DeliveryQueue);
    const mathsRows = await deliveriesOf(maths);
    expect(mathsRows).toHaveLength(4);
    const seen = byMessage(mathsRows, 'seen');
    expect(seen).toMatchObject({ status: 'pending', reason: null, finished_at: null });
    expect(seen.enqueued_at).toBeInstanceOf(Date);
    expect(await queue.state(seen.id)).not.toBe('unknown');
    for (const name of ['oneUnseen', 'otherClass', 'unknownRecipient']) {
      const row = byMessage(mathsRows, name);
      expect({ name, ...row }).toMatchObject({
        name,
        status: 'withheld',
        reason: 'not_shared',
        due_at: null,
        enqueued_at: null,
      });
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(await queue.state(row.id)).toBe('unknown');
    }
    for (const p of [open, allWithheldIds]) {
      const rows = await deliveriesOf(p);
      expect(rows.map((r) => r.status)).toEqual(['pending', 'pending', 'pending', 'pending']);
      expect(rows.every((r) => r.enqueued_at !== null)).toBe(true);
    }
  });

  it("shows withheld deliveries in the app's delivery log with the reason, and filters by status", async () => {
    const res = await http()
      .get(`/v2/alerts/webhook/${maths.hook}/deliveries?status=withheld`)
      .set(as(maths.token))
      .expect(200);
    expect(res.body.deliveries.map((d: { message_id: string }) => d.message_id).sort()).toEqual(
      [ids.oneUnseen, ids.otherClass, ids.unknownRecipient].sort(),
    );
    expect(res.body.deliveries[0]).toMatchObject({
      status: 'withheld',
      reason: 'not_shared',
      attempt_count: 0,
      next_attempt_at: null,
      finished_at: expect.any(String),
    });
    const one = await http()
      .get(`/v2/alerts/webhook/${maths.hook}/deliveries/${res.body.deliveries[0].delivery_id}`)
      .set(as(maths.token))
      .expect(200);
    expect(one.body).toMatchObject({ status: 'withheld', reason: 'not_shared', attempts: [] });
  });

  it('refuses to redeliver a withheld delivery, with the reason', async () => {
    const withheld = byMessage(await deliveriesOf(maths), 'otherClass');
    const res = await http()
      .post(`/v2/alerts/webhook/${maths.hook}/deliveries/${withheld.id}/redeliver`)
      .set(as(maths.token))
      .expect(409);
    expect(res.body).toMatchObject({ error: 'conflict', reason: 'not_shared' });
    expect(res.body.message).toMatch(/withheld/);
    expect((await deliveriesOf(maths)).length).toBe(4);
  });

  it('answers getMessage of a message about someone the app does not see with 404, and leaves out withheld fields', async () => {
    await http().get(`/v2/alerts/message/${ids.oneUnseen}`).set(as(maths.token)).expect(404);
    const seen = (await http().get(`/v2/alerts/message/${ids.seen}`).set(as(maths.token)).expect(200)).body;
    // contact and preferred_names withheld: no e-mail, preferred name or pronouns; identifiers stay.
    expect(Object.keys(seen.recipient).sort()).toEqual(
      ['entity_uuid', 'ext_id', 'first_name', 'identifiers', 'last_name', 'name'].sort(),
    );
    expect(Object.keys(seen.alerts[0].alerts[0].entity).sort()).toEqual(
      ['ext_id', 'first_name', 'identifiers', 'last_name', 'uuid'].sort(),
    );
    const full = (await http().get(`/v2/alerts/message/${ids.oneUnseen}`).set(as(open.token)).expect(200)).body;
    expect(full.recipient).toEqual(submitted.oneUnseen.recipient);
    expect(full.alerts).toEqual(submitted.oneUnseen.alerts);
    // Withheld deliveries count in neither queued nor sent: two apps still have it under way.
    expect(full.queued_alert_count).toBe(2 * 2);
    const noIds = (await http().get(`/v2/alerts/message/${ids.oneUnseen}`).set(as(allWithheldIds.token)).expect(200))
      .body;
    expect(noIds.recipient.identifiers).toBeUndefined();
    expect(noIds.alerts[1].alerts[0].entity).not.toHaveProperty('identifiers');
    expect(noIds.recipient.primary_email).toBe(submitted.oneUnseen.recipient.primary_email);
  });

  it('answers a resubmission with the deliveries to send, and counts withheld deliveries in a metric', async () => {
    const again = await submit([submitted.oneUnseen, submitted.seen]).expect(201);
    expect(again.body.messages.map((m: { deliveries: number }) => m.deliveries)).toEqual([2, 3]);
    const metrics = (await http().get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/^alert_deliveries_withheld_total\{reason="not_shared"\} 3$/m);
  });

  it('applies a new sharing at once: new messages, redeliveries and getMessage follow it', async () => {
    const seen = byMessage(await deliveriesOf(maths), 'seen');
    await ds.query(`UPDATE webhook_deliveries SET status = 'delivered', finished_at = now() WHERE id = $1`, [seen.id]);
    await activateSharing(
      ds,
      { id: maths.deploymentId, tenantId: tenant, appId: maths.appId },
      { mode: 'classes', classes: ['cls-art'] },
    );
    const refused = await http()
      .post(`/v2/alerts/webhook/${maths.hook}/deliveries/${seen.id}/redeliver`)
      .set(as(maths.token))
      .expect(409);
    expect(refused.body).toMatchObject({ error: 'conflict', reason: 'not_shared' });
    await http().get(`/v2/alerts/message/${ids.seen}`).set(as(maths.token)).expect(404);
    const art = (await http().get(`/v2/alerts/message/${ids.otherClass}`).set(as(maths.token)).expect(200)).body;
    expect(art.recipient.primary_email).toBe(submitted.otherClass.recipient.primary_email);

    const res = await submit([messageAbout('T-ART', ['S-BEN']), messageAbout('T-MATHS', ['S-ANA'])]).expect(201);
    expect(res.body.messages.map((m: { deliveries: number }) => m.deliveries)).toEqual([3, 2]);
    ids.artLater = res.body.messages[0].message_id;
    const openSeen = byMessage(await deliveriesOf(open), 'seen');
    await ds.query(`UPDATE webhook_deliveries SET status = 'delivered', finished_at = now() WHERE id = $1`, [
      openSeen.id,
    ]);
    await http()
      .post(`/v2/alerts/webhook/${open.hook}/deliveries/${openSeen.id}/redeliver`)
      .set(as(open.token))
      .expect(201);
  });

  it('replays undeliverable deliveries of a message the app still sees, and skips the ones its sharing no longer shares', async () => {
    // Both became undeliverable: one about the art class (shared now), one about maths (no longer).
    const rows = await deliveriesOf(maths);
    const [art, seen] = [byMessage(rows, 'artLater'), byMessage(rows, 'seen')];
    await ds.query(
      `UPDATE webhook_deliveries SET status = 'undeliverable', attempt_count = 11, due_at = NULL, finished_at = now() WHERE id = ANY($1::uuid[])`,
      [[art.id, seen.id]],
    );
    const out: string[] = [];
    const code = await runReplayCli(
      ['--webhook', maths.hook, '--since', '1h'],
      { DATABASE_URL: db.url },
      { log: (l) => out.push(l), error: (l) => out.push(l) },
    );
    expect(code).toBe(0);
    expect(out.join('\n')).toContain(': 1 to replay.');
    expect(out).toContain("  skipped: 1 about a person the app's data sharing no longer shares");
    const made = (await deliveriesOf(maths)).filter((r) => ![...rows.map((x) => x.id)].includes(r.id));
    expect(made.map((r) => [r.message_id, r.status])).toEqual([[ids.artLater, 'pending']]);
  });
});
