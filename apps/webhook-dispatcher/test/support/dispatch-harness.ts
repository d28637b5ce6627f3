import { randomUUID } from 'node:crypto';
import type { NestExpressApplication } from '@nestjs/platform-express';
import Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { DEMO_KEY_ENCRYPTION_KEY, loadConfig } from '@edu/config';
import { WebhookDeliveriesRepository, WebhookEntity, type WebhookType } from '@edu/persistence';
import { DeliveryQueue } from '@edu/queue';
import { generateWebhookSecret, KeyEncryption, SigningKeyStore } from '@edu/signing';
import {
  baseTestEnv,
  createTestApp,
  createTestDatabase,
  sampleAlertMessage,
  testRedis,
  WebhookReceiver,
  World,
  type TestDatabase,
} from '@edu/testing';
import { DispatcherEnv } from '../../src/config/dispatcher.env';
import type { Resolver } from '@edu/http';
import { DispatcherModule } from '../../src/dispatcher.module';

export const ISSUER = 'http://identity.test';

/** A row or message as parsed JSON. */
type Json = ReturnType<typeof JSON.parse>;

/** Settings that make the schedule run in seconds and let deliveries reach a local receiver. */
export const FAST: Record<string, string> = {
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  WEBHOOK_ALLOWED_PORTS: '*',
  WEBHOOK_RETRY_BASE_MS: '20',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_RELAY_INTERVAL_MS: '200',
  WEBHOOK_SWEEP_INTERVAL_MS: '500',
  WEBHOOK_SWEEP_GRACE_MS: '1000',
};

/**
 * One dispatcher (the real Nest module, its BullMQ worker on the shared Redis under a key prefix
 * of its own) over a fresh database, a receiver that verifies what arrives against the published
 * webhook keys, and builders for the rows the alerts API would have written.
 */
export class DispatchHarness {
  db!: TestDatabase;
  ds!: DataSource;
  app!: NestExpressApplication;
  queue!: DeliveryQueue;
  receiver!: WebhookReceiver;
  env!: DispatcherEnv;
  world!: World;
  redisUrl = '';
  private readonly replicas: NestExpressApplication[] = [];
  /** Seals secrets with the dispatcher's KEY_ENCRYPTION_KEY (the demo one), as the alerts API does. */
  readonly sealing = new KeyEncryption(DEMO_KEY_ENCRYPTION_KEY);
  prefix = '';
  tenantId = '';
  appId = '';

  async start(env: Record<string, string> = {}, resolver?: Resolver): Promise<this> {
    this.db = await createTestDatabase();
    const redis = testRedis();
    this.redisUrl = redis.url;
    this.prefix = redis.prefix;
    this.env = loadConfig(
      DispatcherEnv,
      baseTestEnv({
        DATABASE_URL: this.db.url,
        REDIS_URL: redis.url,
        QUEUE_PREFIX: redis.prefix,
        TOKEN_ISSUER: ISSUER,
        ...FAST,
        ...env,
      }),
    );
    this.app = await createTestApp(DispatcherModule.forRoot(this.env, { resolver }));
    this.ds = this.app.get(DataSource);
    this.queue = this.app.get(DeliveryQueue);
    this.world = new World(this.ds);
    // The webhook key exists before the first delivery, as the identity service's JWKS makes sure.
    const keys = new SigningKeyStore(this.ds, new KeyEncryption(DEMO_KEY_ENCRYPTION_KEY));
    await keys.activeKey('webhook');
    this.receiver = await new WebhookReceiver({ keys: (await keys.publishedKeys()) as never }).start();
    const tenant = await this.world.tenant();
    this.tenantId = tenant.id;
    this.appId = (await this.world.app({ type: 'tenant', id: tenant.id }, 'Wellbeing')).app.id;
    return this;
  }

  /** Another dispatcher on the same database and Redis (a replica), named `workerId` in attempt records. */
  async replica(workerId: string, resolver?: Resolver): Promise<NestExpressApplication> {
    const env: DispatcherEnv = Object.assign(Object.create(DispatcherEnv.prototype), this.env, { WORKER_ID: workerId });
    const app = await createTestApp(DispatcherModule.forRoot(env, { resolver }));
    this.replicas.push(app);
    return app;
  }

  async stop(): Promise<void> {
    for (const r of this.replicas) await r.close();
    await this.app?.close();
    await this.receiver?.stop();
    await this.db?.drop();
  }

  webhook(endpoint: string, type: WebhookType = 'notification-only'): Promise<WebhookEntity> {
    return this.ds.getRepository(WebhookEntity).save({ appId: this.appId, endpoint, type });
  }

  /** A webhook with a Standard Webhooks secret, stored sealed as the alerts API stores it; returns the secret too. */
  async signedWebhook(
    endpoint: string,
    type: WebhookType = 'notification-only',
  ): Promise<{ hook: WebhookEntity; secret: string }> {
    const secret = generateWebhookSecret();
    const hook = await this.ds
      .getRepository(WebhookEntity)
      .save({ appId: this.appId, endpoint, type, signingSecret: this.sealing.encrypt(secret) });
    return { hook, secret };
  }

