import {
  Controller,
  Get,
  Header,
  Injectable,
  MiddlewareConsumer,
  Module,
  NestMiddleware,
  type OnModuleDestroy,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Principal } from '@edu/domain';
import { Public } from '@edu/auth';

/** One Prometheus registry per process (not the global one, so test apps do not collide). */
@Injectable()
export class MetricsRegistry implements OnModuleDestroy {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** A counter of this registry (the one already registered under `name`, if any). */
  counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
    return (
      (this.registry.getSingleMetric(name) as Counter<L> | undefined) ??
      new Counter({ name, help, labelNames, registers: [this.registry] })
    );
  }

  /** A gauge of this registry; `collect` runs at each scrape. */
  gauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    collect?: (g: Gauge<L>) => void,
  ): Gauge<L> {
    const existing = this.registry.getSingleMetric(name) as Gauge<L> | undefined;
    if (existing) return existing;
    return new Gauge<L>({
      name,
      help,
      labelNames,
      registers: [this.registry],
      collect: collect
        ? function (this: Gauge<L>) {
            collect(this);
          }
        : undefined,
    });
  }

  onModuleDestroy(): void {
    this.registry.clear();
  }
}

/** The route pattern (`/v2/alerts/webhook/:id`), not the raw URL: label cardinality stays bounded. */
export function routeLabel(req: Pick<Request, 'baseUrl' | 'route'>): string {
  const route = (req.route?.path as string | undefined) ?? 'unmatched';
  return `${req.baseUrl ?? ''}${route}`;
}

/** A metric's `client` label: the token's client id (never unauthenticated input), `anonymous` without one. */
export function clientLabel(principal: Principal | undefined): string {
  return principal?.clientId ?? 'anonymous';
}

/** Probes and scrapes are never limited or shed: the orchestrator and Prometheus must always get through. */
export function isUnlimitedPath(path: string): boolean {
  return path === '/metrics' || path.startsWith('/health/');
}

@Injectable()
class HttpMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: MetricsRegistry) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const stop = this.metrics.httpDuration.startTimer();
    res.on('finish', () => {
      stop({ method: req.method, route: routeLabel(req), status: String(res.statusCode) });
    });
    next();
  }
}

@ApiExcludeController()
@Controller('metrics')
@Public()
class MetricsController {
  constructor(private readonly metrics: MetricsRegistry) {}

  @Get()
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  scrape(): Promise<string> {
    return this.metrics.registry.metrics();
  }
}

@Module({ controllers: [MetricsController], providers: [MetricsRegistry], exports: [MetricsRegistry] })
export class MetricsModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(HttpMetricsMiddleware).forRoutes('*path');
  }
}
