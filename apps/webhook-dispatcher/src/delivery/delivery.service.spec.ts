import type { AttemptOutcome, DeliveryToSend, DispatchRepository } from '@edu/persistence';
import type { DispatcherEnv } from '../config/dispatcher.env';
import { SigningUnavailableError, type DeliveryAttempt } from './delivery-attempt';
import type { DeliveryReads, OutcomeWrites } from './delivery-batches';
import { DeliveryService } from './delivery.service';
import type { DispatcherMetrics } from './dispatcher.metrics';
import { DONE } from './job-settlement';
import { PerWebhookConcurrencyLimiter } from './per-webhook-concurrency-limiter';
import type { WebhookSender } from './webhook-sender';
import type { ThrottleAnswer, WebhookThrottle } from './webhook-throttle';

type Answer = 'ok' | 'fail' | Error;

/** A delivery as the batched read returns it (only what the service looks at is set). */
const delivery = (o: Partial<DeliveryToSend> = {}): DeliveryToSend =>
  ({
    id: 'd1',
    webhook_id: 'w1',
    status: 'pending',
    endpoint: 'https://partner.example/hook',
    trigger: 'message',
    message_id: 'm1',
    ...o,
  }) as DeliveryToSend;

/**
 * The service over fakes: deliveries in a map, attempts answered as scripted, writes and
 * cancellations recorded, a real per-webhook limiter (cap 1), metrics counted by label.
 */
function setup(rows: DeliveryToSend[], answer: Answer = 'ok') {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const calls = {
    attempts: [] as { id: string; attemptNumber: number; final: boolean }[],
    written: [] as AttemptOutcome[],
    cancelled: [] as string[],
    held: [] as string[],
    metrics: [] as string[],
    order: [] as string[],
  };
  let readError: Error | undefined;
  let disables = false;
  const reads = {
    add: async (id: string) => {
      if (readError) throw readError;
      return byId.get(id);
    },
  };
  const writes = {
    add: async (o: AttemptOutcome) => {
      calls.written.push(o);
      return { webhookDisabled: disables };
    },
    drain: async () => {
      calls.order.push('drain');
    },
  };
  const attempts = {
    run: async (d: DeliveryToSend, attemptNumber: number, final: boolean): Promise<AttemptOutcome> => {
      calls.attempts.push({ id: d.id, attemptNumber, final });
      if (answer instanceof Error) throw answer;
      const status = answer === 'ok' ? 'delivered' : final ? 'undeliverable' : 'awaiting_retry';
      return {
        deliveryId: d.id,
        attemptNumber,
        status,
        errorCode: answer === 'ok' ? null : 'E_HTTP',
        errorMessage: answer === 'ok' ? null : 'HTTP 500',
        durationMs: 12,
      } as AttemptOutcome;
    },
  };
  const counter = (name: string) => ({
    inc: (labels?: { outcome?: string }) => calls.metrics.push(labels?.outcome ? `${name}:${labels.outcome}` : name),
  });
  const metrics = {
    deliveries: counter('deliveries'),
    deferred: counter('deferred'),
    throttled: counter('throttled'),
    held: counter('held'),
    retryAfter: counter('retryAfter'),
    attemptDuration: { observe: () => undefined },
  };
  const repo = {
    cancel: async (ids: string[]) => {
      calls.cancelled.push(...ids);
    },
    hold: async (ids: string[]) => {
      calls.held.push(...ids);
    },
  };
  const sender = {
    close: async () => {
      calls.order.push('close');
    },
  };
  const limiter = new PerWebhookConcurrencyLimiter(1);
  let slot: ThrottleAnswer = { go: true, waitMs: 0 };
  const throttle = {
    take: async () => slot,
    close: () => undefined,
  };
  const service = new DeliveryService(
    { WEBHOOK_MAX_RETRIES: 10 } as DispatcherEnv,
    repo as unknown as DispatchRepository,
    metrics as unknown as DispatcherMetrics,
    reads as unknown as DeliveryReads,
    writes as unknown as OutcomeWrites,
    limiter,
    attempts as unknown as DeliveryAttempt,
    sender as unknown as WebhookSender,
    throttle as unknown as WebhookThrottle,
  );
  return {
    service,
    calls,
    limiter,
    failReads: (err: Error) => (readError = err),
    disableOnWrite: () => (disables = true),
    throttleWith: (answer: ThrottleAnswer) => (slot = answer),
  };
}

