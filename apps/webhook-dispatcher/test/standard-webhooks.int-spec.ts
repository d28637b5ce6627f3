import { Webhook } from 'standardwebhooks';
import type { ReceivedDelivery } from '@edu/testing';
import { DispatchHarness } from './support/dispatch-harness';

/** Whether the stock `standardwebhooks` library, given `secret`, accepts what arrived. */
function verifies(secret: string, d: ReceivedDelivery): boolean {
  try {
    new Webhook(secret).verify(d.body, d.headers, { jsonParse: false });
    return true;
  } catch {
    return false;
  }
}

/**
 * Standard Webhooks headers beside the unchanged signed JWT body: the stock library verifies
 * every delivery with the webhook's secret, retries and redeliveries included, and across a
 * rotation (both secrets sign during its overlap).
 */
describe('webhook dispatcher: Standard Webhooks signatures', () => {
  const h = new DispatchHarness();

  beforeAll(() => h.start());
  afterAll(() => h.stop());
  beforeEach(() => {
    h.receiver.responder = () => ({ status: 200 });
  });

  it('signs first attempts, retries and redeliveries so that standardwebhooks verifies 100 % of them; the JWT body is unchanged', async () => {
    const { hook, secret } = await h.signedWebhook(`${h.receiver.url}/std`);
    h.receiver.responder = (d, nth) => ({ status: d.claims.type === 'notification-only' && nth <= 2 ? 503 : 200 });
    const messages = [await h.message(), await h.message(), await h.message()];
    const firsts = await h.deliveries(
      hook,
      messages.map((m) => m.id),
    );
    const [again] = await h.deliveries(hook, [messages[0].id], { trigger: 'redeliver' });
    await h.until([...firsts, again], ['delivered']);
    const got = [...firsts, again].flatMap((id) => h.receiver.byJti(id));
    expect(got).toHaveLength(12); // every delivery: two 503s, then 200
    for (const d of got) {
      expect({ jti: d.claims.jti, verified: d.verified, std: verifies(secret, d) }).toEqual({
        jti: d.claims.jti,
        verified: true,
        std: true,
      });
      expect(d.headers['webhook-id']).toBe(d.claims.jti);
      expect(d.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
      expect(Math.abs(Number(d.headers['webhook-timestamp']) - (d.claims.iat as number))).toBeLessThanOrEqual(1);
      expect(d.contentType).toBe('application/jwt');
    }
    // A stranger's secret verifies none of them.
    const stranger = (await h.signedWebhook(`${h.receiver.url}/none`)).secret;
    expect(got.filter((d) => verifies(stranger, d))).toEqual([]);
  });

  it('signs a full payload above 1 MB and a test delivery the same way', async () => {
    const { hook, secret } = await h.signedWebhook(`${h.receiver.url}/std-full`, 'full-payload');
    const [full] = await h.deliveries(hook, [
      (await h.message({ groups: 10, items: 40, rowText: 'x'.repeat(2_000) })).id,
    ]);
    const [test] = await h.deliveries(hook, [null], { trigger: 'test' });
    await h.until([full, test], ['delivered']);
    const [big] = h.receiver.byJti(full);
    expect(big.bytes).toBeGreaterThan(1_200_000);
    expect(verifies(secret, big)).toBe(true);
    expect(verifies(secret, h.receiver.byJti(test)[0])).toBe(true);
  });

  it('sends both signatures during a rotation overlap and only the new one after it, across the retries of one delivery', async () => {
    const { hook, secret: oldSecret } = await h.signedWebhook(`${h.receiver.url}/rotating`);
    // Answers are held a moment, so the secret changes between attempts, not during one.
    h.receiver.responder = (_d, nth) => (nth <= 2 ? { status: 503, delayMs: 600 } : { status: 200 });
    const [id] = await h.deliveries(hook, [(await h.message()).id]);
    await h.receiver.until(() => h.receiver.byJti(id).length >= 1);
    const newSecret = await h.rotateSecret(hook, 3_600_000);
    await h.receiver.until(() => h.receiver.byJti(id).length >= 2);
    await h.ds.query(`UPDATE webhooks SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`, [
      hook.id,
    ]);
    await h.until([id], ['delivered']);
    const [first, during, after] = h.receiver.byJti(id);
    const signatures = (d: ReceivedDelivery) => d.headers['webhook-signature'].split(' ').length;
    expect([first, during, after].map((d) => [signatures(d), verifies(oldSecret, d), verifies(newSecret, d)])).toEqual([
      [1, true, false],
      [2, true, true],
      [1, false, true],
    ]);
  });

  it('sends webhook-id and webhook-timestamp but no signature for a webhook without a secret', async () => {
    const hook = await h.webhook(`${h.receiver.url}/legacy`);
    const [id] = await h.deliveries(hook, [(await h.message()).id]);
    await h.until([id], ['delivered']);
    const [d] = h.receiver.byJti(id);
    expect(d.verified).toBe(true);
    expect(d.headers).toMatchObject({ 'webhook-id': id, 'webhook-timestamp': expect.stringMatching(/^\d{10}$/) });
    expect(d.headers['webhook-signature']).toBeUndefined();
  });
});
