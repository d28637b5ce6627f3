/**
 * Wrong SFTP credentials per (user name, address) and per address, counted in a fixed window per
 * process: past either bound the address is refused whatever it sends until the window ends, so
 * guessing a school's password costs days, and a school's own right password still works from
 * another address. Per replica (the SFTP endpoint usually runs one or two).
 */
export class LoginLimiter {
  private readonly counts = new Map<string, { n: number; until: number }>();

  constructor(
    private readonly o: { perUserAddress: number; perAddress: number; windowMs: number },
    private readonly now: () => number = Date.now,
  ) {}

  blocked(user: string, address: string): boolean {
    return (
      this.count(`u:${user}|${address}`) >= this.o.perUserAddress || this.count(`a:${address}`) >= this.o.perAddress
    );
  }

  failed(user: string, address: string): void {
    this.bump(`u:${user}|${address}`);
    this.bump(`a:${address}`);
  }

  private count(key: string): number {
    const c = this.counts.get(key);
    if (!c || c.until <= this.now()) return 0;
    return c.n;
  }

  private bump(key: string): void {
    const now = this.now();
    const c = this.counts.get(key);
    if (!c || c.until <= now) this.counts.set(key, { n: 1, until: now + this.o.windowMs });
    else c.n++;
    if (this.counts.size > 100_000) for (const [k, v] of this.counts) if (v.until <= now) this.counts.delete(k);
  }
}
