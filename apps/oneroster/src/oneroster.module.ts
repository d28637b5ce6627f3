import { DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { resourceServerAuth } from '@edu/auth';
import { HealthModule, LoggingModule, MetricsModule, readinessCheck } from '@edu/http';
import { PersistenceModule } from '@edu/persistence';
import { OnerosterEnv } from './config/oneroster.env';

/** The OneRoster v1.1 rostering service (read-only REST under /ims/oneroster/v1p1). */
@Module({})
export class OnerosterModule {
  static forRoot(env: OnerosterEnv): DynamicModule {
    return {
      module: OnerosterModule,
      global: true,
      imports: [
        LoggingModule.forRoot({ level: env.LOG_LEVEL, service: 'oneroster' }),
        PersistenceModule.forRoot({ url: env.DATABASE_URL, poolSize: env.DB_POOL_SIZE, applicationName: 'oneroster' }),
        MetricsModule,
        HealthModule.forRoot({ inject: [DataSource], useFactory: (ds: DataSource) => [readinessCheck('postgres', () => ds.query('SELECT 1'))] }),
        resourceServerAuth(env),
      ],
      providers: [{ provide: OnerosterEnv, useValue: env }],
      exports: [OnerosterEnv],
    };
  }
}
