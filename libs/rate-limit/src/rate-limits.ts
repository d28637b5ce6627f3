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

/** How a decision reaches the counters: Redis (every replica's) or this process's own. */
interface Counters {
  spend(b: Budget, partition: string): Promise<Spent>;
  peek(b: Budget, partition: string): Promise<Spent>;
}

/** Whether the client of a request that spends budgets by outcome authenticated. */
export type AuthOutcome = 'success' | 'failure';

/**
 * Decides whether a request may go on: spends one point of each budget of its route group that
 * every request spends, checks those spent by outcome, in order, and stops at the first that is
 * spent. While the shared counters are unreachable the group's rule applies (allow, count
 * locally, or refuse).
 */
export class RateLimits {
  private readonly sharedCounters: Counters;
  private readonly localCounters: Counters;

  constructor(
    store: BudgetStore,
    private readonly rules: Record<RouteGroup, GroupRules>,
    private readonly overrides?: QuotaOverrides,
  ) {
    this.sharedCounters = {
      spend: (b, p) => store.spend(b.policy, b.quota, p),
      peek: (b, p) => store.peek(b.policy, b.quota, p),
    };
    this.localCounters = {
      spend: (b, p) => store.spendLocally(b.policy, b.quota, p),
      peek: (b, p) => store.peekLocally(b.policy, b.quota, p),
    };
  }

  async check(subject: Subject): Promise<Decision> {
    const rules = this.rules[subject.group];
    const budgets = budgetsFor(rules, subject, await this.clientOverride(subject));
    try {
      return await this.spendAll(budgets, subject, this.sharedCounters);
    } catch (err) {
      if (!(err instanceof BudgetStoreUnavailable)) throw err;
      return this.whileStoreDown(rules.whenStoreDown, budgets, subject);
    }
  }

  /**
   * Spends the budgets an allowed request's outcome spends (a failed or a successful client
   * authentication), where its check counted it; their state after it. A refused request never
   * gets here, so refusals spend nothing.
   */
  async settle(subject: Subject, decision: Decision, outcome: AuthOutcome): Promise<BudgetStatus[]> {
    if (decision.storeDown === 'allow' || decision.storeDown === 'refuse') return [];
    const due = decision.budgets.filter((b) => b.spentBy === outcome);
    const spendAll = async (counters: Counters) => {
      const out: BudgetStatus[] = [];
      for (const b of due) out.push(status(b, await counters.spend(b, partitionOf(subject, b.partition) as string)));
      return out;
    };
    if (decision.storeDown === 'local') return spendAll(this.localCounters);
    try {
      return await spendAll(this.sharedCounters);
    } catch (err) {
      if (!(err instanceof BudgetStoreUnavailable)) throw err;
      const rule = this.rules[subject.group].whenStoreDown;
      return rule === 'local' ? spendAll(this.localCounters) : [];
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
    const local = await this.spendAll(budgets, subject, this.localCounters);
    return { ...local, storeDown: rule };
  }

  private async spendAll(budgets: Budget[], subject: Subject, counters: Counters): Promise<Decision> {
    const statuses: BudgetStatus[] = [];
    for (const b of budgets) {
      const partition = partitionOf(subject, b.partition) as string;
      const spent = b.spentBy === 'request' ? await counters.spend(b, partition) : await counters.peek(b, partition);
      statuses.push(status(b, spent));
      if (!spent.allowed)
        return {
          allowed: false,
          budgets,
          statuses,
          refusedBy: b.policy,
          retryAfterSeconds: secondsUntil(spent.msBeforeReset),
        };
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

function status(b: Budget, spent: Spent): BudgetStatus {
  return { policy: b.policy, remaining: spent.remaining, resetSeconds: secondsUntil(spent.msBeforeReset) };
}

/** Retry-After of a write refused because the counters are unreachable (as for other outages). */
export const STORE_DOWN_RETRY_AFTER_SECONDS = 5;
