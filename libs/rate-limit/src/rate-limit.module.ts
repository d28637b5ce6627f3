import { DynamicModule, Injectable, Module, type OnModuleDestroy } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import Redis from 'ioredis';
import { MetricsModule } from '@edu/http';
import { BudgetStore } from './budget-store';
import { groupRules, type Quotas } from './policies';
import { RATE_LIMIT_SETTINGS, RateLimitGuard, type RateLimitGuardSettings } from './rate-limit.guard';
import { RateLimits, type QuotaOverrides } from './rate-limits';
import type { RouteClassifier } from './subject';

/** The configuration `WithTrafficControl` validates. */
export interface RateLimitEnv extends Quotas {
  RATE_LIMIT_ENABLED: boolean;
  REDIS_URL: string;
  RATE_LIMIT_PREFIX: string;
}

export interface RateLimitModuleOptions {
  /** Budgets are per service (`<prefix>:<service>:...`): identity, oneroster, alerts. */
  service: string;
  env: RateLimitEnv;
  classify: RouteClassifier;
  /** Where the operator's per-deployment quotas come from (the deployment settings). */
  overrides?: { inject?: unknown[]; useFactory: (...deps: never[]) => QuotaOverrides };
}

/** How long a counter command may take before the request is decided without it (ms). */
const COMMAND_TIMEOUT_MS = 500;

/**
 * The counters' own Redis connection: no offline queue and a short command timeout, so an
 * unreachable or hung Redis fails a check at once (and the group's rule applies) instead of
 * holding requests.
 */
@Injectable()
export class RateLimitRedis implements OnModuleDestroy {
  readonly client: Redis;

  constructor(url: string) {
    this.client = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: COMMAND_TIMEOUT_MS,
    });
    this.client.on('error', () => undefined); // counted per request by the guard
  }

  onModuleDestroy(): void {
    this.client.disconnect();
  }
}

const OVERRIDES = Symbol('RATE_LIMIT_OVERRIDES');

/**
 * Rate limits of one HTTP service: budgets per route group (policies.ts) whose counters are in
 * Redis, shared by every replica, checked by a global guard after the token guard (import this
 * module after the auth module). With RATE_LIMIT_ENABLED=false it adds nothing.
 */
@Module({})
export class RateLimitModule {
  static forRoot(o: RateLimitModuleOptions): DynamicModule {
    if (!o.env.RATE_LIMIT_ENABLED) return { module: RateLimitModule };
    const settings: RateLimitGuardSettings = { classify: o.classify, windowSeconds: o.env.RATE_LIMIT_WINDOW_SECONDS };
    return {
      module: RateLimitModule,
      imports: [MetricsModule],
      providers: [
        { provide: RATE_LIMIT_SETTINGS, useValue: settings },
        { provide: RateLimitRedis, useFactory: () => new RateLimitRedis(o.env.REDIS_URL) },
        {
          provide: OVERRIDES,
          inject: (o.overrides?.inject ?? []) as never[],
          useFactory: o.overrides?.useFactory ?? (() => undefined),
        },
        {
          provide: RateLimits,
          inject: [RateLimitRedis, OVERRIDES],
          useFactory: (redis: RateLimitRedis, overrides: QuotaOverrides | undefined) =>
            new RateLimits(
              new BudgetStore(redis.client, `${o.env.RATE_LIMIT_PREFIX}:${o.service}`, o.env.RATE_LIMIT_WINDOW_SECONDS),
              groupRules(o.env),
              overrides,
            ),
        },
        { provide: APP_GUARD, useClass: RateLimitGuard },
      ],
    };
  }
}
