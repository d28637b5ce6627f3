import { BudgetStore, BudgetStoreUnavailable, type Spent } from './budget-store';
import { secondsUntil, type BudgetStatus } from './headers';
import {
  budgetsFor,
  partitionOf,
  type Budget,
  type GroupRules,
  type OverridableGroup,
  type RouteGroup,
  type Subject,
  type WhenStoreDown,
} from './policies';

/** Per-deployment client quotas set by the operator (deployment settings); missing = the configured default. */
export interface QuotaOverrides {
  forDeployment(deploymentId: string): Promise<Partial<Record<OverridableGroup, number>>>;
}

export interface Decision {
  readonly allowed: boolean;
  /** The budgets this request is counted against (for `RateLimit-Policy`). */
  readonly budgets: readonly Budget[];
  /** Their state after this request (for `RateLimit`); empty while the counters are unreachable. */
  readonly statuses: readonly BudgetStatus[];
  /** The policy that refused the request. */
  readonly refusedBy?: string;
  readonly retryAfterSeconds?: number;
  /** Set when Redis could not be reached: what was done instead. */
  readonly storeDown?: WhenStoreDown;
}

const OVERRIDABLE: ReadonlySet<RouteGroup> = new Set<RouteGroup>(['read', 'write', 'gradebook-write']);

/**
 * Decides whether a request may go on: spends one point of each budget of its route group, in
 * order, and stops at the first that is spent. While the shared counters are unreachable the
 * group's rule applies (allow, count locally, or refuse).
 */
export class RateLimits {
  constructor(
    private readonly store: BudgetStore,
    private readonly rules: Record<RouteGroup, GroupRules>,
    private readonly overrides?: QuotaOverrides,
  ) {}

  async check(subject: Subject): Promise<Decision> {
    const rules = this.rules[subject.group];
    const budgets = budgetsFor(rules, subject, await this.clientOverride(subject));
    try {
      return await this.spendAll(budgets, subject, (b, p) => this.store.spend(b.policy, b.quota, p));
    } catch (err) {
      if (!(err instanceof BudgetStoreUnavailable)) throw err;
      return this.whileStoreDown(rules.whenStoreDown, budgets, subject);
    }
  }

  private async whileStoreDown(rule: WhenStoreDown, budgets: Budget[], subject: Subject): Promise<Decision> {
    if (rule === 'allow') return { allowed: true, budgets, statuses: [], storeDown: rule };
    if (rule === 'refuse')
      return {
        allowed: false,
        budgets,
        statuses: [],
        storeDown: rule,
        retryAfterSeconds: STORE_DOWN_RETRY_AFTER_SECONDS,
      };
    const local = await this.spendAll(budgets, subject, (b, p) => this.store.spendLocally(b.policy, b.quota, p));
    return { ...local, storeDown: rule };
  }

  private async spendAll(
    budgets: Budget[],
    subject: Subject,
    spend: (b: Budget, partition: string) => Promise<Spent>,
  ): Promise<Decision> {
    const statuses: BudgetStatus[] = [];
    for (const b of budgets) {
      const spent = await spend(b, partitionOf(subject, b.partition) as string);
      const resetSeconds = secondsUntil(spent.msBeforeReset);
      statuses.push({ policy: b.policy, remaining: spent.remaining, resetSeconds });
      if (!spent.allowed)
        return { allowed: false, budgets, statuses, refusedBy: b.policy, retryAfterSeconds: resetSeconds };
    }
    return { allowed: true, budgets, statuses };
  }

  /** The operator's quota for this deployment's client budget; the default when unset or unreadable. */
  private async clientOverride(subject: Subject): Promise<number | undefined> {
    if (!this.overrides || !subject.deploymentId || !OVERRIDABLE.has(subject.group)) return undefined;
    try {
      return (await this.overrides.forDeployment(subject.deploymentId))[subject.group as OverridableGroup];
    } catch {
      return undefined; // the settings are unreadable (database outage): the default budget still applies
    }
  }
}

/** Retry-After of a write refused because the counters are unreachable (as for other outages). */
export const STORE_DOWN_RETRY_AFTER_SECONDS = 5;
