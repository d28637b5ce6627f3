import { forgetReads, forgetReadsUnder, memoRead, primeRead, withRequestReads } from './request-reads';

describe('request reads', () => {
  const counter = () => {
    let n = 0;
    return { load: () => Promise.resolve(++n), count: () => n };
  };

  it('reads once per request, and anew in the next request', async () => {
    const c = counter();
    await withRequestReads(async () => {
      expect(await memoRead('k', c.load)).toBe(1);
      expect(await memoRead('k', c.load)).toBe(1);
    });
    await withRequestReads(async () => expect(await memoRead('k', c.load)).toBe(2));
    expect(c.count()).toBe(2);
  });

  it('remembers nothing outside a request', async () => {
    const c = counter();
    await memoRead('k', c.load);
    await memoRead('k', c.load);
    expect(c.count()).toBe(2);
  });

  it('serves a primed value, keeps the first value of a key, and reads again once forgotten', async () => {
    const c = counter();
    await withRequestReads(async () => {
      primeRead('k', 'primed');
      primeRead('k', 'later');
      expect(await memoRead('k', c.load)).toBe('primed');
      forgetReads('k');
      expect(await memoRead('k', c.load)).toBe(1);
      primeRead('a:1', 'x');
      primeRead('b:1', 'y');
      forgetReadsUnder('a:');
      expect(await memoRead('a:1', c.load)).toBe(2);
      expect(await memoRead('b:1', c.load)).toBe('y');
    });
  });

  it('does not remember a failed read', async () => {
    await withRequestReads(async () => {
      await expect(memoRead('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
      expect(await memoRead('k', () => Promise.resolve('up'))).toBe('up');
    });
  });

  it('keeps each request to its own memo when they interleave', async () => {
    const seen = await Promise.all(
      ['a', 'b'].map((v) =>
        withRequestReads(async () => {
          await new Promise((r) => setTimeout(r, v === 'a' ? 5 : 0));
          return memoRead('k', () => Promise.resolve(v));
        }),
      ),
    );
    expect(seen).toEqual(['a', 'b']);
  });
});
