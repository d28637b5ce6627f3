import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { loadConfig } from '@edu/config';
import { ScopeCatalog } from '@edu/domain';
import { AlertMessageEntity, WebhookDeliveryEntity, WebhookEntity } from '@edu/persistence';
import {
  baseTestEnv,
  createTestApp,
  createTestDatabase,
  expectError,
  sampleAlertMessage,
  TestIssuer,
  testRedis,
  World,
  type TestDatabase,
} from '@edu/testing';
import { alertsHttpOptions } from '../src/alerts-http';
import { AlertsModule } from '../src/alerts.module';
import { AlertsEnv } from '../src/config/alerts.env';

const catalog = new ScopeCatalog({
  schemaBase: 'https://api.edu.example',
  onerosterBase: 'https://purl.imsglobal.org/spec/or/v1p1/scope',
});
const ADMIN = catalog.uri('platform.admin');
const READ = catalog.uri('alerts.messages.read');
const HOOKS = catalog.uri('alerts.webhooks.write');
const ROSTER = catalog.uri('roster.readonly');
const UNKNOWN_ID = '6f1c1f0e-4a4b-4c1e-9b7a-3d2f1e0c9b8a';
/** A message as parsed JSON, to break on purpose. */
type Json = ReturnType<typeof JSON.parse>;

