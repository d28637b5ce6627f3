import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { dataSourceOptions, type DatabaseOptions } from './data-source';

/**
 * Limits for processes that serve requests: a slow statement is cancelled by PostgreSQL after
 * 15 s; a database that accepts connections but never answers (hung, stopped) fails the query on
 * our side after 20 s (new connections after 5 s). Either way the caller gets a 503 instead of
 * waiting forever. CLI tools (migrations, provisioning) keep the longer defaults.
 */
export const REQUEST_DATABASE_TIMEOUTS = { statementTimeoutMs: 15_000, queryTimeoutMs: 20_000 } as const;

/** The app's TypeORM DataSource, built from validated configuration. */
@Module({})
export class PersistenceModule {
  static forRoot(options: DatabaseOptions): DynamicModule {
    return {
      module: PersistenceModule,
      global: true,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions({ ...REQUEST_DATABASE_TIMEOUTS, ...options }), retryAttempts: 3, retryDelay: 1000 })],
      exports: [TypeOrmModule],
    };
  }
}
