/**
 * Groups calls made close together into one bulk operation: items queue until `maxItems` are
 * waiting or `maxWaitMs` has passed, then `run` handles them at once and every caller's promise
 * settles with its own result (or the batch's error). Used on the delivery hot path so a hundred
 * concurrent deliveries cost one query instead of a hundred.
 */
export class MicroBatch<I, O> {
  private pending: { item: I; resolve: (o: O) => void; reject: (e: unknown) => void }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly maxItems: number,
    private readonly maxWaitMs: number,
  ) {}

  add(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.maxItems) this.flush();
      else this.timer ??= setTimeout(() => this.flush(), this.maxWaitMs);
    });
  }

  /** Runs what is waiting now and resolves once every batch started so far has finished. */
  async drain(): Promise<void> {
    this.flush();
    await Promise.allSettled([...this.running]);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const batch = this.pending;
    this.pending = [];
    const job = this.run(batch.map((b) => b.item)).then(
      (results) => batch.forEach((b, i) => b.resolve(results[i])),
      (err) => batch.forEach((b) => b.reject(err)),
    );
    this.running.add(job);
    void job.finally(() => this.running.delete(job));
  }
}
