import { DELIVERY_JOB_KINDS, type DeliveryJobData } from '@edu/queue';
import {
  DeliveryJobRouter,
  deliveryJobHandlers,
  handlersByKind,
  type DeliveryJobHandlerMap,
} from './delivery-job-handlers';
import type { DeliveryService } from './delivery.service';
import { DONE } from './job-settlement';

/** A service that records what each job asked of it. */
function recordingService() {
  const calls: [string, number, boolean][] = [];
  const service = {
    attempt: async (deliveryId: string, attemptsBefore: number, onlyAttempt: boolean) => {
      calls.push([deliveryId, attemptsBefore, onlyAttempt]);
      return DONE;
    },
  } as unknown as DeliveryService;
  return { service, calls };
}

describe('delivery job handlers', () => {
  it('start the count at the attempts BullMQ made, after the offset of a requeued job, with one attempt for a test', async () => {
    const { service, calls } = recordingService();
    const router = new DeliveryJobRouter(service);
    await router.route({ kind: 'first-attempt', deliveryId: 'a', attemptOffset: 0 }, 2);
    await router.route({ kind: 'requeued', deliveryId: 'b', attemptOffset: 4 }, 2);
    await router.route({ kind: 'redelivery', deliveryId: 'c', attemptOffset: 0 }, 1);
    await router.route({ kind: 'test', deliveryId: 'd', attemptOffset: 0 }, 0);
    expect(calls).toEqual([
      ['a', 2, false],
      ['b', 6, false],
      ['c', 1, false],
      ['d', 0, true],
    ]);
  });

  it('handle a job queued before kinds existed as its kind: with attempts a requeued job, else a first attempt', async () => {
    const { service, calls } = recordingService();
    const router = new DeliveryJobRouter(service);
    await router.route({ deliveryId: 'old-requeued', attemptOffset: 3 }, 1);
    await router.route({ deliveryId: 'old-first', attemptOffset: 0 }, 0);
    expect(calls).toEqual([
      ['old-requeued', 4, false],
      ['old-first', 0, false],
    ]);
  });

  it('fail a job of a kind this release does not know, without attempting it', async () => {
    const { service, calls } = recordingService();
    const router = new DeliveryJobRouter(service);
    for (const kind of ['bulk-resend', 'constructor', '__proto__']) {
      const settled = await router.route({ kind, deliveryId: 'x', attemptOffset: 0 } as unknown as DeliveryJobData, 0);
      expect(settled).toEqual({ kind: 'give-up', reason: `unknown delivery job kind "${kind}"` });
    }
    expect(calls).toEqual([]);
  });

  it('cover every kind, and a map missing one or naming an unknown one is refused when the worker is built', () => {
    const { service } = recordingService();
    const map = deliveryJobHandlers(service);
    expect(Object.keys(map).sort()).toEqual([...DELIVERY_JOB_KINDS].sort());
    expect([...handlersByKind(map).keys()]).toEqual([...DELIVERY_JOB_KINDS]);
    const { test: _test, ...withoutTest } = map;
    expect(() => handlersByKind(withoutTest as DeliveryJobHandlerMap)).toThrow('no handler for "test"');
    expect(() => handlersByKind({ ...map, 'bulk-resend': map.redelivery } as DeliveryJobHandlerMap)).toThrow(
      'a handler for unknown kind "bulk-resend"',
    );
  });
});
