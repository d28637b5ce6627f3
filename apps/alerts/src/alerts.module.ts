import { DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Pool } from 'pg';
import { resourceServerAuth } from '@edu/auth';
import {
  HealthModule,
  LoadShedModule,
  loadShedSettings,
  LoggingModule,
  MetricsModule,
  readinessCheck,
  ServiceLoad,
} from '@edu/http';
import { DeploymentQuotaReader, PersistenceModule, postgresPoolProbe } from '@edu/persistence';
import { RateLimitModule } from '@edu/rate-limit';
import { QueueHealth, QueueModule } from '@edu/queue';
import { QueueDashboardModule } from '@edu/queue-dashboard';
import { AlertsEnv, queueDashboardCredentials } from './config/alerts.env';
import { DeliveriesModule } from './deliveries/deliveries.module';
import { alertsRoutes } from './rate-limit-routes';
import { MessagesModule } from './messages/messages.module';
import { PortalModule } from './portal/portal.module';
import { RetentionModule } from './retention/retention.module';
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
          inject: [DataSource, QueueHealth, ServiceLoad],
          useFactory: (ds: DataSource, queue: QueueHealth, load: ServiceLoad) => [
            readinessCheck('postgres', () => ds.query('SELECT 1')),
            readinessCheck('redis', () => queue.check()),
            load.readiness(),
          ],
        }),
        resourceServerAuth(env),
        // After the auth module: their guards run after the token guard, shedding first.
        LoadShedModule.forRoot({
          settings: loadShedSettings(env),
          pool: { inject: [Pool], useFactory: (pool: Pool) => postgresPoolProbe(pool) },
        }),
        RateLimitModule.forRoot({
          service: 'alerts',
          env,
          classify: alertsRoutes,
          overrides: { inject: [DataSource], useFactory: (ds: DataSource) => new DeploymentQuotaReader(ds) },
        }),
        TenancyModule,
        WebhooksModule,
        DeliveriesModule,
        MessagesModule,
        RetentionModule,
        PortalModule,
        QueueDashboardModule.forRoot({ path: QUEUE_DASHBOARD_PATH, credentials: queueDashboardCredentials(env) }),
      ],
      providers: [{ provide: AlertsEnv, useValue: env }],
      exports: [AlertsEnv],
    };
  }
}
