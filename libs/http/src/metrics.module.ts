import { Controller, Get, Header, Injectable, MiddlewareConsumer, Module, NestMiddleware, type OnModuleDestroy } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
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

  onModuleDestroy(): void {
    this.registry.clear();
  }
}

@Injectable()
class HttpMetricsMiddleware implements NestMiddleware {
  constructor(private readonly metrics: MetricsRegistry) {}

  use(req: Request, res: Response, next: NextFunction): void {
    const stop = this.metrics.httpDuration.startTimer();
    res.on('finish', () => {
      // Route pattern, not the raw URL, keeps label cardinality bounded.
      const route = (req.route?.path as string | undefined) ?? 'unmatched';
      stop({ method: req.method, route: `${req.baseUrl ?? ''}${route}`, status: String(res.statusCode) });
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
