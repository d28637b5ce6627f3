import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import {
  CanActivate,
  DynamicModule,
  ExecutionContext,
  Inject,
  Injectable,
  Module,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { APP_GUARD, HttpAdapterHost } from '@nestjs/core';
import type { Request } from 'express';
import type { Counter } from 'prom-client';
import { PRINCIPAL_KEY } from '@edu/auth';
import { ApiErrorCode, RetryLaterError, type Principal } from '@edu/domain';
import type { ReadinessCheck } from './health.module';
import { InFlightRequests } from './in-flight';
import { LoadMonitor, type LoadBounds, type PoolProbe } from './load-monitor';
import { clientLabel, isUnlimitedPath, MetricsModule, MetricsRegistry, routeLabel } from './metrics.module';

export interface LoadShedSettings extends LoadBounds {
  readonly retryAfterSeconds: number;
}

const SETTINGS = Symbol('LOAD_SHED_SETTINGS');
const POOL = Symbol('LOAD_SHED_POOL');

/**
 * The process's load monitor (measuring from the moment the server listens to shutdown), its
 * gauges and its requests in flight.
 */
@Injectable()
export class ServiceLoad implements OnApplicationBootstrap, OnModuleDestroy {
  readonly monitor: LoadMonitor;
  readonly inFlight = new InFlightRequests();

  constructor(
    @Inject(SETTINGS) settings: LoadShedSettings,
    @Inject(POOL) pool: PoolProbe | undefined,
    metrics: MetricsRegistry,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    this.monitor = new LoadMonitor(settings, { pool, inFlight: this.inFlight });
    const m = this.monitor;
    metrics.gauge(
      'load_shedding',
      'Whether the process answers 503 at once (1) because it is overloaded, by reason',
      ['reason'],
      (g) => {
        const reason = m.overload();
        g.set({ reason: 'event_loop_lag' }, reason === 'event_loop_lag' ? 1 : 0);
        g.set({ reason: 'db_pool_wait' }, reason === 'db_pool_wait' ? 1 : 0);
      },
    );
    metrics.gauge(
      'http_requests_in_flight',
      'Requests the process is handling now (probes and scrapes left out): the load the shedder looks for',
      [],
      (g) => g.set(this.inFlight.current),
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

  /**
   * Boot (module setup, first-use initialisation, route registration) stalls the loop by design:
   * measuring starts once the server listens, when the service can be ready.
   */
  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server || server.listening) this.monitor.start();
    else server.once('listening', () => this.monitor.start());
    // Counted from the moment a request's head is read (before its body, guards or handler) to
    // the end of its response: what the process holds, whatever it is waiting for.
    server?.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (!isUnlimitedPath((req.url ?? '/').split('?', 1)[0])) res.once('close', this.inFlight.enter());
    });
  }

  onModuleDestroy(): void {
    this.monitor.stop();
  }

  /** Readiness fails while shedding (and 2 s after), so the ingress and the autoscaler see the overload. */
  readiness(): ReadinessCheck {
    return async () => {
      const reason = this.monitor.recentOverload();
      return reason ? { load: { status: 'down', message: `overloaded: ${reason}` } } : { load: { status: 'up' } };
    };
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
    const req = ctx.switchToHttp().getRequest<Request & Record<string, unknown>>();
    if (isUnlimitedPath(req.path)) return true;
    const reason = this.load.monitor.overload();
    if (!reason) return true;
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
 * Load shedding: while the event loop keeps lagging past its bound with requests piling up, or
 * the wait for a database connection passes its bound, requests are answered 503 with
 * Retry-After at once instead of queueing until they time out, and readiness fails. Import after
 * the auth module (its guard runs after the token guard).
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
