import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@edu/testing';
import { createDataSource } from '../data-source';
import type { DeliveryStatus } from '../entities';
import { messageCountsSql, type MessageCounts } from './delivery-sql';
import { DispatchRepository } from './dispatch.repository';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';

describe('deliveries module (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let deliveries: WebhookDeliveriesRepository;
  const tenantId = randomUUID();
  const appId = randomUUID();

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = createDataSource({ url: db.url, poolSize: 2, applicationName: 'deliveries-spec' });
    await ds.initialize();
    deliveries = new WebhookDeliveriesRepository(ds);
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  async function message(): Promise<string> {
    const id = randomUUID();
    await ds.query(
      `INSERT INTO alert_messages (id, tenant_id, transaction_id, recipient, alerts, alert_count) VALUES ($1, $2, $3, '{}', '[]', 2)`,
      [id, tenantId, `tx-${id}`],
    );
    return id;
  }

  async function delivery(
    webhookId: string,
    messageId: string | null,
    status: DeliveryStatus,
    trigger = 'message',
  ): Promise<string> {
    const id = randomUUID();
    await ds.query(
      `INSERT INTO webhook_deliveries (id, tenant_id, app_id, webhook_id, message_id, kind, trigger, status, due_at) VALUES ($1, $2, $3, $4, $5, 'full-payload', $6, $7, now())`,
      [id, tenantId, appId, webhookId, messageId, trigger, status],
    );
    return id;
  }

  const statuses = async (ids: string[]): Promise<string[]> => {
    const rows: { id: string; status: string; due_at: Date | null; finished_at: Date | null }[] = await ds.query(
      `SELECT id, status, due_at, finished_at FROM webhook_deliveries WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return ids.map((id) => {
      const r = rows.find((x) => x.id === id)!;
      return r.status === 'cancelled' ? `cancelled due=${r.due_at} finished=${r.finished_at !== null}` : r.status;
    });
  };

  it('cancels only the open deliveries of a deleted webhook, and the dispatcher cancels by id with the same statement', async () => {
    const hook = randomUUID();
    const other = randomUUID();
    const m = await message();
    const ids = [
      await delivery(hook, m, 'pending'),
      await delivery(hook, m, 'awaiting_retry', 'redeliver'),
      await delivery(hook, m, 'delivered', 'redeliver'),
      await delivery(other, m, 'pending'),
    ];
    await ds.transaction((em) => deliveries.cancelOpenOfWebhook(em, hook));
    expect(await statuses(ids)).toEqual([
      'cancelled due=null finished=true',
      'cancelled due=null finished=true',
      'delivered',
      'pending',
    ]);

    const undeliverable = await delivery(other, m, 'undeliverable', 'redeliver');
    await new DispatchRepository(ds).cancel([ids[3], undeliverable]);
    expect(await statuses([ids[3], undeliverable])).toEqual(['cancelled due=null finished=true', 'undeliverable']);
  });

  it('holds the open deliveries of a disabled webhook (never a test), cancels held ones with their webhook, and counts them as queued', async () => {
    const hook = randomUUID();
    const m = await message();
    const [open, retrying, test, done] = [
      await delivery(hook, m, 'pending'),
      await delivery(hook, m, 'awaiting_retry', 'redeliver'),
      await delivery(hook, null, 'pending', 'test'),
      await delivery(hook, m, 'delivered', 'redeliver'),
    ];
    await new DispatchRepository(ds).hold([open, retrying, test, done]);
    expect(await statuses([open, retrying, test, done])).toEqual(['held', 'held', 'pending', 'delivered']);
    const [counts]: MessageCounts[] = await ds.query(
      `SELECT c.* FROM alert_messages m CROSS JOIN LATERAL (${messageCountsSql('m.id')}) c WHERE m.id = $1`,
      [m],
    );
    expect(counts.open_deliveries).toBe(2);
    await ds.transaction((em) => deliveries.cancelOpenOfWebhook(em, hook));
    expect(await statuses([open, retrying, done])).toEqual([
      'cancelled due=null finished=true',
      'cancelled due=null finished=true',
      'delivered',
    ]);
  });

  it('counts a message: open and delivered deliveries, and the apps that fetched it', async () => {
    const hook = randomUUID();
    const m = await message();
    await delivery(hook, m, 'pending');
    await delivery(hook, m, 'awaiting_retry', 'redeliver');
    await delivery(hook, m, 'delivered', 'redeliver');
    await delivery(hook, m, 'undeliverable', 'redeliver');
    await delivery(hook, await message(), 'delivered');
    await ds.query(`INSERT INTO alert_message_fetches (message_id, app_id) VALUES ($1, $2), ($1, $3)`, [
      m,
      randomUUID(),
      randomUUID(),
    ]);
    const [counts]: MessageCounts[] = await ds.query(
      `SELECT c.* FROM alert_messages m CROSS JOIN LATERAL (${messageCountsSql('m.id')}) c WHERE m.id = $1`,
      [m],
    );
    expect(counts).toEqual({ open_deliveries: 2, delivered_deliveries: 1, fetching_apps: 2 });
    const [none]: MessageCounts[] = await ds.query(
      `SELECT c.* FROM alert_messages m CROSS JOIN LATERAL (${messageCountsSql('m.id')}) c WHERE m.id = $1`,
      [await message()],
    );
    expect(none).toEqual({ open_deliveries: 0, delivered_deliveries: 0, fetching_apps: 0 });
  });

  it("sizes a message's fan-out by its message deliveries only, and marks deliveries queued once", async () => {
    const hook = randomUUID();
    const [m1, m2, m3] = [await message(), await message(), await message()];
    const first = await delivery(hook, m1, 'pending');
    await delivery(randomUUID(), m1, 'delivered');
    await delivery(hook, m1, 'pending', 'redeliver');
    await delivery(hook, m2, 'pending');
    const sizes = await ds.transaction((em) => deliveries.fanOutSizes(em, tenantId, [m1, m2, m3]));
    expect(Object.fromEntries(sizes)).toEqual({ [m1]: 2, [m2]: 1 });

    await deliveries.markEnqueued([first]);
    const [{ enqueued_at: at }] = await ds.query(`SELECT enqueued_at FROM webhook_deliveries WHERE id = $1`, [first]);
    await deliveries.markEnqueued([first]);
    expect(
      (await ds.query(`SELECT enqueued_at FROM webhook_deliveries WHERE id = $1`, [first]))[0].enqueued_at,
    ).toEqual(at);
    expect(at).toBeInstanceOf(Date);
  });

  it('creates redeliveries and test deliveries the log finds only at their tenant and webhook', async () => {
    const hook = randomUUID();
    const m = await message();
    const original = await deliveries.find(tenantId, hook, await delivery(hook, m, 'undeliverable'));
    const again = await deliveries.createRedelivery(original!, tenantId, appId, 'notification-only');
    expect(again).toMatchObject({
      webhook_id: hook,
      message_id: m,
      kind: 'notification-only',
      trigger: 'redeliver',
      redelivery_of: original!.id,
      status: 'pending',
      attempt_count: 0,
    });
    const test = await deliveries.createTest(tenantId, appId, hook, 'full-payload');
    expect(test).toMatchObject({ webhook_id: hook, message_id: null, trigger: 'test', status: 'pending' });
    expect(await deliveries.find(randomUUID(), hook, test.id)).toBeUndefined();
    expect(await deliveries.find(tenantId, randomUUID(), test.id)).toBeUndefined();
    const page = await deliveries.list(tenantId, hook, { limit: 2 });
    expect(page.map((d) => d.id)).toEqual([test.id, again.id]);
    const rest = await deliveries.list(tenantId, hook, { limit: 2, after: { at: page[1].cursor_at, id: page[1].id } });
    expect(rest.map((d) => d.id)).toEqual([original!.id]);
  });
});
