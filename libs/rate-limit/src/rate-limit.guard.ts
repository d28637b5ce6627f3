import { CanActivate, ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Counter } from 'prom-client';
import { PRINCIPAL_KEY } from '@edu/auth';
import { ApiErrorCode, RetryLaterError, type Principal } from '@edu/domain';
import { clientLabel, isUnlimitedPath, MetricsRegistry, routeLabel } from '@edu/http';
import { awaitClientAuthentication } from './client-authentication';
import { rateLimitField, rateLimitPolicyField, type BudgetStatus } from './headers';
import type { Subject } from './policies';
import type { AuthOutcome, Decision } from './rate-limits';
import { RateLimits } from './rate-limits';
import { subjectOf, type RouteClassifier } from './subject';

export const RATE_LIMIT_SETTINGS = Symbol('RATE_LIMIT_SETTINGS');

export interface RateLimitGuardSettings {
  readonly classify: RouteClassifier;
  readonly windowSeconds: number;
}

/** At most one warning a minute while the counters are unreachable; the metric counts every request. */
const STORE_WARNING_INTERVAL_MS = 60_000;

/**
 * Global guard, after the token guard: spends the request's budgets, writes `RateLimit-Policy` and
 * `RateLimit` on every answer of a limited route, and refuses a spent budget with 429 and
 * `Retry-After` (each API's error filter renders it in its own format).
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly logger = new Logger('RateLimits');
  private readonly refused: Counter<'route' | 'client' | 'policy'>;
  private readonly storeDown: Counter<'group' | 'action'>;
  private lastWarning = 0;

  constructor(
    private readonly limits: RateLimits,
    @Inject(RATE_LIMIT_SETTINGS) private readonly settings: RateLimitGuardSettings,
    metrics: MetricsRegistry,
  ) {
    this.refused = metrics.counter(
      'http_requests_rate_limited_total',
      'Requests refused with 429 by route, client and the policy whose budget was spent',
      ['route', 'client', 'policy'],
    );
    this.storeDown = metrics.counter(
      'rate_limit_store_unavailable_total',
      'Requests decided without the shared counters (Redis unreachable), by route group and what was done: allowed, local or refused',
      ['group', 'action'],
    );
  }

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<Request & Record<string, unknown>>();
    const res = ctx.switchToHttp().getResponse<Response>();
    if (isUnlimitedPath(req.path)) return true;
    const principal = req[PRINCIPAL_KEY] as Principal | undefined;
    const subject = subjectOf(req, this.settings.classify(req), principal);
    const decision = await this.limits.check(subject);
    this.writeHeaders(res, decision);
    if (decision.storeDown) this.noteStoreDown(subject.group, decision);
    if (decision.allowed) {
      if (decision.budgets.some((b) => b.spentBy !== 'request'))
        awaitClientAuthentication(req, (outcome) => this.settle(res, subject, decision, outcome));
      return true;
    }
    if (decision.storeDown === 'refuse') {
      throw new RetryLaterError(
        ApiErrorCode.ServiceUnavailable,
        'Rate limits cannot be checked right now; retry later',
        decision.retryAfterSeconds ?? 5,
      );
    }
    this.refused.inc({ route: routeLabel(req), client: clientLabel(principal), policy: decision.refusedBy ?? '' });
    throw new RetryLaterError(
      ApiErrorCode.RateLimited,
      `Rate limit "${decision.refusedBy}" exceeded; retry after ${decision.retryAfterSeconds} s`,
      decision.retryAfterSeconds ?? 1,
    );
  }

  private writeHeaders(res: Response, decision: Decision): void {
    if (decision.budgets.length === 0) return;
    res.setHeader('RateLimit-Policy', rateLimitPolicyField(decision.budgets, this.settings.windowSeconds));
    if (decision.statuses.length > 0) res.setHeader('RateLimit', rateLimitField(decision.statuses));
  }

  /** Spends what the outcome spends and shows it in `RateLimit`, while the answer is not sent yet. */
  private async settle(res: Response, subject: Subject, decision: Decision, outcome: AuthOutcome): Promise<void> {
    let settled: BudgetStatus[];
    try {
      settled = await this.limits.settle(subject, decision, outcome);
    } catch (err) {
      this.logger.warn({ err }, 'Could not count a client authentication against its rate limits');
      return;
    }
    if (settled.length === 0 || res.headersSent) return;
    const now = new Map(settled.map((s) => [s.policy, s]));
    res.setHeader('RateLimit', rateLimitField(decision.statuses.map((s) => now.get(s.policy) ?? s)));
  }

  private noteStoreDown(group: string, decision: Decision): void {
    const action = decision.storeDown === 'refuse' ? 'refused' : decision.storeDown === 'local' ? 'local' : 'allowed';
    this.storeDown.inc({ group, action });
    const now = Date.now();
    if (now - this.lastWarning < STORE_WARNING_INTERVAL_MS) return;
    this.lastWarning = now;
    this.logger.warn(
      `Rate-limit counters unreachable (Redis): ${group} requests ${action} (rate_limit_store_unavailable_total counts them)`,
    );
  }
}
