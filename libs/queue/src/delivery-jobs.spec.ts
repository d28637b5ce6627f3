import { attemptOffsetOf, deliveryJobData, deliveryJobOf, type DeliveryJob } from './delivery-jobs';
import { jobToQueue } from './delivery-queue';

describe('delivery jobs', () => {
  it('store every kind with an attempt offset, 0 unless requeued, and nothing else', () => {
    const jobs: DeliveryJob[] = [
      { kind: 'first-attempt', deliveryId: 'a' },
      { kind: 'requeued', deliveryId: 'b', attemptOffset: 4 },
      { kind: 'redelivery', deliveryId: 'c' },
      { kind: 'test', deliveryId: 'd' },
    ];
    expect(jobs.map(attemptOffsetOf)).toEqual([0, 4, 0, 0]);
    expect(deliveryJobData({ kind: 'test', deliveryId: 'd', delayMs: 5 } as DeliveryJob)).toEqual({
      kind: 'test',
      deliveryId: 'd',
      attemptOffset: 0,
    });
    // Read back, a job of this release is the job that was stored.
    for (const job of jobs) expect(deliveryJobOf(deliveryJobData(job))).toMatchObject(job);
  });

  it('read a job stored before kinds existed as requeued when it carried attempts, else as a first attempt', () => {
    expect(deliveryJobOf({ deliveryId: 'a', attemptOffset: 0 })).toEqual({ kind: 'first-attempt', deliveryId: 'a' });
    expect(deliveryJobOf({ deliveryId: 'b', attemptOffset: 3 })).toEqual({
      kind: 'requeued',
      deliveryId: 'b',
      attemptOffset: 3,
    });
  });

  it('name the kind of a job its producer described without one', () => {
    expect(jobToQueue({ deliveryId: 'a' })).toEqual({ kind: 'first-attempt', deliveryId: 'a', delayMs: undefined });
    expect(jobToQueue({ deliveryId: 'b', attemptOffset: 2, delayMs: 10 })).toEqual({
      kind: 'requeued',
      deliveryId: 'b',
      attemptOffset: 2,
      delayMs: 10,
    });
    expect(jobToQueue({ deliveryId: 'c', urgent: true })).toEqual({
      kind: 'test',
      deliveryId: 'c',
      delayMs: undefined,
    });
    const named = { kind: 'redelivery', deliveryId: 'd' } as const;
    expect(jobToQueue(named)).toBe(named);
  });
});
