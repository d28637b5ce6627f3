import { Controller, DynamicModule, Get, Inject, Module } from '@nestjs/common';
import { HealthCheck, HealthCheckService, TerminusModule, type HealthIndicatorResult } from '@nestjs/terminus';
import { ApiExcludeController } from '@nestjs/swagger';
import { Public } from '@edu/auth';

/** A readiness probe of one dependency (PostgreSQL, Redis, ...). */
export type ReadinessCheck = () => Promise<HealthIndicatorResult>;
export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

/** Wraps a probe (e.g. `SELECT 1`, Redis PING) as a terminus check that fails after `timeoutMs`. */
export function readinessCheck(name: string, probe: () => Promise<unknown>, timeoutMs = 3_000): ReadinessCheck {
  return async () => {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        probe(),
        new Promise(
          (_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs)),
        ),
      ]);
      return { [name]: { status: 'up' } };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      return { [name]: { status: 'down', message } };
    } finally {
      clearTimeout(timer);
    }
  };
}

@ApiExcludeController()
@Controller('health')
@Public()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[],
  ) {}

  /** The process is up (no dependency checks: a slow database must not restart pods). */
  @Get('live')
  @HealthCheck()
  live() {
    return this.health.check([]);
  }

  /** Dependencies are reachable; 503 otherwise. */
  @Get('ready')
  @HealthCheck()
  ready() {
    return this.health.check(this.checks);
  }
}

export interface HealthModuleOptions {
  imports?: DynamicModule['imports'];
  inject?: unknown[];
  useFactory: (...deps: never[]) => ReadinessCheck[];
}

@Module({})
export class HealthModule {
  static forRoot(options: HealthModuleOptions): DynamicModule {
    return {
      module: HealthModule,
      imports: [TerminusModule.forRoot({ logger: false }), ...(options.imports ?? [])],
      controllers: [HealthController],
      providers: [
        { provide: READINESS_CHECKS, inject: (options.inject ?? []) as never[], useFactory: options.useFactory },
      ],
    };
  }
}