describe('DeliveryService', () => {
  it('attempts an open delivery, records the outcome and completes the job when it is delivered', async () => {
    const { service, calls, limiter } = setup([delivery()]);
    await expect(service.attempt('d1', 0, false)).resolves.toBe(DONE);
    expect(calls.attempts).toEqual([{ id: 'd1', attemptNumber: 1, final: false }]);
    expect(calls.written.map((o) => [o.deliveryId, o.status])).toEqual([['d1', 'delivered']]);
    expect(calls.metrics).toEqual(['deliveries:delivered']);
    expect(limiter.inFlightCount('w1')).toBe(0);
  });

  it('numbers the attempt after those made before and asks for a retry while attempts remain', async () => {
    const { service, calls } = setup([delivery({ status: 'awaiting_retry' })], 'fail');
    await expect(service.attempt('d1', 3, false)).resolves.toEqual({
      kind: 'retry',
      reason: 'attempt 4 failed: E_HTTP HTTP 500',
    });
    expect(calls.attempts).toEqual([{ id: 'd1', attemptNumber: 4, final: false }]);
    expect(calls.written.map((o) => o.status)).toEqual(['awaiting_retry']);
    expect(calls.metrics).toEqual(['deliveries:retry']);
  });

  it('makes the eleventh attempt the last: undeliverable is recorded and the job gives up', async () => {
    const { service, calls } = setup([delivery({ status: 'awaiting_retry' })], 'fail');
    const settled = await service.attempt('d1', 10, false);
    expect(settled).toEqual({ kind: 'give-up', reason: 'attempt 11 failed (E_HTTP); the delivery is undeliverable' });
    expect(calls.attempts).toEqual([{ id: 'd1', attemptNumber: 11, final: true }]);
    expect(calls.written.map((o) => o.status)).toEqual(['undeliverable']);
  });

  it('gives a test delivery one attempt, whether the job or the stored trigger says so', async () => {
    const viaJob = setup([delivery()], 'fail');
    await expect(viaJob.service.attempt('d1', 0, true)).resolves.toMatchObject({ kind: 'give-up' });
    expect(viaJob.calls.attempts).toEqual([{ id: 'd1', attemptNumber: 1, final: true }]);
    const viaTrigger = setup([delivery({ trigger: 'test' })], 'fail');
    await expect(viaTrigger.service.attempt('d1', 0, false)).resolves.toMatchObject({ kind: 'give-up' });
    expect(viaTrigger.calls.attempts).toEqual([{ id: 'd1', attemptNumber: 1, final: true }]);
  });

  it('sends nothing for a finished or unknown delivery (a stall re-run or a re-add)', async () => {
    const { service, calls } = setup([delivery({ status: 'delivered' }), delivery({ id: 'd2', status: 'cancelled' })]);
    for (const id of ['d1', 'd2', 'd3']) await expect(service.attempt(id, 0, false)).resolves.toBe(DONE);
    expect(calls.attempts).toEqual([]);
    expect(calls.written).toEqual([]);
  });

  it('cancels an open delivery whose webhook was deleted, without sending it', async () => {
    const { service, calls } = setup([delivery({ endpoint: null })]);
    await expect(service.attempt('d1', 0, false)).resolves.toBe(DONE);
    expect(calls.cancelled).toEqual(['d1']);
    expect(calls.attempts).toEqual([]);
    expect(calls.metrics).toEqual(['deliveries:cancelled']);
  });

  it('holds, without sending, an open delivery whose webhook is disabled; a test delivery still goes', async () => {
    const { service, calls } = setup([delivery({ webhook_status: 'disabled' })]);
    await expect(service.attempt('d1', 0, false)).resolves.toBe(DONE);
    expect(calls.held).toEqual(['d1']);
    expect(calls.attempts).toEqual([]);
    expect(calls.metrics).toEqual(['held']);
    const test = setup([delivery({ webhook_status: 'disabled', trigger: 'test' })]);
    await expect(test.service.attempt('d1', 0, true)).resolves.toBe(DONE);
    expect(test.calls.attempts).toHaveLength(1);
    expect(test.calls.held).toEqual([]);
  });

  it('completes instead of retrying when its outcome disabled the webhook (410 Gone): the delivery is held', async () => {
    const { service, calls, disableOnWrite } = setup([delivery()], 'fail');
    disableOnWrite();
    await expect(service.attempt('d1', 0, false)).resolves.toBe(DONE);
    expect(calls.written.map((o) => o.status)).toEqual(['awaiting_retry']);
  });

  it('puts a throttled delivery back until its slot without an attempt, and sends one whose slot is due', async () => {
    const later = setup([delivery({ rate_limit: 5 })]);
    later.throttleWith({ go: false, waitMs: 800 });
    await expect(later.service.attempt('d1', 0, false)).resolves.toEqual({ kind: 'postpone', ms: 800 });
    expect(later.calls.attempts).toEqual([]);
    expect(later.calls.metrics).toEqual(['throttled']);
    const now = setup([delivery({ rate_limit: 5 })]);
    now.throttleWith({ go: true, waitMs: 5 });
    await expect(now.service.attempt('d1', 0, false)).resolves.toBe(DONE);
    expect(now.calls.attempts).toHaveLength(1);
  });

  it('postpones without spending an attempt when the database cannot be read', async () => {
    const { service, calls, failReads } = setup([delivery()]);
    failReads(new Error('connection refused'));
    await expect(service.attempt('d1', 0, false)).resolves.toEqual({ kind: 'postpone', ms: 5_000 });
    expect(calls.attempts).toEqual([]);
  });

  it('postpones when signing is unavailable, writes nothing and frees the webhook slot', async () => {
    const { service, calls, limiter } = setup([delivery()], new SigningUnavailableError('no active key'));
    await expect(service.attempt('d1', 0, false)).resolves.toEqual({ kind: 'postpone', ms: 5_000 });
    expect(calls.attempts).toHaveLength(1);
    expect(calls.written).toEqual([]);
    expect(limiter.inFlightCount('w1')).toBe(0);
  });

  it('puts work back for a webhook at its cap instead of attempting it', async () => {
    const { service, calls, limiter } = setup([delivery()]);
    const slot = limiter.tryStart('w1');
    const settled = await service.attempt('d1', 0, false);
    slot?.();
    expect(settled.kind).toBe('postpone');
    expect(settled.kind === 'postpone' && settled.ms).toBeGreaterThanOrEqual(200);
    expect(calls.attempts).toEqual([]);
    expect(calls.metrics).toEqual(['deferred']);
  });

  it('finishes by writing the batched outcomes before closing the connections', async () => {
    const { service, calls } = setup([]);
    await service.finish();
    expect(calls.order).toEqual(['drain', 'close']);
  });
});