describe('alerts API: messages (operator submission, fan-out, getMessage)', () => {
  let db: TestDatabase;
  let issuer: TestIssuer;
  let app: NestExpressApplication;
  let ds: DataSource;
  let world: World;
  let tenantA: string;
  let tenantB: string;
  let tenantSg: string;
  let partner: string; // app with alerts scopes at A and B, two webhooks
  let rosterOnly: string; // app deployed at A without alerts scopes, one webhook
  let hooks: string[];
  let operator: string;
  let readerA: string;
  let readerB: string;

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
    world = new World(ds);
    const dev = await world.developer();
    partner = (await world.app({ type: 'developer', id: dev.id }, 'Wellbeing')).app.id;
    rosterOnly = (await world.app({ type: 'developer', id: dev.id }, 'Timetable')).app.id;
    tenantA = (await world.tenant()).id;
    tenantB = (await world.tenant()).id;
    tenantSg = (await world.tenant({ region: 'SG' })).id;
    await world.deploy(partner, tenantA, [READ, HOOKS]);
    await world.deploy(partner, tenantB, [HOOKS]);
    await world.deploy(rosterOnly, tenantA, [ROSTER]);
    const repo = ds.getRepository(WebhookEntity);
    hooks = [
      (await repo.save({ appId: partner, endpoint: 'https://hooks.partner.example/a', type: 'notification-only' })).id,
      (await repo.save({ appId: partner, endpoint: 'https://hooks.partner.example/b', type: 'full-payload' })).id,
    ];
    await repo.save({ appId: rosterOnly, endpoint: 'https://hooks.timetable.example/x', type: 'full-payload' });
    operator = await issuer.mint({ scopes: [ADMIN], sub: 'operator' });
    readerA = await issuer.mint({ scopes: [READ], tenantId: tenantA, sub: partner });
    readerB = await issuer.mint({ scopes: [READ, HOOKS], tenantId: tenantB, sub: partner });
  });

  afterAll(async () => {
    await app?.close();
    await issuer?.stop();
    await db?.drop();
  });

  const http = () => request(app.getHttpServer());
  const submit = (body: unknown, token = operator) =>
    http()
      .post('/v2/alerts/messages')
      .set('Authorization', `Bearer ${token}`)
      .send(body as object);
  const counts = async () => ({
    messages: await ds.getRepository(AlertMessageEntity).count(),
    deliveries: await ds.getRepository(WebhookDeliveryEntity).count(),
  });

  it('stores a batch, fans each message out to every webhook of every alerts app deployed at the tenant, in request order', async () => {
    const first = sampleAlertMessage({ items: 2 });
    const second = sampleAlertMessage({ groups: 2, items: 3 });
    const res = await submit({ tenant_id: tenantA, messages: [first, second] }).expect(201);
    expect(res.body).toEqual({
      messages: [
        { message_id: expect.stringMatching(/^[0-9a-f-]{36}$/), transaction_id: first.transaction_id, deliveries: 2 },
        { message_id: expect.stringMatching(/^[0-9a-f-]{36}$/), transaction_id: second.transaction_id, deliveries: 2 },
      ],
    });
    const rows = await ds
      .getRepository(WebhookDeliveryEntity)
      .find({ where: { messageId: res.body.messages[0].message_id } });
    // The app without an alerts scope gets nothing, though it has a webhook.
    expect(rows.map((r) => r.webhookId).sort()).toEqual([...hooks].sort());
    expect(
      rows.every(
        (r) => r.status === 'pending' && r.tenantId === tenantA && r.appId === partner && r.enqueuedAt !== null,
      ),
    ).toBe(true);
    expect(rows.find((r) => r.webhookId === hooks[1])?.kind).toBe('full-payload');
  });

  it('answers the existing message for a known transaction id and stores nothing new (generators retry)', async () => {
    const msg = sampleAlertMessage();
    const first = await submit({ tenant_id: tenantA, messages: [msg] }).expect(201);
    const before = await counts();
    const again = await submit({ tenant_id: tenantA, messages: [msg, msg] }).expect(201);
    expect(again.body.messages).toEqual([first.body.messages[0], first.body.messages[0]]);
    expect(await counts()).toEqual(before);
    // Another tenant may use the same transaction id: it is a key within a tenant.
    const other = await submit({ tenant_id: tenantB, messages: [msg] }).expect(201);
    expect(other.body.messages[0].message_id).not.toBe(first.body.messages[0].message_id);
    expect(other.body.messages[0].deliveries).toBe(2);
  });

  it('takes a full batch of 1,000 rich messages (several MB, tens of thousands of objects) that other routes would refuse', async () => {
    const messages = Array.from({ length: 1_000 }, () => sampleAlertMessage({ groups: 3, items: 3 }));
    const body = JSON.stringify({ tenant_id: tenantB, messages });
    expect(body.length).toBeGreaterThan(2 * 1_048_576);
    const res = await http()
      .post('/v2/alerts/messages')
      .set('Authorization', `Bearer ${operator}`)
      .set('Content-Type', 'application/json')
      .send(body);
    expect(res.status).toBe(201);
    expect(res.body.messages).toHaveLength(1_000);
    const elsewhere = await http()
      .post('/v2/alerts/webhook')
      .set('Authorization', `Bearer ${readerB}`)
      .set('Content-Type', 'application/json')
      .send(body);
    expectError(elsewhere, 413, 'payload_too_large');
  }, 60_000);

  it('keeps two concurrent submissions of one transaction id to one message', async () => {
    const msg = sampleAlertMessage();
    const answers = await Promise.all([1, 2, 3].map(() => submit({ tenant_id: tenantA, messages: [msg] })));
    expect(answers.map((a) => a.status)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((a) => a.body.messages[0].message_id)).size).toBe(1);
    expect(
      await ds.getRepository(AlertMessageEntity).count({ where: { transactionId: msg.transaction_id as string } }),
    ).toBe(1);
  });

  describe('validation: a bad message names messages[i].path and nothing of the batch is stored', () => {
    const withChange = (mutate: (m: Json) => void) => {
      const m: Json = JSON.parse(JSON.stringify(sampleAlertMessage()));
      mutate(m);
      return m;
    };
    it.each([
      ['missing recipient', (m: Json) => delete m.recipient, 'messages[1].recipient'],
      ['bad e-mail', (m: Json) => (m.recipient.primary_email = 'nope'), 'messages[1].recipient.primary_email'],
      [
        'unknown property deep inside',
        (m: Json) => (m.alerts[0].alerts[0].student.secret = 1),
        'messages[1].alerts[0].alerts[0].student.secret',
      ],
      ['unknown property at the top of a message', (m: Json) => (m.message_id = 'mine'), 'messages[1].message_id'],
      ['a counter supplied', (m: Json) => (m.sent_alert_count = 3), 'messages[1].sent_alert_count'],
      [
        'badge colour not hex',
        (m: Json) => (m.alerts[0].badges[0].color = 'blue'),
        'messages[1].alerts[0].badges[0].color',
      ],
      [
        'row type unknown',
        (m: Json) => (m.alerts[0].alerts[0].rows[0].type = 'html'),
        'messages[1].alerts[0].alerts[0].rows[0].type',
      ],
      [
        'detail row without list',
        (m: Json) => delete m.alerts[0].alerts[0].rows[3].list,
        'messages[1].alerts[0].alerts[0].rows[3].list',
      ],
      [
        'year level not an integer',
        (m: Json) => (m.alerts[0].alerts[0].student.current_year_level = '9'),
        'messages[1].alerts[0].alerts[0].student.current_year_level',
      ],
      ['alert id not a uuid', (m: Json) => (m.alerts[0].alerts[0].id = 42), 'messages[1].alerts[0].alerts[0].id'],
      [
        'pronouns not strings',
        (m: Json) => (m.alerts[0].alerts[0].entity.pronouns = [1]),
        'messages[1].alerts[0].alerts[0].entity.pronouns',
      ],
      ['empty transaction id', (m: Json) => (m.transaction_id = ''), 'messages[1].transaction_id'],
      ['no alert groups', (m: Json) => (m.alerts = []), 'messages[1].alerts'],
      ['alerts not an array', (m: Json) => (m.alerts = { a: 1 }), 'messages[1].alerts'],
    ])('%s', async (_name, mutate, field) => {
      const before = await counts();
      const res = await submit({ tenant_id: tenantA, messages: [sampleAlertMessage(), withChange(mutate)] });
      expectError(res, 400, 'validation_failed');
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
      expect(await counts()).toEqual(before);
    });

    it.each([
      ['no messages', { messages: [] }, 'messages'],
      ['more than 1,000 messages', { messages: Array.from({ length: 1_001 }, () => ({})) }, 'messages'],
      ['tenant id not a uuid', { tenant_id: 'abc' }, 'tenant_id'],
      ['unknown tenant', { tenant_id: UNKNOWN_ID }, 'tenant_id'],
      ['unknown top-level property', { extra: true }, 'extra'],
    ])('refuses a batch with %s', async (_name, change, field) => {
      const before = await counts();
      const res = await submit({ tenant_id: tenantA, messages: [sampleAlertMessage()], ...change });
      expectError(res, 400, 'validation_failed');
      expect(res.body.fields.map((f: { field: string }) => f.field)).toContain(field);
      expect(await counts()).toEqual(before);
    });

    it('refuses bodies that are not JSON objects', async () => {
      expectError(await submit([sampleAlertMessage()]), 400, 'validation_failed');
      expectError(
        await http()
          .post('/v2/alerts/messages')
          .set('Authorization', `Bearer ${operator}`)
          .set('Content-Type', 'text/plain')
          .send('x'),
        415,
        'unsupported_media_type',
      );
    });
  });

  describe('getMessage', () => {
    let messageId: string;
    let sent: Json;

    beforeAll(async () => {
      sent = sampleAlertMessage({ groups: 2, items: 2 });
      messageId = (await submit({ tenant_id: tenantA, messages: [sent] }).expect(201)).body.messages[0].message_id;
    });

    it('answers the spec 2.10 shape, counting alert items per delivery and fetch', async () => {
      const res = await http()
        .get(`/v2/alerts/message/${messageId}`)
        .set('Authorization', `Bearer ${readerA}`)
        .expect(200);
      expect(Object.keys(res.body)).toEqual([
        'message_id',
        'method',
        'queued_alert_count',
        'fetched_alert_count',
        'sent_alert_count',
        'transaction_id',
        'recipient',
        'alerts',
      ]);
      // 4 alert items, two deliveries under way, one app has fetched it (this call), none sent yet.
      expect(res.body).toEqual({
        message_id: messageId,
        method: 'webhook',
        queued_alert_count: 8,
        fetched_alert_count: 4,
        sent_alert_count: 0,
        transaction_id: sent.transaction_id,
        recipient: sent.recipient,
        alerts: sent.alerts,
      });
    });

    it('keeps the counters true as deliveries finish', async () => {
      await ds.query(`UPDATE webhook_deliveries SET status = 'delivered' WHERE message_id = $1 AND webhook_id = $2`, [
        messageId,
        hooks[0],
      ]);
      await ds.query(
        `UPDATE webhook_deliveries SET status = 'undeliverable' WHERE message_id = $1 AND webhook_id = $2`,
        [messageId, hooks[1]],
      );
      const res = await http()
        .get(`/v2/alerts/message/${messageId}`)
        .set('Authorization', `Bearer ${readerA}`)
        .expect(200);
      expect(res.body).toMatchObject({ queued_alert_count: 0, sent_alert_count: 4, fetched_alert_count: 4 });
    });

    it("answers another tenant's message, an unknown id and a malformed id with the same 404", async () => {
      const bodies = [];
      for (const id of [messageId, UNKNOWN_ID, 'not-a-uuid', `${messageId}x`]) {
        const res = await http().get(`/v2/alerts/message/${id}`).set('Authorization', `Bearer ${readerB}`);
        expectError(res, 404, 'not_found');
        bodies.push(res.body);
      }
      expect(new Set(bodies.map((b) => JSON.stringify({ ...b, request_id: undefined }))).size).toBe(1);
      // Reading as another tenant recorded no fetch.
      const own = await http()
        .get(`/v2/alerts/message/${messageId}`)
        .set('Authorization', `Bearer ${readerA}`)
        .expect(200);
      expect(own.body.fetched_alert_count).toBe(4);
    });

    it('requires messages.read: no token 401, bad token 401, webhooks scope only 403, operator 403', async () => {
      expectError(await http().get(`/v2/alerts/message/${messageId}`), 401, 'invalid_token');
      expectError(
        await http().get(`/v2/alerts/message/${messageId}`).set('Authorization', 'Bearer nope'),
        401,
        'invalid_token',
      );
      const hooksOnly = await issuer.mint({ scopes: [HOOKS], tenantId: tenantA, sub: partner });
      expectError(
        await http().get(`/v2/alerts/message/${messageId}`).set('Authorization', `Bearer ${hooksOnly}`),
        403,
        'insufficient_scope',
      );
      expectError(
        await http().get(`/v2/alerts/message/${messageId}`).set('Authorization', `Bearer ${operator}`),
        403,
        'insufficient_scope',
      );
    });
  });

  it('lets only the operator submit: no token 401, partner token 403', async () => {
    const body = { tenant_id: tenantA, messages: [sampleAlertMessage()] };
    expectError(await http().post('/v2/alerts/messages').send(body), 401, 'invalid_token');
    expectError(await submit(body, readerA), 403, 'insufficient_scope');
    const forged = await issuer.attackTokens({ scopes: [ADMIN], sub: 'operator' });
    for (const [name, token] of Object.entries(forged)) {
      const res = await submit(body, token);
      if (res.status !== 401) throw new Error(`${name}: expected 401, got ${res.status}`);
    }
  });

  it('records nothing for a webhook registered after the message (old messages are not sent to new webhooks)', async () => {
    const msg = sampleAlertMessage();
    const id = (await submit({ tenant_id: tenantA, messages: [msg] }).expect(201)).body.messages[0].message_id;
    await ds
      .getRepository(WebhookEntity)
      .save({ appId: partner, endpoint: 'https://hooks.partner.example/late', type: 'notification-only' });
    expect(await ds.getRepository(WebhookDeliveryEntity).count({ where: { messageId: id } })).toBe(2);
  });

  it('exposes alert_messages_stored_total', async () => {
    const res = await http().get('/metrics').expect(200);
    expect(res.text).toMatch(/alert_messages_stored_total \d+/);
  });

  describe('on a regional host', () => {
    let regional: NestExpressApplication;
    beforeAll(async () => {
      const redis = testRedis();
      const env = loadConfig(
        AlertsEnv,
        baseTestEnv({
          DATABASE_URL: db.url,
          REDIS_URL: redis.url,
          QUEUE_PREFIX: redis.prefix,
          JWKS_URL: issuer.jwksUrl,
          TOKEN_ISSUER: issuer.issuer,
          SERVICE_REGION: 'SG',
        }),
      );
      regional = await createTestApp(AlertsModule.forRoot(env), alertsHttpOptions(env));
    });
    afterAll(() => regional?.close());

    it("serves only its region's tenants: submission, getMessage and webhooks of another region's tenant are 403", async () => {
      const before = await counts();
      expectError(
        await request(regional.getHttpServer())
          .post('/v2/alerts/messages')
          .set('Authorization', `Bearer ${operator}`)
          .send({ tenant_id: tenantA, messages: [sampleAlertMessage()] }),
        403,
        'wrong_region',
      );
      expect(await counts()).toEqual(before);
      expectError(
        await request(regional.getHttpServer())
          .get(`/v2/alerts/message/${UNKNOWN_ID}`)
          .set('Authorization', `Bearer ${readerA}`),
        403,
        'wrong_region',
      );
      expectError(
        await request(regional.getHttpServer()).get('/v2/alerts/webhook').set('Authorization', `Bearer ${readerB}`),
        403,
        'wrong_region',
      );
      // A tenant of this region whose identity data has not reached this database yet: retry later.
      const notYet = await issuer.mint({ scopes: [READ, HOOKS], tenantId: UNKNOWN_ID, region: 'SG', sub: partner });
      const early = await request(regional.getHttpServer())
        .get('/v2/alerts/webhook')
        .set('Authorization', `Bearer ${notYet}`);
      expectError(early, 503, 'service_unavailable');
      expect(early.headers['retry-after']).toBeDefined();
      const sgOk = await request(regional.getHttpServer())
        .post('/v2/alerts/messages')
        .set('Authorization', `Bearer ${operator}`)
        .send({ tenant_id: tenantSg, messages: [sampleAlertMessage()] });
      expect(sgOk.status).toBe(201);
      expect(sgOk.body.messages[0].deliveries).toBe(0);
    });
  });
});
