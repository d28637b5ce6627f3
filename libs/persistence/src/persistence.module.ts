import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { dataSourceOptions, type DatabaseOptions } from './data-source';

/** The app's TypeORM DataSource, built from validated configuration. */
@Module({})
export class PersistenceModule {
  static forRoot(options: DatabaseOptions): DynamicModule {
    return {
      module: PersistenceModule,
      global: true,
      imports: [TypeOrmModule.forRoot({ ...dataSourceOptions(options), retryAttempts: 3, retryDelay: 1000 })],
      exports: [TypeOrmModule],
    };
  }
}