  /** Rotates a webhook's secret as the alerts API does: the old one signs until `overlapMs` from now. */
  async rotateSecret(hook: WebhookEntity, overlapMs: number): Promise<string> {
    const secret = generateWebhookSecret();
    await this.ds.query(
      `UPDATE webhooks SET previous_signing_secret = signing_secret, signing_secret = $2,
              previous_secret_expires_at = now() + $3::int * interval '1 millisecond' WHERE id = $1`,
      [hook.id, this.sealing.encrypt(secret), overlapMs],
    );
    return secret;
  }

  /** A stored message (as the alerts API stores it); returns its id and what was stored. */
  async message(o: Parameters<typeof sampleAlertMessage>[0] = {}): Promise<{ id: string; body: Json }> {
    const body: Json = sampleAlertMessage(o);
    const id = randomUUID();
    const alertCount = (body.alerts as { alerts: unknown[] }[]).reduce((n, g) => n + g.alerts.length, 0);
    await this.ds.query(
      `INSERT INTO alert_messages (id, tenant_id, transaction_id, recipient, alerts, alert_count) VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, this.tenantId, body.transaction_id, JSON.stringify(body.recipient), JSON.stringify(body.alerts), alertCount],
    );
    return { id, body };
  }

  /** Pending deliveries of `messageId` to `hook`, queued unless `queued` is false. */
  async deliveries(
    hook: WebhookEntity,
    messageIds: (string | null)[],
    o: { queued?: boolean; trigger?: string } = {},
  ): Promise<string[]> {
    const ids = messageIds.map(() => randomUUID());
    await this.ds.query(
      `INSERT INTO webhook_deliveries (id, tenant_id, app_id, webhook_id, message_id, kind, trigger, status, due_at, enqueued_at)
       SELECT t.id, $1, $2, $3, t.message_id, $4, $5, 'pending', now(), CASE WHEN $6 THEN now() END
         FROM unnest($7::uuid[], $8::uuid[]) AS t(id, message_id)`,
      [this.tenantId, this.appId, hook.id, hook.type, o.trigger ?? 'message', o.queued !== false, ids, messageIds],
    );
    const kind = o.trigger === 'test' ? 'test' : o.trigger === 'redeliver' ? 'redelivery' : 'first-attempt';
    if (o.queued !== false) await this.queue.enqueue(ids.map((deliveryId) => ({ kind, deliveryId })));
    return ids;
  }

  async delivery(id: string): Promise<Json> {
    return (await this.ds.query(`SELECT * FROM webhook_deliveries WHERE id = $1`, [id]))[0];
  }

  attempts(id: string): Promise<Json[]> {
    return this.ds.query(`SELECT * FROM webhook_delivery_attempts WHERE delivery_id = $1 ORDER BY attempt_number`, [
      id,
    ]);
  }

  /** Waits until every given delivery is in one of `statuses`. */
  async until(ids: string[], statuses: string[], timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const rows: { status: string }[] = await this.ds.query(
        `SELECT status FROM webhook_deliveries WHERE id = ANY($1::uuid[])`,
        [ids],
      );
      if (rows.length === ids.length && rows.every((r) => statuses.includes(r.status))) return;
      if (Date.now() > deadline)
        throw new Error(
          `deliveries not ${statuses.join('/')} within ${timeoutMs} ms: ${JSON.stringify(rows.reduce((m, r) => ({ ...m, [r.status]: (m[r.status] ?? 0) + 1 }), {} as Record<string, number>))}`,
        );
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Waits until no job of these deliveries is waiting, delayed or running (each finished or gone). */
  async jobsSettled(ids: string[], timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const live = new Set(['waiting', 'delayed', 'active', 'prioritized', 'waiting-children']);
    for (;;) {
      const states = await Promise.all(ids.map((id) => this.queue.state(id)));
      if (!states.some((s) => live.has(s))) return;
      if (Date.now() > deadline) throw new Error(`jobs still live after ${timeoutMs} ms: ${states.join(', ')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Re-enables a disabled webhook as the alerts API's updateWebhook does: its held deliveries go again. */
  async reenable(hook: WebhookEntity): Promise<string[]> {
    const released = await this.ds.transaction(async (em) => {
      await em.query(
        `UPDATE webhooks SET status = 'active', disabled_reason = NULL, disabled_at = NULL, failing_since = NULL,
                consecutive_undeliverable = 0 WHERE id = $1 AND status = 'disabled'`,
        [hook.id],
      );
      return new WebhookDeliveriesRepository(this.ds).releaseHeld(em, hook.id);
    });
    await this.queue.requeue(
      released.map((d) =>
        d.attempt_count > 0
          ? { kind: 'requeued', deliveryId: d.id, attemptOffset: d.attempt_count }
          : { kind: 'first-attempt', deliveryId: d.id },
      ),
    );
    return released.map((d) => d.id);
  }

  /** Deletes every Redis key of this dispatcher's queue, as a Redis that lost its data would. */
  async loseRedisData(): Promise<number> {
    const redis = new Redis(this.redisUrl);
    try {
      let deleted = 0;
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${this.prefix}*`, 'COUNT', 1000);
        cursor = next;
        if (keys.length) deleted += await redis.del(...keys);
      } while (cursor !== '0');
      return deleted;
    } finally {
      redis.disconnect();
    }
  }
}
