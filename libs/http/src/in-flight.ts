/**
 * Requests this process is handling now, the most it handled at once and how many it received
 * since the last `resetCounts()`: requests that queued behind a stall are counted even if some have
 * finished before the last of them is read (the process accepts one connection per loop turn).
 */
export class InFlightRequests {
  private count = 0;
  private highest = 0;
  private arrivals = 0;

  /** One request starts; the returned function ends it (once, however often it is called). */
  enter(): () => void {
    this.count++;
    this.arrivals++;
    this.highest = Math.max(this.highest, this.count);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.count--;
    };
  }

  get current(): number {
    return this.count;
  }

  /** The most requests in flight at once since the last reset. */
  peak(): number {
    return this.highest;
  }

  /** Requests received since the last reset. */
  received(): number {
    return this.arrivals;
  }

  resetCounts(): void {
    this.highest = this.count;
    this.arrivals = 0;
  }
}
