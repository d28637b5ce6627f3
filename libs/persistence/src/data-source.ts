import { DataSource, type DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';
import { connectionSettings, type DatabaseOptions } from './connection-settings';

export { connectionSettings, type DatabaseOptions } from './connection-settings';

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
    extra: connectionSettings(o),
  };
}

export function createDataSource(o: DatabaseOptions): DataSource {
  return new DataSource(dataSourceOptions(o));
}
