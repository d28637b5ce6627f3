import type { ClientConfig } from 'pg';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export interface DatabaseOptions {
  url: string;
  poolSize?: number;
  applicationName?: string;
  /** Server-side limit per statement (PostgreSQL cancels it: error 57014). Default 30 s; 0 is none. */
  statementTimeoutMs?: number;
  /**
   * Client-side limit per query, for a server that stops answering altogether (it cannot
   * cancel anything then). Keep it above the statement timeout. Default: none.
   */
  queryTimeoutMs?: number;
}

/**
 * How every connection of the platform is opened: TypeORM's pool and any connection of our own
 * (the import worker's) use these settings, so limits and keepalive never drift apart.
 */
export function connectionSettings(o: DatabaseOptions): ClientConfig & { max: number } {
  return {
    connectionString: o.url,
    max: o.poolSize ?? 10,
    application_name: o.applicationName ?? 'edu-platform',
    // Fail fast instead of queueing forever when the database is unreachable.
    connectionTimeoutMillis: 5_000,
    statement_timeout: o.statementTimeoutMs ?? 30_000,
    ...(o.queryTimeoutMs ? { query_timeout: o.queryTimeoutMs } : {}),
    // TCP keepalive on pooled connections, so a vanished server is noticed even when idle.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
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
    extra: connectionSettings(o),
  };
}

export function createDataSource(o: DatabaseOptions): DataSource {
  return new DataSource(dataSourceOptions(o));
}
