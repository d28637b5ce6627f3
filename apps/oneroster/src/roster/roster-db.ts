import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';

interface PgQueryConfig {
  text: string;
  values: unknown[];
  name?: string;
}

interface PgPoolLike {
  query(config: PgQueryConfig): Promise<{ rows: unknown[] }>;
}

/**
 * Distinct statement texts run as named (server-side prepared) statements. The set is filled by
 * the first texts this process sees and then frozen, so the statements each pooled connection
 * prepares stay bounded whatever filters clients send; texts beyond it run unnamed.
 */
export const MAX_PREPARED_STATEMENTS = 500;

/**
 * Runs parameterised read statements for the rostering API. Reads are single statements, so
 * they go straight to the pool TypeORM created (no QueryRunner per request), as named statements
 * so PostgreSQL parses and plans each query shape once per connection rather than per request.
 * The DataSource's own `query` is the fallback should the driver not expose its pool.
 */
@Injectable()
export class RosterDb {
  private readonly names = new Map<string, string>();

  constructor(private readonly dataSource: DataSource) {}

  private pool(): PgPoolLike | undefined {
    const master = (this.dataSource.driver as unknown as { master?: PgPoolLike }).master;
    return master && typeof master.query === 'function' ? master : undefined;
  }

  private nameOf(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < MAX_PREPARED_STATEMENTS) {
      name = `roster_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
      this.names.set(text, name);
    }
    return name;
  }

  async query<T>(text: string, values: unknown[]): Promise<T[]> {
    const pool = this.pool();
    if (!pool) return (await this.dataSource.query(text, values)) as T[];
    const name = this.nameOf(text);
    return (await pool.query(name ? { name, text, values } : { text, values })).rows as T[];
  }
}
