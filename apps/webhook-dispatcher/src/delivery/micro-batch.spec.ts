import { MicroBatch } from './micro-batch';

describe('MicroBatch', () => {
  it('runs calls made together as one batch and gives each caller its own result', async () => {
    const batches: number[][] = [];
    const b = new MicroBatch<number, number>(
      async (xs) => {
        batches.push(xs);
        return xs.map((x) => x * 10);
      },
      100,
      5,
    );
    const results = await Promise.all([1, 2, 3].map((x) => b.add(x)));
    expect(results).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('starts a batch as soon as it is full', async () => {
    const batches: number[][] = [];
    const b = new MicroBatch<number, number>(async (xs) => (batches.push(xs), xs), 2, 10_000);
    await Promise.all([b.add(1), b.add(2)]);
    expect(batches).toEqual([[1, 2]]);
  });

  it("rejects every caller of a failed batch with the batch's error", async () => {
    const b = new MicroBatch<number, number>(
      async () => {
        throw new Error('database gone');
      },
      10,
      1,
    );
    const settled = await Promise.allSettled([b.add(1), b.add(2)]);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    expect((settled[0] as PromiseRejectedResult).reason.message).toBe('database gone');
  });

  it('drain waits for batches in flight', async () => {
    let finished = false;
    const b = new MicroBatch<number, number>(
      async (xs) => {
        await new Promise((r) => setTimeout(r, 30));
        finished = true;
        return xs;
      },
      10,
      10_000,
    );
    const p = b.add(1);
    await b.drain();
    expect(finished).toBe(true);
    await expect(p).resolves.toBe(1);
  });
});
