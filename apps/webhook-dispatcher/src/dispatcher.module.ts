import { DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuthModule } from '@edu/auth';
import { scopeBasesOf } from '@edu/domain';
import { HealthModule, LoggingModule, MetricsModule, readinessCheck } from '@edu/http';
import { PersistenceModule } from '@edu/persistence';
import { QueueHealth, QueueModule } from '@edu/queue';
import { DispatcherEnv } from './config/dispatcher.env';
import { WebhookDispatchModule, type WebhookDispatchModuleOptions } from './delivery/webhook-dispatch.module';

/**
 * The webhook delivery worker. Its HTTP port serves only health and metrics (all routes are
 * public; the auth module is there so the deny-by-default guard covers anything added later).
 */
@Module({})
export class DispatcherModule {
  static forRoot(env: DispatcherEnv, dispatch: WebhookDispatchModuleOptions = {}): DynamicModule {
    return {
      module: DispatcherModule,
      global: true,
      imports: [
        LoggingModule.forRoot({ level: env.LOG_LEVEL, service: 'webhook-dispatcher' }),
        PersistenceModule.forRoot({
          url: env.DATABASE_URL,
          poolSize: env.DB_POOL_SIZE,
          applicationName: 'webhook-dispatcher',
        }),
        QueueModule.forRoot({ redisUrl: env.REDIS_URL, prefix: env.QUEUE_PREFIX, maxRetries: env.WEBHOOK_MAX_RETRIES }),
        MetricsModule,
        HealthModule.forRoot({
          inject: [DataSource, QueueHealth],
          useFactory: (ds: DataSource, queue: QueueHealth) => [
            readinessCheck('postgres', () => ds.query('SELECT 1')),
            readinessCheck('redis', () => queue.check()),
          ],
        }),
        AuthModule.forRootAsync({
          useFactory: () => ({
            issuer: env.TOKEN_ISSUER,
            audience: env.TOKEN_AUDIENCE,
            scopeBases: scopeBasesOf(env),
            // No route of this process accepts tokens; an empty key set refuses any that arrive.
            keys: {
              getKey: async () => {
                throw new Error('no keys');
              },
            },
          }),
        }),
        WebhookDispatchModule.forRoot(dispatch),
      ],
      providers: [{ provide: DispatcherEnv, useValue: env }],
      exports: [DispatcherEnv],
    };
  }
}
