import { DataSource, type DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export interface DatabaseOptions {
  url: string;
  poolSize?: number;
  applicationName?: string;
}

export function dataSourceOptions(o: DatabaseOptions): DataSourceOptions {
  return {
    type: 'postgres',
    url: o.url,
    entities: ENTITIES,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    // gen_random_uuid() is built into PostgreSQL 13+: no extension to install.
    uuidExtension: 'pgcrypto',
    synchronize: false,
    migrationsRun: false,
    logging: ['error'],
    extra: {
      max: o.poolSize ?? 10,
      application_name: o.applicationName ?? 'edu-platform',
      // Fail fast instead of queueing forever when the database is unreachable.
      connectionTimeoutMillis: 5_000,
      statement_timeout: 30_000,
    },
  };
}

export function createDataSource(o: DatabaseOptions): DataSource {
  return new DataSource(dataSourceOptions(o));
}
