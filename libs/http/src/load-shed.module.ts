import {
  CanActivate,
  DynamicModule,
  ExecutionContext,
  Inject,
  Injectable,
  Module,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { Request } from 'express';
import type { Counter } from 'prom-client';
import { PRINCIPAL_KEY } from '@edu/auth';
import { ApiErrorCode, RetryLaterError, type Principal } from '@edu/domain';
import type { ReadinessCheck } from './health.module';
import { LoadMonitor, type LoadBounds, type PoolProbe } from './load-monitor';
import { clientLabel, isUnlimitedPath, MetricsModule, MetricsRegistry, routeLabel } from './metrics.module';

export interface LoadShedSettings extends LoadBounds {
  readonly retryAfterSeconds: number;
}

const SETTINGS = Symbol('LOAD_SHED_SETTINGS');
const POOL = Symbol('LOAD_SHED_POOL');

/** The process's load monitor, running from boot to shutdown, with its gauges. */
@Injectable()
export class ServiceLoad implements OnModuleInit, OnModuleDestroy {
  readonly monitor: LoadMonitor;

  constructor(
    @Inject(SETTINGS) settings: LoadShedSettings,
    @Inject(POOL) pool: PoolProbe | undefined,
    metrics: MetricsRegistry,
  ) {
    this.monitor = new LoadMonitor(settings, pool);
    const m = this.monitor;
    metrics.gauge(
      'load_shedding',
      'Whether the process answers 503 at once (1) because it is overloaded, by reason',
      ['reason'],
      (g) => {
        g.set({ reason: 'event_loop_lag' }, m.overload === 'event_loop_lag' ? 1 : 0);
        g.set({ reason: 'db_pool_wait' }, m.overload === 'db_pool_wait' ? 1 : 0);
      },
    );
    metrics.gauge(
      'event_loop_lag_seconds',
      'Event-loop lag the load shedder last measured (p99 over 200 ms)',
      [],
      (g) => g.set(m.lagMs / 1000),
    );
    metrics.gauge(
      'db_pool_wait_seconds',
      'How long borrowing a database connection last took (the probe runs when SHED_DB_POOL_WAIT_MS is set)',
      [],
      (g) => g.set(m.poolWaitMs / 1000),
    );
    metrics.gauge(
      'db_pool_connections',
      'Database connections of this process by state (total, idle) and requests waiting for one',
      ['state'],
      (g) => {
        const stats = m.poolStats();
        if (!stats) return;
        for (const [state, n] of Object.entries(stats)) g.set({ state }, n);
      },
    );
  }

  onModuleInit(): void {
    this.monitor.start();
  }

  onModuleDestroy(): void {
    this.monitor.stop();
  }

  /** Readiness fails while shedding, so the ingress and the autoscaler see the overload. */
  readiness(): ReadinessCheck {
    return async () =>
      this.monitor.overload
        ? { load: { status: 'down', message: `overloaded: ${this.monitor.overload}` } }
        : { load: { status: 'up' } };
  }
}

/** Global guard, right after the token guard: 503 with Retry-After at once while overloaded, before any work. */
@Injectable()
class LoadShedGuard implements CanActivate {
  private readonly shed: Counter<'route' | 'client' | 'reason'>;

  constructor(
    private readonly load: ServiceLoad,
    @Inject(SETTINGS) private readonly settings: LoadShedSettings,
    metrics: MetricsRegistry,
  ) {
    this.shed = metrics.counter(
      'http_requests_shed_total',
      'Requests answered 503 at once because the process was overloaded, by route, client and reason',
      ['route', 'client', 'reason'],
    );
  }

  canActivate(ctx: ExecutionContext): boolean {
    const reason = this.load.monitor.overload;
    if (!reason) return true;
    const req = ctx.switchToHttp().getRequest<Request & Record<string, unknown>>();
    if (isUnlimitedPath(req.path)) return true;
    this.shed.inc({ route: routeLabel(req), client: clientLabel(req[PRINCIPAL_KEY] as Principal | undefined), reason });
    throw new RetryLaterError(
      ApiErrorCode.ServiceUnavailable,
      'The service is overloaded; retry later',
      this.settings.retryAfterSeconds,
    );
  }
}

export interface LoadShedModuleOptions {
  settings: LoadShedSettings;
  /** The database pool to watch (libs/persistence: `postgresPoolProbe`). */
  pool?: { inject?: unknown[]; useFactory: (...deps: never[]) => PoolProbe };
}

/**
 * Load shedding: while event-loop lag or the wait for a database connection passes its bound,
 * requests are answered 503 with Retry-After at once instead of queueing until they time out, and
 * readiness fails. Import after the auth module (its guard runs after the token guard).
 */
@Module({})
export class LoadShedModule {
  static forRoot(o: LoadShedModuleOptions): DynamicModule {
    return {
      module: LoadShedModule,
      global: true,
      imports: [MetricsModule],
      providers: [
        { provide: SETTINGS, useValue: o.settings },
        {
          provide: POOL,
          inject: (o.pool?.inject ?? []) as never[],
          useFactory: o.pool?.useFactory ?? (() => undefined),
        },
        ServiceLoad,
        { provide: APP_GUARD, useClass: LoadShedGuard },
      ],
      exports: [ServiceLoad],
    };
  }
}

/** The load-shedding settings of a service's configuration (`WithTrafficControl`). */
export function loadShedSettings(env: {
  SHED_EVENT_LOOP_LAG_MS: number;
  SHED_DB_POOL_WAIT_MS: number;
  SHED_RETRY_AFTER_SECONDS: number;
}): LoadShedSettings {
  return {
    eventLoopLagMs: env.SHED_EVENT_LOOP_LAG_MS,
    poolWaitMs: env.SHED_DB_POOL_WAIT_MS,
    retryAfterSeconds: env.SHED_RETRY_AFTER_SECONDS,
  };
}
