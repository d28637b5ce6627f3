import { LoadMonitor } from './load-monitor';

const busy = (ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    /* a stalled event loop */
  }
};

describe('LoadMonitor', () => {
  it('sees an event-loop stall in the first sample after it, and clears once the loop runs freely', async () => {
    const monitor = new LoadMonitor({ eventLoopLagMs: 200, poolWaitMs: 0 });
    monitor.start();
    try {
      await new Promise((r) => setTimeout(r, 250));
      busy(600);
      monitor.sample();
      expect(monitor.lagMs).toBeGreaterThan(300);
      expect(monitor.overload).toBe('event_loop_lag');
      await new Promise((r) => setTimeout(r, 500));
      expect(monitor.overload).toBeUndefined();
    } finally {
      monitor.stop();
    }
  });

  it('times the wait for a database connection, counting a probe still waiting by its age', async () => {
    let release: () => void = () => undefined;
    const pool = {
      acquire: () => new Promise<() => void>((resolve) => (release = () => resolve(() => undefined))),
      stats: () => ({ total: 10, idle: 0, waiting: 4 }),
    };
    const monitor = new LoadMonitor({ eventLoopLagMs: 0, poolWaitMs: 100 }, pool);
    monitor.start();
    try {
      await new Promise((r) => setTimeout(r, 450));
      expect(monitor.poolWaitMs).toBeGreaterThan(100);
      expect(monitor.overload).toBe('db_pool_wait');
      expect(monitor.poolStats()).toEqual({ total: 10, idle: 0, waiting: 4 });
      release();
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      monitor.stop();
    }
  });

  it('never sheds with both bounds at 0', () => {
    const monitor = new LoadMonitor({ eventLoopLagMs: 0, poolWaitMs: 0 });
    monitor.start();
    busy(300);
    monitor.sample();
    expect(monitor.overload).toBeUndefined();
    monitor.stop();
  });
});
