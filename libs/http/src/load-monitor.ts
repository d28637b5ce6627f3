import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { LagWindow } from './lag-window';

/** A database connection pool as the monitor sees it (libs/persistence adapts pg's). */
export interface PoolProbe {
  /** Waits for a connection like any query would; the returned function gives it back. */
  acquire(): Promise<() => void>;
  stats(): { total: number; idle: number; waiting: number };
}

export interface LoadBounds {
  /** Event-loop lag past which, sustained and with requests queueing, the service is overloaded (ms); 0 = never. */
  readonly eventLoopLagMs: number;
  /** Wait for a database connection past which the service is overloaded (ms); 0 = never (and no probe runs). */
  readonly poolWaitMs: number;
}

export type OverloadReason = 'event_loop_lag' | 'db_pool_wait';

/** The event loop's delay: its p99 since the last read (ms), starting over at each read. */
export interface LagSource {
  enable(): void;
  disable(): void;
  read(): number;
}

/** Requests in flight as the monitor sees them (`InFlightRequests`). */
export interface InFlightProbe {
  peak(): number;
  received(): number;
  resetCounts(): void;
}

export interface LoadMonitorOptions {
  pool?: PoolProbe;
  inFlight?: InFlightProbe;
  /** Milliseconds of a monotonic clock (default `performance.now`). */
  now?: () => number;
  lag?: LagSource;
  /** Runs `sample` every `ms` until the returned function is called (default an unref'd setInterval). */
  every?: (ms: number, sample: () => void) => () => void;
}

export const SAMPLE_INTERVAL_MS = 200;
/** The recent window the lag is judged over, and how much of it the loop must have lagged. */
export const LAG_WINDOW_MS = 2_000;
export const SUSTAINED_LAG_MS = 1_000;
/** Requests at once, or received while the loop lags, that show the lag comes with load (a queue shedding can shorten). */
export const MIN_IN_FLIGHT = 8;
const HISTOGRAM_RESOLUTION_MS = 10;
/** How often a connection is borrowed to time the pool's queue. */
const POOL_PROBE_INTERVAL_MS = 1_000;

/** `perf_hooks.monitorEventLoopDelay`, read as a p99 in ms (less its resolution). */
export function eventLoopDelay(): LagSource {
  const histogram = monitorEventLoopDelay({ resolution: HISTOGRAM_RESOLUTION_MS });
  return {
    enable: () => histogram.enable(),
    disable: () => histogram.disable(),
    read: () => {
      const p99 = histogram.count > 0 ? histogram.percentile(99) / 1e6 - HISTOGRAM_RESOLUTION_MS : 0;
      histogram.reset();
      return Math.max(0, p99);
    },
  };
}

const everyInterval = (ms: number, sample: () => void) => {
  const timer = setInterval(sample, ms);
  timer.unref();
  return () => clearInterval(timer);
};

/**
 * Measures how loaded this process is, every 200 ms from the moment it is ready (`start()`):
 * event-loop lag (the p99 of the loop's delay over the interval, or how late the sampling timer
 * itself ran, whichever is larger: a stall shows up in the first sample after it, before the
 * requests that queued behind it are read) and how long borrowing a database connection takes (a
 * probe borrows one each second; while it waits, its age so far counts).
 *
 * Lag alone is no overload: a busy neighbour or one slow compilation delays an idle loop too, and
 * refusing its few requests helps nobody. The loop is overloaded when it lagged for most of the
 * last 2 s while requests pile up (`MIN_IN_FLIGHT` at once, or received while it lags) or queries
 * wait for a connection. After a stall this holds until the stall leaves the window (1 s later),
 * not only until the next sample: the process reads what queued behind it one connection per loop
 * turn, and on a busy machine those turns outlast a sample interval.
 */
export class LoadMonitor {
  private readonly now: () => number;
  private readonly lag: LagSource;
  private readonly window = new LagWindow(LAG_WINDOW_MS);
  private stopSampling?: () => void;
  private lastSampleAt = 0;
  private lastProbeAt = Number.NEGATIVE_INFINITY;
  private probeStartedAt?: number;
  private lastPoolWaitMs = 0;
  private lagSustained = false;
  private lastOverload?: { at: number; reason: OverloadReason };
  lagMs = 0;
  poolWaitMs = 0;

