import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions, type DatabaseOptions } from './data-source';
import { PoolCapture } from './database-pool';

/**
 * Limits for processes that serve requests: a slow statement is cancelled by PostgreSQL after
 * 15 s; a database that accepts connections but never answers (hung, stopped) fails the query on
 * our side after 20 s (new connections after 5 s). Either way the caller gets a 503 instead of
 * waiting forever. CLI tools (migrations, provisioning) keep the longer defaults.
 */
export const REQUEST_DATABASE_TIMEOUTS = { statementTimeoutMs: 15_000, queryTimeoutMs: 20_000 } as const;

/**
 * The app's TypeORM DataSource, built from validated configuration, and its pg `Pool` (inject
 * `Pool` from 'pg') for code that runs its own SQL: one pool per process either way.
 */
@Module({})
export class PersistenceModule {
  static forRoot(options: DatabaseOptions): DynamicModule {
    const pools = new PoolCapture();
    const typeorm = {
      ...dataSourceOptions({ ...REQUEST_DATABASE_TIMEOUTS, ...options }),
      driver: pools.driver,
      retryAttempts: 3,
      retryDelay: 1000,
    };
    return {
      module: PersistenceModule,
      global: true,
      imports: [TypeOrmModule.forRoot(typeorm)],
      // Injecting the DataSource first means TypeORM has connected, so its pool exists.
      providers: [{ provide: Pool, inject: [DataSource], useFactory: () => pools.pool() }],
      exports: [TypeOrmModule, Pool],
    };
  }
}
