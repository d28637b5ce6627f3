import { DynamicModule, MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
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
import { collapseSlashes } from './common/collapse-slashes.middleware';
import { onerosterRoutes } from './common/rate-limit-routes';
import { OnerosterEnv } from './oneroster.env';
import { RosterImportsModule } from './imports/roster-imports.module';
import { GradebookModule } from './gradebook/gradebook.module';
import { ResourcesModule } from './resources/resources.module';
import { RosterModule } from './roster/roster.module';
import { RosterEventsModule } from './events/events.module';
import { SOURCES_SETTINGS } from './sources/sources-settings.token';
import { SourcesModule } from './sources/sources.module';
import { UnsupportedRoutesModule } from './roster/unsupported.module';

/** The OneRoster v1.1 service under /ims/oneroster/v1p1: rostering and resources reads, the gradebook, CSV imports. */
@Module({})
export class OnerosterModule implements NestModule {
  static forRoot(env: OnerosterEnv): DynamicModule {
    return {
      module: OnerosterModule,
      global: true,
      imports: [
        LoggingModule.forRoot({ level: env.LOG_LEVEL, service: 'oneroster' }),
        PersistenceModule.forRoot({ url: env.DATABASE_URL, poolSize: env.DB_POOL_SIZE, applicationName: 'oneroster' }),
        MetricsModule,
        HealthModule.forRoot({
          inject: [DataSource, ServiceLoad],
          useFactory: (ds: DataSource, load: ServiceLoad) => [
            readinessCheck('postgres', () => ds.query('SELECT 1')),
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
          service: 'oneroster',
          env,
          classify: onerosterRoutes,
          overrides: { inject: [DataSource], useFactory: (ds: DataSource) => new DeploymentQuotaReader(ds) },
        }),
        RosterModule,
        GradebookModule,
        ResourcesModule,
        RosterImportsModule,
        RosterEventsModule,
        SourcesModule,
        // Last: its catch-all route must come after every OneRoster route.
        UnsupportedRoutesModule,
      ],
      providers: [
        { provide: OnerosterEnv, useValue: env },
        { provide: SOURCES_SETTINGS, useValue: env },
      ],
      exports: [OnerosterEnv, SOURCES_SETTINGS],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(collapseSlashes).forRoutes({ path: '*path', method: RequestMethod.ALL });
  }
}
