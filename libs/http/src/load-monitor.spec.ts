import { InFlightRequests } from './in-flight';
import { LoadMonitor, MIN_IN_FLIGHT, SAMPLE_INTERVAL_MS, type LoadBounds, type PoolProbe } from './load-monitor';

/** A monitor on a clock and a lag source the test moves; it samples only when told. */
function rig(bounds: Partial<LoadBounds> = {}, pool?: PoolProbe) {
  let clock = 10_000;
  // Like the loop's delay histogram: what was seen since the last read, then it starts over.
  let seen = 0;
  const read = () => {
    const p99 = seen;
    seen = 0;
    return p99;
  };
  const inFlight = new InFlightRequests();
  let timer = () => undefined as void;
  const monitor = new LoadMonitor(
    { eventLoopLagMs: 500, poolWaitMs: 0, ...bounds },
    {
      pool,
      inFlight,
      now: () => clock,
      lag: { enable: () => undefined, disable: () => undefined, read },
      every: (_ms, sample) => {
        timer = sample;
        return () => undefined;
      },
    },
  );
  return {
    monitor,
    inFlight,
    /** Requests that stay in flight. */
    requests: (n: number) => Array.from({ length: n }, () => inFlight.enter()),
    /** The loop reports `lagMs` for `count` samples, each on time. */
    lagging(lagMs: number, count = 1) {
      for (let i = 0; i < count; i++) {
        seen = lagMs;
        clock += SAMPLE_INTERVAL_MS;
        monitor.sample();
      }
    },
    /** The whole process stops for `ms` (a stall, SIGSTOP): the next sample is that late. */
    stall(ms: number) {
      clock += SAMPLE_INTERVAL_MS + ms;
      monitor.sample();
    },
    advance: (ms: number) => (clock += ms),
    /** The sampling timer's turn. */
    tick: () => timer(),
    /** The loop lagged `ms` (seen by the histogram, not sampled yet). */
    sawLag: (ms: number) => (seen = ms),
  };
}

