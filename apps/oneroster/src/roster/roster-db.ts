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
  connect?(): Promise<PgClientLike>;
}

interface PgClientLike {
  query(config: PgQueryConfig): Promise<{ rows: unknown[]; rowCount: number | null }>;
  release(destroy?: boolean | Error): void;
}

/** One connection inside a transaction (`RosterDb.transaction`). */
export interface SqlTransaction {
  query<T>(text: string, values: unknown[]): Promise<T[]>;
  /** Runs a write; returns the rows it returned and how many rows it touched. */
  execute<T>(text: string, values: unknown[]): Promise<{ rows: T[]; count: number }>;
}

/**
 * Distinct statement texts run as named (server-side prepared) statements. The set is filled by
 * the first texts this process sees and then frozen, so the statements each pooled connection
 * prepares stay bounded whatever filters clients send; texts beyond it run unnamed.
 */
export const MAX_PREPARED_STATEMENTS = 500;

/**
 * Runs parameterised statements for the OneRoster API. Reads are single statements, so
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

  /**
   * Runs `work` in one transaction on one pooled connection (the gradebook writes): committed
   * when it returns, rolled back when it throws. A connection whose rollback fails is discarded.
   */
  async transaction<T>(work: (tx: SqlTransaction) => Promise<T>): Promise<T> {
    const pool = this.pool();
    if (!pool?.connect) throw new Error('The database driver exposes no connection pool');
    const client = await pool.connect();
    const run = async (text: string, values: unknown[]) => {
      const name = this.nameOf(text);
      const result = await client.query(name ? { name, text, values } : { text, values });
      return { rows: result.rows, count: result.rowCount ?? 0 };
    };
    const tx: SqlTransaction = {
      query: async <R>(text: string, values: unknown[]) => (await run(text, values)).rows as R[],
      execute: async <R>(text: string, values: unknown[]) => {
        const { rows, count } = await run(text, values);
        return { rows: rows as R[], count };
      },
    };
    let broken: Error | undefined;
    try {
      await client.query({ text: 'BEGIN', values: [] });
      const result = await work(tx);
      await client.query({ text: 'COMMIT', values: [] });
      return result;
    } catch (err) {
      await client.query({ text: 'ROLLBACK', values: [] }).catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      throw err;
    } finally {
      client.release(broken);
    }
  }
}
