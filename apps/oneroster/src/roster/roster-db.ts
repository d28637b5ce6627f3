import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

interface PgPoolLike {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * Runs parameterised read statements for the rostering API. Reads are single statements, so
 * they go straight to the pool TypeORM created (no QueryRunner per request); the DataSource's
 * own `query` is the fallback should the driver not expose its pool.
 */
@Injectable()
export class RosterDb {
  constructor(private readonly dataSource: DataSource) {}

  private pool(): PgPoolLike | undefined {
    const master = (this.dataSource.driver as unknown as { master?: PgPoolLike }).master;
    return master && typeof master.query === 'function' ? master : undefined;
  }

  async query<T>(text: string, values: unknown[]): Promise<T[]> {
    const pool = this.pool();
    if (pool) return (await pool.query(text, values)).rows as T[];
    return (await this.dataSource.query(text, values)) as T[];
  }
}
