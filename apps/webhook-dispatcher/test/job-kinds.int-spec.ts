import { Queue } from 'bullmq';
import { DELIVERY_BACKOFF, DELIVERY_JOB, QUEUES, redisOptionsFromUrl } from '@edu/queue';
import { DispatchHarness } from './support/dispatch-harness';

/**
 * Kinds of delivery job over the real worker and Redis, including jobs stored in the shape of the
 * release before kinds (`{ deliveryId, attemptOffset }`), as a rolling deploy leaves them queued.
 */
describe('webhook dispatcher: delivery job kinds', () => {
  const h = new DispatchHarness();
  let raw: Queue;

  beforeAll(async () => {
    await h.start({ WEBHOOK_SWEEP_INTERVAL_MS: '500', WEBHOOK_SWEEP_GRACE_MS: '1000' });
    raw = new Queue(QUEUES.webhookDeliveries, { connection: redisOptionsFromUrl(h.redisUrl), prefix: h.prefix });
  });
  afterAll(async () => {
    await raw?.close();
    await h.stop();
  });
  beforeEach(() => {
    h.receiver.responder = () => ({ status: 200 });
  });

  /** A stored delivery whose job is added as `data` straight to Redis (the relay finds it queued). */
  async function storedWithJob(
    path: string,
    data: Record<string, unknown>,
    o: { trigger?: string; attemptsMade?: number } = {},
  ): Promise<string> {
    const hook = await h.webhook(`${h.receiver.url}/${path}`);
    const [id] = await h.deliveries(hook, [o.trigger === 'test' ? null : (await h.message()).id], {
      queued: false,
      trigger: o.trigger,
    });
    if (o.attemptsMade)
      await h.ds.query(`UPDATE webhook_deliveries SET status = 'awaiting_retry', attempt_count = $2 WHERE id = $1`, [
        id,
        o.attemptsMade,
      ]);
    await raw.add(
      DELIVERY_JOB,
      { deliveryId: id, ...data },
      { jobId: id, attempts: 11, backoff: { type: DELIVERY_BACKOFF } },
    );
    return id;
  }

  it('delivers a job queued before kinds existed as a first attempt', async () => {
    const id = await storedWithJob('old-first', { attemptOffset: 0 });
    await h.until([id], ['delivered']);
    expect(h.receiver.byJti(id).map((d) => d.attempt)).toEqual([1]);
  });

  it('continues the schedule of a job queued before kinds existed that carried attempts', async () => {
    const id = await storedWithJob('old-requeued', { attemptOffset: 3 }, { attemptsMade: 3 });
    await h.until([id], ['delivered']);
    expect(h.receiver.byJti(id).map((d) => d.attempt)).toEqual([4]);
  });

  it('gives a test job one attempt: a refused test delivery is undeliverable at once', async () => {
    h.receiver.responder = () => ({ status: 500 });
    const id = await storedWithJob('test-refused', { kind: 'test', attemptOffset: 0 }, { trigger: 'test' });
    await h.until([id], ['undeliverable']);
    expect((await h.attempts(id)).map((a) => a.attempt_number)).toEqual([1]);
    expect(await raw.getJobState(id)).toBe('failed');
  });

  it('fails a job of a kind it does not know without sending, and the sweeper queues the delivery again', async () => {
    const id = await storedWithJob('unknown-kind', { kind: 'bulk-resend', attemptOffset: 0 });
    await h.until([id], ['delivered']);
    expect(h.receiver.byJti(id).map((d) => d.attempt)).toEqual([1]);
    const job = await raw.getJob(id);
    expect(job?.data).toEqual({ kind: 'requeued', deliveryId: id, attemptOffset: 0 });
  });
});
