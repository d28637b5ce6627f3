import { randomUUID } from 'node:crypto';
import { canonicalSpec, SHARE_EVERYTHING, specHash, type WithholdCategory } from '@edu/sharing';
import { DispatchHarness } from './support/dispatch-harness';

/** A claim as parsed JSON. */
type Json = ReturnType<typeof JSON.parse>;

/**
 * What the school's data sharing does to what the dispatcher sends (design §11): fields the app's
 * sharing withholds are left out of both payload kinds, read at each attempt; a withheld delivery
 * is never sent, even if a job for it reaches the queue.
 */
describe('webhook dispatcher: data sharing', () => {
  const h = new DispatchHarness();
  let deploymentId: string;

  beforeAll(async () => {
    await h.start();
    deploymentId = (await h.world.deploy(h.appId, h.tenantId, [])).deployment.id;
  });
  afterAll(() => h.stop());

  /** The deployment's active sharing, stored as the Identity API stores an activation. */
  async function withhold(categories: WithholdCategory[] | null): Promise<void> {
    const active = categories ? canonicalSpec({ ...SHARE_EVERYTHING, withhold: categories }) : null;
    await h.ds.query(
      `INSERT INTO deployment_sharing (deployment_id, tenant_id, app_id, active, active_hash, activated_at)
       VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (deployment_id) DO UPDATE SET active = EXCLUDED.active, active_hash = EXCLUDED.active_hash`,
      [deploymentId, h.tenantId, h.appId, active && JSON.stringify(active), active && specHash(active)],
    );
  }

  it('leaves withheld fields out of full payloads and notices, and sends them again once the school shares them', async () => {
    const full = await h.webhook(`${h.receiver.url}/full`, 'full-payload');
    const notify = await h.webhook(`${h.receiver.url}/notify`);
    const msg = await h.message({ groups: 2, items: 2 });
    await withhold(['contact', 'identifiers', 'preferred_names']);
    const [f1] = await h.deliveries(full, [msg.id]);
    const [n1] = await h.deliveries(notify, [msg.id]);
    await h.until([f1, n1], ['delivered']);
    const message: Json = h.receiver.byJti(f1)[0].claims.message;
    expect(message.recipient).toEqual({
      entity_uuid: msg.body.recipient.entity_uuid,
      ext_id: msg.body.recipient.ext_id,
      name: msg.body.recipient.name,
      first_name: msg.body.recipient.first_name,
      last_name: msg.body.recipient.last_name,
    });
    const entity = message.alerts[1].alerts[1].entity;
    expect(Object.keys(entity).sort()).toEqual(['ext_id', 'first_name', 'last_name', 'uuid']);
    expect(message.alerts[1].alerts[1].rows).toEqual(msg.body.alerts[1].alerts[1].rows);
    expect((h.receiver.byJti(n1)[0].claims.notice as Json).recipient).toEqual({
      entity_uuid: msg.body.recipient.entity_uuid,
      ext_id: msg.body.recipient.ext_id,
      name: msg.body.recipient.name,
    });

    // The same message again, once nothing is withheld: whole (the trimmed copy is not reused).
    await withhold(null);
    const [f2] = await h.deliveries(full, [msg.id], { trigger: 'redeliver' });
    await h.until([f2], ['delivered']);
    expect(h.receiver.byJti(f2)[0].claims.message).toMatchObject({
      recipient: msg.body.recipient,
      alerts: msg.body.alerts,
    });
  });

  it('never sends a withheld delivery, even when a job for it is queued', async () => {
    const hook = await h.webhook(`${h.receiver.url}/withheld`);
    const msg = await h.message();
    const id = randomUUID();
    await h.ds.query(
      `INSERT INTO webhook_deliveries (id, tenant_id, app_id, webhook_id, message_id, kind, trigger, status, finished_at, reason)
       VALUES ($1, $2, $3, $4, $5, 'notification-only', 'message', 'withheld', now(), 'not_shared')`,
      [id, h.tenantId, h.appId, hook.id, msg.id],
    );
    await h.queue.enqueue([{ kind: 'first-attempt', deliveryId: id }]);
    const [control] = await h.deliveries(hook, [msg.id], { trigger: 'redeliver' });
    await h.until([control], ['delivered']);
    for (let i = 0; i < 20 && (await h.queue.state(id)) !== 'completed'; i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(await h.queue.state(id)).toBe('completed');
    expect(h.receiver.byJti(id)).toEqual([]);
    expect(await h.delivery(id)).toMatchObject({ status: 'withheld', reason: 'not_shared', attempt_count: 0 });
    expect(await h.attempts(id)).toEqual([]);
  });
});
