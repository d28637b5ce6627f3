import { DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { resourceServerAuth } from '@edu/auth';
import { HealthModule, LoggingModule, MetricsModule, readinessCheck } from '@edu/http';
import { PersistenceModule } from '@edu/persistence';
import { QueueDashboardModule, QueueHealth, QueueModule } from '@edu/queue';
import { AlertsEnv, queueDashboardCredentials } from './config/alerts.env';
import { DeliveriesModule } from './deliveries/deliveries.module';
import { MessagesModule } from './messages/messages.module';
import { TenancyModule } from './tenancy/tenancy.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** Where operators see the delivery queue (Bull Board, HTTP Basic with the operator credentials). */
export const QUEUE_DASHBOARD_PATH = '/admin/queues';

/**
 * The alerts service (`/v2/alerts`): alert messages, webhook management and the delivery log;
 * the delivery queue's dashboard for operators at `/admin/queues`.
 */
@Module({})
export class AlertsModule {
  static forRoot(env: AlertsEnv): DynamicModule {
    return {
      module: AlertsModule,
      global: true,
      imports: [
        LoggingModule.forRoot({ level: env.LOG_LEVEL, service: 'alerts' }),
        PersistenceModule.forRoot({ url: env.DATABASE_URL, poolSize: env.DB_POOL_SIZE, applicationName: 'alerts' }),
        QueueModule.forRoot({ redisUrl: env.REDIS_URL, prefix: env.QUEUE_PREFIX, maxRetries: env.WEBHOOK_MAX_RETRIES }),
        MetricsModule,
        HealthModule.forRoot({
          inject: [DataSource, QueueHealth],
          useFactory: (ds: DataSource, queue: QueueHealth) => [
            readinessCheck('postgres', () => ds.query('SELECT 1')),
            readinessCheck('redis', () => queue.check()),
          ],
        }),
        resourceServerAuth(env),
        TenancyModule,
        WebhooksModule,
        DeliveriesModule,
        MessagesModule,
        QueueDashboardModule.forRoot({ path: QUEUE_DASHBOARD_PATH, credentials: queueDashboardCredentials(env) }),
      ],
      providers: [{ provide: AlertsEnv, useValue: env }],
      exports: [AlertsEnv],
    };
  }
}