describe('LoadMonitor', () => {
  it('does not shed on sustained lag alone: an idle process on a busy machine keeps answering', () => {
    const r = rig();
    r.monitor.start();
    r.requests(1);
    r.lagging(900, 15);
    expect(r.monitor.lagMs).toBe(900);
    expect(r.monitor.overload()).toBeUndefined();
  });

  it('sheds on lag sustained for 1 s with requests piling up, and stops once that lag has left the last 2 s', () => {
    const r = rig();
    r.monitor.start();
    r.requests(MIN_IN_FLIGHT);
    r.lagging(900, 4);
    expect(r.monitor.overload()).toBeUndefined(); // 800 ms of lag: not sustained yet
    r.lagging(900);
    expect(r.monitor.overload()).toBe('event_loop_lag');
    r.lagging(100, 5);
    expect(r.monitor.overload()).toBe('event_loop_lag'); // the 1 s of lag is still within the last 2 s
    r.lagging(100);
    expect(r.monitor.overload()).toBeUndefined();
  });

  it('does not shed on a short pause (a collection, a first compilation), however many requests wait', () => {
    const r = rig();
    r.monitor.start();
    r.requests(3 * MIN_IN_FLIGHT);
    r.lagging(100, 5);
    r.lagging(800);
    expect(r.monitor.overload()).toBeUndefined();
    r.lagging(100, 10);
    r.stall(600); // 800 ms of the last 2 s
    expect(r.monitor.lagMs).toBe(600);
    expect(r.monitor.overload()).toBeUndefined();
  });

  it('sees a stall in the first sample after it: the requests queued behind it are shed, then it serves again once the stall has left the last 2 s', () => {
    const r = rig();
    r.monitor.start();
    r.lagging(0, 3);
    r.stall(2_500);
    expect(r.monitor.lagMs).toBe(2_500);
    expect(r.monitor.overload()).toBeUndefined(); // nothing queued yet
    const queued = r.requests(MIN_IN_FLIGHT);
    expect(r.monitor.overload()).toBe('event_loop_lag');
    for (const done of queued) done();
    expect(r.monitor.overload()).toBe('event_loop_lag'); // they were there at once since the last sample
    r.lagging(0, 5);
    expect(r.monitor.overload()).toBe('event_loop_lag'); // 1 s of the stall is still within the last 2 s
    r.lagging(0);
    expect(r.monitor.overload()).toBeUndefined();
  });

  it('sheds the requests queued behind a stall that a busy machine reads one at a time over several samples, each answered before the next is read', () => {
    const r = rig();
    r.monitor.start();
    r.lagging(0, 3);
    r.stall(2_500);
    const decisions = Array.from({ length: 12 }, (_, i) => {
      // The process accepts one queued connection per loop turn; the timer samples between them.
      if (i > 0 && i % 5 === 0) r.lagging(0);
      else r.advance(40);
      const [done] = r.requests(1);
      const reason = r.monitor.overload();
      done();
      return reason;
    });
    expect(decisions).toEqual([...Array(MIN_IN_FLIGHT - 1).fill(undefined), ...Array(5).fill('event_loop_lag')]);
  });

  it('sees a stall at the first decision after it, before the sampling timer had its turn', () => {
    const r = rig();
    r.monitor.start();
    r.lagging(0, 3);
    r.advance(2_700); // stopped; the requests queued meanwhile are read before the timer runs
    const queued = r.requests(MIN_IN_FLIGHT);
    expect(r.monitor.overload()).toBe('event_loop_lag');
    expect(r.monitor.lagMs).toBe(2_500);
    for (const done of queued) done();
    r.advance(5);
    r.tick(); // the overdue timer, just after: measures nothing, so the stall's sample stands
    expect(r.monitor.overload()).toBe('event_loop_lag');
    r.advance(SAMPLE_INTERVAL_MS);
    r.tick();
    expect(r.monitor.overload()).toBe('event_loop_lag'); // the stall is still within the last 2 s
    r.lagging(0, 4);
    expect(r.monitor.overload()).toBeUndefined();
  });

  it('reports an overload for readiness until 2 s after it ended, so a probe at any instant sees a flickering one', () => {
    const r = rig();
    r.monitor.start();
    r.requests(MIN_IN_FLIGHT);
    r.lagging(900, 5);
    expect(r.monitor.overload()).toBe('event_loop_lag');
    r.lagging(0, 6);
    expect(r.monitor.overload()).toBeUndefined();
    expect(r.monitor.recentOverload()).toBe('event_loop_lag');
    r.lagging(0, 10);
    expect(r.monitor.recentOverload()).toBeUndefined();
  });

  it('ignores what happened before the service was ready: boot stalls and lag before start()', () => {
    const r = rig();
    r.requests(MIN_IN_FLIGHT);
    r.sawLag(5_000);
    r.advance(8_000);
    r.monitor.sample(); // a sample before start() measures nothing
    expect(r.monitor.lagMs).toBe(0);
    expect(r.monitor.overload()).toBeUndefined();
    r.monitor.start();
    r.advance(SAMPLE_INTERVAL_MS);
    r.monitor.sample();
    expect(r.monitor.lagMs).toBe(0);
    expect(r.monitor.overload()).toBeUndefined();
  });

  it('counts queries waiting for a database connection as load', () => {
    const pool: PoolProbe = {
      acquire: () => Promise.resolve(() => undefined),
      stats: () => ({ total: 10, idle: 0, waiting: 3 }),
    };
    const r = rig({}, pool);
    r.monitor.start();
    r.lagging(900, 5);
    expect(r.monitor.overload()).toBe('event_loop_lag');
  });

  it('times the wait for a database connection, counting a probe still waiting by its age', async () => {
    let release: () => void = () => undefined;
    const pool: PoolProbe = {
      acquire: () => new Promise((resolve) => (release = () => resolve(() => undefined))),
      stats: () => ({ total: 10, idle: 0, waiting: 4 }),
    };
    const r = rig({ eventLoopLagMs: 0, poolWaitMs: 100 }, pool);
    r.monitor.start();
    r.lagging(0); // the probe borrows a connection
    expect(r.monitor.overload()).toBeUndefined();
    r.lagging(0);
    expect(r.monitor.poolWaitMs).toBe(SAMPLE_INTERVAL_MS);
    expect(r.monitor.overload()).toBe('db_pool_wait');
    expect(r.monitor.poolStats()).toEqual({ total: 10, idle: 0, waiting: 4 });
    r.advance(50);
    release();
    await new Promise(setImmediate);
    r.lagging(0);
    expect(r.monitor.poolWaitMs).toBe(SAMPLE_INTERVAL_MS + 50);
  });

  it('never sheds with both bounds at 0', () => {
    const r = rig({ eventLoopLagMs: 0, poolWaitMs: 0 });
    r.monitor.start();
    r.requests(3 * MIN_IN_FLIGHT);
    r.lagging(5_000, 10);
    expect(r.monitor.overload()).toBeUndefined();
  });
});

describe('InFlightRequests', () => {
  it('counts each request once, and remembers the most at once and how many came until reset', () => {
    const f = new InFlightRequests();
    const ends = [f.enter(), f.enter(), f.enter()];
    ends[0]();
    ends[0]();
    expect(f.current).toBe(2);
    expect(f.peak()).toBe(3);
    expect(f.received()).toBe(3);
    f.resetCounts();
    expect(f.peak()).toBe(2);
    expect(f.received()).toBe(0);
  });
});
