import { createHash } from 'node:crypto';
import type Redis from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** One budget after spending a point: how much is left and when the window ends. */
export interface Spent {
  readonly allowed: boolean;
  readonly remaining: number;
  readonly msBeforeReset: number;
}

/** The shared counters could not be reached (Redis down, hung or not yet connected). */
export class BudgetStoreUnavailable extends Error {
  constructor(override readonly cause: unknown) {
    super(`rate-limit counters unavailable: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'BudgetStoreUnavailable';
  }
}

/**
 * Partition keys are hashed: some come from unauthenticated input (a token request's client id),
 * so a key's length and characters never depend on the caller.
 */
function hashed(partition: string): string {
  return createHash('sha256').update(partition).digest('base64url').slice(0, 22);
}

/**
 * Fixed-window counters, one Redis key per policy and partition (`<prefix>:<policy>:<hash>`,
 * expiring with its window), spent with one atomic script per budget: every replica of a service
 * spends the same counters. A refused request costs the same single round trip as an allowed one
 * and never lengthens the window. `peek` reads a budget without spending it. `spendLocally` and
 * `peekLocally` count in this process only, for groups that keep a limit while Redis is down.
 */
export class BudgetStore {
  /** rate-limiter-flexible fixes the quota per limiter: one per (policy, quota), all on the same keys. */
  private readonly shared = new Map<string, RateLimiterAbstract>();
  private readonly local = new Map<string, RateLimiterAbstract>();

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly windowSeconds: number,
  ) {}

  async spend(policy: string, quota: number, partition: string): Promise<Spent> {
    try {
      return spent(await this.sharedLimiter(policy, quota).consume(hashed(partition)), true);
    } catch (outcome) {
      // The library rejects with its result when the budget is spent, with an Error when Redis fails.
      if (outcome instanceof RateLimiterRes) return spent(outcome, false);
      throw new BudgetStoreUnavailable(outcome);
    }
  }

  /** The budget as it stands, spending nothing: for budgets spent only once a request's outcome is known. */
  async peek(policy: string, quota: number, partition: string): Promise<Spent> {
    try {
      return this.standing(quota, await this.sharedLimiter(policy, quota).get(hashed(partition)));
    } catch (err) {
      throw new BudgetStoreUnavailable(err);
    }
  }

  async spendLocally(policy: string, quota: number, partition: string): Promise<Spent> {
    try {
      return spent(await this.localLimiter(policy, quota).consume(hashed(partition)), true);
    } catch (outcome) {
      if (outcome instanceof RateLimiterRes) return spent(outcome, false);
      throw outcome;
    }
  }

  async peekLocally(policy: string, quota: number, partition: string): Promise<Spent> {
    return this.standing(quota, await this.localLimiter(policy, quota).get(hashed(partition)));
  }

  private standing(quota: number, res: RateLimiterRes | null): Spent {
    const consumed = res?.consumedPoints ?? 0;
    return {
      allowed: consumed < quota,
      remaining: Math.max(0, quota - consumed),
      msBeforeReset: res ? res.msBeforeNext : this.windowSeconds * 1000,
    };
  }

  private sharedLimiter(policy: string, quota: number): RateLimiterAbstract {
    return this.limiter(
      this.shared,
      policy,
      quota,
      () =>
        new RateLimiterRedis({ storeClient: this.redis, rejectIfRedisNotReady: true, ...this.options(policy, quota) }),
    );
  }

  private localLimiter(policy: string, quota: number): RateLimiterAbstract {
    return this.limiter(this.local, policy, quota, () => new RateLimiterMemory(this.options(policy, quota)));
  }

  private options(policy: string, quota: number) {
    return { keyPrefix: `${this.keyPrefix}:${policy}`, points: quota, duration: this.windowSeconds };
  }

  private limiter(
    cache: Map<string, RateLimiterAbstract>,
    policy: string,
    quota: number,
    make: () => RateLimiterAbstract,
  ): RateLimiterAbstract {
    const key = `${policy}|${quota}`;
    let limiter = cache.get(key);
    if (!limiter) {
      limiter = make();
      cache.set(key, limiter);
    }
    return limiter;
  }
}

function spent(res: RateLimiterRes, allowed: boolean): Spent {
  return { allowed, remaining: res.remainingPoints, msBeforeReset: res.msBeforeNext };
}
