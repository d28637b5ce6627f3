import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { PayloadPurge } from '../src/retention/payload-purge';
import { DispatchHarness } from './support/dispatch-harness';

/**
 * Payload retention: past the tenant's `delivery_payload_retention_days` (default 30), messages
 * and event deliveries lose their payload while ids, times, statuses and attempts stay;
 * deliveries that never finished sending end `expired`.
 */
describe('webhook dispatcher: payload retention', () => {
  const h = new DispatchHarness();

  beforeAll(() => h.start({ PAYLOAD_PURGE_INTERVAL_MS: '300' }));
  afterAll(() => h.stop());

  const age = (table: string, id: string, days: number) =>
    h.ds.query(`UPDATE ${table} SET created_at = now() - $2::int * interval '1 day' WHERE id = $1`, [id, days]);
  const messageRow = async (id: string) =>
    (await h.ds.query(`SELECT recipient, alerts, payload_purged_at FROM alert_messages WHERE id = $1`, [id]))[0];

  it('purges what is past the retention, keeps the metadata, expires what was never sent, and leaves the rest', async () => {
    await h.ds.query(
      `INSERT INTO tenant_delivery_settings (tenant_id, delivery_payload_retention_days) VALUES ($1, 7)`,
      [h.tenantId],
    );
    const hook = await h.webhook(`${h.receiver.url}/kept`);
    const [old, recent, heldOld] = [await h.message(), await h.message(), await h.message()];
    const [sent, sentRecent] = await h.deliveries(hook, [old.id, recent.id]);
    await h.until([sent, sentRecent], ['delivered']);
    const [held] = await h.deliveries(hook, [heldOld.id], { queued: false });
    await h.ds.query(
      `UPDATE webhook_deliveries SET status = 'held', reason = 'webhook_disabled', due_at = NULL WHERE id = $1`,
      [held],
    );
    const event = randomUUID();
    await h.ds.query(
      `INSERT INTO webhook_deliveries (id, tenant_id, app_id, webhook_id, kind, trigger, status, event_type, event, created_at)
       VALUES ($1, $2, $3, $4, 'notification-only', 'event', 'held', 'endpoint.disabled', '{"webhook_id": "w"}', now() - interval '8 days')`,
      [event, h.tenantId, h.appId, hook.id],
    );
    for (const id of [old.id, heldOld.id]) await age('alert_messages', id, 8);
    await age('alert_messages', recent.id, 6);

    const before = await h.attempts(sent);
    await waitFor(async () => (await messageRow(old.id)).payload_purged_at !== null);
    await waitFor(async () => (await h.delivery(event)).event === null);

    expect(await messageRow(old.id)).toMatchObject({ recipient: {}, alerts: [] });
    expect(await messageRow(recent.id)).toMatchObject({ recipient: recent.body.recipient, payload_purged_at: null });
    // Metadata stays: the delivery, its status and its attempts (the receiver's answer goes).
    expect(await h.delivery(sent)).toMatchObject({ status: 'delivered', message_id: old.id, attempt_count: 1 });
    const after = await h.attempts(sent);
    expect(after.map((a) => [a.attempt_number, a.response_status, a.started_at.getTime()])).toEqual(
      before.map((a) => [a.attempt_number, a.response_status, a.started_at.getTime()]),
    );
    expect(before[0].response_excerpt).toBe('ok');
    expect(after[0].response_excerpt).toBeNull();
    expect((await h.attempts(sentRecent))[0].response_excerpt).toBe('ok');
    expect(await h.delivery(held)).toMatchObject({ status: 'expired', reason: 'payload_purged', due_at: null });
    expect(await h.delivery(event)).toMatchObject({ status: 'expired', reason: 'payload_purged', event: null });
    const metrics = await request(h.app.getHttpServer()).get('/metrics').expect(200);
    expect(metrics.text).toMatch(/^alert_payloads_purged_total\{what="message"\} [1-9]/m);
  });

  it('keeps payloads 30 days by default', async () => {
    const other = await h.world.tenant();
    const ids: string[] = [];
    for (const days of [29, 31]) {
      const id = randomUUID();
      await h.ds.query(
        `INSERT INTO alert_messages (id, tenant_id, transaction_id, recipient, alerts, alert_count, created_at)
         VALUES ($1, $2, $3, '{"name": "x"}', '[{"a": 1}]', 1, now() - $4::int * interval '1 day')`,
        [id, other.id, `tx-${id}`, days],
      );
      ids.push(id);
    }
    await h.app.get(PayloadPurge).run();
    expect((await messageRow(ids[0])).payload_purged_at).toBeNull();
    expect(await messageRow(ids[1])).toMatchObject({ recipient: {}, alerts: [] });
  });

  it('expires, without an attempt, a queued delivery whose message was purged before its turn', async () => {
    const hook = await h.webhook(`${h.receiver.url}/late`);
    const msg = await h.message();
    const [id] = await h.deliveries(hook, [msg.id], { queued: false });
    await h.ds.query(
      `UPDATE alert_messages SET recipient = '{}', alerts = '[]', payload_purged_at = now() WHERE id = $1`,
      [msg.id],
    );
    await h.queue.enqueue([{ kind: 'first-attempt', deliveryId: id }]);
    await h.until([id], ['expired']);
    expect(await h.attempts(id)).toEqual([]);
    expect(h.receiver.byJti(id)).toEqual([]);
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
