/** One measurement of the event loop: when it ended, the span it covers, and the lag seen in it (ms). */
export interface LagSample {
  at: number;
  spanMs: number;
  lagMs: number;
}

/**
 * The event-loop samples of a short recent window, and how long within it the loop lagged. One
 * late sample (a garbage collection, a first compilation, a busy neighbour) is not an overload;
 * a loop that keeps lagging is.
 */
export class LagWindow {
  private samples: LagSample[] = [];

  constructor(private readonly windowMs: number) {}

  add(sample: LagSample): void {
    this.samples.push(sample);
    const from = sample.at - this.windowMs;
    // Kept while any part of a sample's span is still inside the window.
    this.samples = this.samples.filter((s) => s.at > from);
  }

  clear(): void {
    this.samples = [];
  }

  /**
   * How long, within the window ending at the latest sample, the loop lagged past `boundMs`. A lag
   * counts until it leaves the window, even once the loop runs freely again: after a stall the
   * process reads what queued behind it one connection per loop turn, which on a busy machine
   * takes several samples.
   */
  laggingMs(boundMs: number): number {
    const latest = this.samples[this.samples.length - 1];
    if (!latest) return 0;
    const from = latest.at - this.windowMs;
    let total = 0;
    for (const s of this.samples) if (s.lagMs > boundMs) total += Math.max(0, s.at - Math.max(from, s.at - s.spanMs));
    return total;
  }
}
