/**
 * Requests this process is handling now, and the most it handled at once since the last
 * `resetPeak()`: requests that queued behind a stall are all counted by the time the first of them
 * is decided on, even if some have finished since.
 */
export class InFlightRequests {
  private count = 0;
  private highest = 0;

  /** One request starts; the returned function ends it (once, however often it is called). */
  enter(): () => void {
    this.count++;
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

  resetPeak(): void {
    this.highest = this.count;
  }
}