  constructor(
    private readonly bounds: LoadBounds,
    private readonly o: LoadMonitorOptions = {},
  ) {
    this.now = o.now ?? (() => performance.now());
    this.lag = o.lag ?? eventLoopDelay();
  }

  /** The service is ready: measuring starts now, so nothing of its boot is ever held against it. */
  start(): void {
    if (this.stopSampling) return;
    this.lag.enable();
    this.lag.read();
    this.lastSampleAt = this.now();
    this.stopSampling = (this.o.every ?? everyInterval)(SAMPLE_INTERVAL_MS, () => {
      // Right after a sample taken on demand (overload()) the timer's would measure nearly
      // nothing and end the stall's sample at once: the next turn measures instead.
      if (this.now() - this.lastSampleAt >= SAMPLE_INTERVAL_MS / 2) this.sample();
    });
  }

  stop(): void {
    this.stopSampling?.();
    this.stopSampling = undefined;
    this.lag.disable();
  }

  poolStats(): { total: number; idle: number; waiting: number } | undefined {
    return this.o.pool?.stats();
  }

  /** One measurement (the timer's; public so tests can drive it). */
  sample(): void {
    if (!this.stopSampling) return;
    const now = this.now();
    const span = now - this.lastSampleAt;
    this.lastSampleAt = now;
    this.lagMs = Math.max(0, span - SAMPLE_INTERVAL_MS, this.lag.read());
    this.window.add({ at: now, spanMs: span, lagMs: this.lagMs });
    this.lagSustained =
      this.bounds.eventLoopLagMs > 0 && this.window.laggingMs(this.bounds.eventLoopLagMs) >= SUSTAINED_LAG_MS;
    // While the lag is sustained, every request of it counts: those queued behind a stall are read
    // one per loop turn, and the first may be answered before the eighth is read.
    if (!this.lagSustained) this.o.inFlight?.resetCounts();
    this.samplePool(now);
  }

  /** Why the process is overloaded right now, if it is. */
  overload(): OverloadReason | undefined {
    // A sample overdue by a whole interval: the loop was just blocked. Measure now, or the requests
    // read right after a stall (before the timer's turn comes) would be decided without it.
    if (this.stopSampling && this.now() - this.lastSampleAt >= 2 * SAMPLE_INTERVAL_MS) this.sample();
    const reason = this.reason();
    if (reason) this.lastOverload = { at: this.now(), reason };
    return reason;
  }

  /**
   * Overloaded now or within the last 2 s: what readiness reports. Shedding can come and go from
   * one 200 ms sample to the next; a probe asking every few seconds should still see it.
   */
  recentOverload(): OverloadReason | undefined {
    const now = this.overload();
    if (now || !this.lastOverload) return now;
    return this.now() - this.lastOverload.at <= LAG_WINDOW_MS ? this.lastOverload.reason : undefined;
  }

  private reason(): OverloadReason | undefined {
    if (this.lagSustained && this.underLoad()) return 'event_loop_lag';
    if (this.bounds.poolWaitMs > 0 && this.poolWaitMs > this.bounds.poolWaitMs) return 'db_pool_wait';
    return undefined;
  }

  private underLoad(): boolean {
    const requests = this.o.inFlight ? Math.max(this.o.inFlight.peak(), this.o.inFlight.received()) : 0;
    return requests >= MIN_IN_FLIGHT || (this.o.pool?.stats().waiting ?? 0) > 0;
  }

  private samplePool(now: number): void {
    this.poolWaitMs =
      this.probeStartedAt !== undefined
        ? Math.max(this.lastPoolWaitMs, now - this.probeStartedAt)
        : this.lastPoolWaitMs;
    if (!this.o.pool || this.bounds.poolWaitMs <= 0 || this.probeStartedAt !== undefined) return;
    if (now - this.lastProbeAt < POOL_PROBE_INTERVAL_MS) return;
    this.probeStartedAt = now;
    this.lastProbeAt = now;
    this.o.pool
      .acquire()
      .then((release) => {
        release();
        this.lastPoolWaitMs = this.now() - now;
      })
      .catch(() => {
        // The database is down: readiness and the outage handling say so; not a queue to measure.
        this.lastPoolWaitMs = 0;
      })
      .finally(() => (this.probeStartedAt = undefined));
  }
}
