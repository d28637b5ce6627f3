import type { ClientConfig } from 'pg';

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
