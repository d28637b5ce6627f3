import { monitorEventLoopDelay, performance, type IntervalHistogram } from 'node:perf_hooks';

/** A database connection pool as the monitor sees it (libs/persistence adapts pg's). */
export interface PoolProbe {
  /** Waits for a connection like any query would; the returned function gives it back. */
  acquire(): Promise<() => void>;
  stats(): { total: number; idle: number; waiting: number };
}

export interface LoadBounds {
  /** Event-loop lag past which the service is overloaded (ms); 0 = never. */
  readonly eventLoopLagMs: number;
  /** Wait for a database connection past which the service is overloaded (ms); 0 = never (and no probe runs). */
  readonly poolWaitMs: number;
}

export type OverloadReason = 'event_loop_lag' | 'db_pool_wait';

const SAMPLE_INTERVAL_MS = 200;
const HISTOGRAM_RESOLUTION_MS = 10;
/** How often a connection is borrowed to time the pool's queue. */
const POOL_PROBE_INTERVAL_MS = 1_000;

/**
 * Measures how loaded this process is, every 200 ms: event-loop lag (the p99 of
 * `monitorEventLoopDelay` over the last interval, or how late the sampling timer itself ran,
 * whichever is larger: a stall shows up in the first sample after it, before the requests that
 * queued behind it are read) and how long borrowing a database connection takes (a probe borrows
 * one each second; while it waits, its age so far counts).
 */
export class LoadMonitor {
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: HISTOGRAM_RESOLUTION_MS });
  private timer?: NodeJS.Timeout;
  private lastSampleAt = 0;
  private lastProbeAt = 0;
  private probeStartedAt?: number;
  private lastPoolWaitMs = 0;
  lagMs = 0;
  poolWaitMs = 0;
  overload?: OverloadReason;

  constructor(
    private readonly bounds: LoadBounds,
    private readonly pool?: PoolProbe,
  ) {}

  start(): void {
    this.histogram.enable();
    this.lastSampleAt = performance.now();
    this.timer = setInterval(() => this.sample(), SAMPLE_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }

  poolStats(): { total: number; idle: number; waiting: number } | undefined {
    return this.pool?.stats();
  }

  /** One measurement; public so tests can drive it without waiting for the timer. */
  sample(): void {
    const now = performance.now();
    const timerLate = now - this.lastSampleAt - SAMPLE_INTERVAL_MS;
    this.lastSampleAt = now;
    const p99 = this.histogram.count > 0 ? this.histogram.percentile(99) / 1e6 - HISTOGRAM_RESOLUTION_MS : 0;
    this.histogram.reset();
    this.lagMs = Math.max(0, timerLate, p99);
    this.poolWaitMs =
      this.probeStartedAt !== undefined
        ? Math.max(this.lastPoolWaitMs, now - this.probeStartedAt)
        : this.lastPoolWaitMs;
    this.overload = this.reason();
    if (
      this.pool &&
      this.bounds.poolWaitMs > 0 &&
      this.probeStartedAt === undefined &&
      now - this.lastProbeAt >= POOL_PROBE_INTERVAL_MS
    )
      this.probePool(now);
  }

  private reason(): OverloadReason | undefined {
    if (this.bounds.eventLoopLagMs > 0 && this.lagMs > this.bounds.eventLoopLagMs) return 'event_loop_lag';
    if (this.bounds.poolWaitMs > 0 && this.poolWaitMs > this.bounds.poolWaitMs) return 'db_pool_wait';
    return undefined;
  }

  private probePool(startedAt: number): void {
    this.probeStartedAt = startedAt;
    this.lastProbeAt = startedAt;
    this.pool!.acquire()
      .then((release) => {
        release();
        this.lastPoolWaitMs = performance.now() - startedAt;
      })
      .catch(() => {
        // The database is down: readiness and the outage handling say so; not a queue to measure.
        this.lastPoolWaitMs = 0;
      })
      .finally(() => (this.probeStartedAt = undefined));
  }
}
