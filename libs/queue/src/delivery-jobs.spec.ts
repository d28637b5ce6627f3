import { attemptOffsetOf, deliveryJobData, deliveryJobOf, type DeliveryJob } from './delivery-jobs';

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
});
