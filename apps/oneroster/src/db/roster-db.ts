import { Injectable } from '@nestjs/common';
import { Pool, type ClientBase, type QueryArrayConfig, type QueryConfig } from 'pg';
import { inPooledTransaction, StatementNames } from '@edu/persistence';
import { ROSTER_TYPES } from './text-arrays';

/** A row as its values in SELECT-list order (pg's `rowMode: 'array'`). */
export type ValueRow = readonly unknown[];

/** One connection inside a transaction (`RosterDb.transaction`). */
export interface SqlTransaction {
  query<T>(text: string, values: unknown[]): Promise<T[]>;
  /** Rows as value arrays, for statements whose SELECT list a serializer wrote. */
  valueRows(text: string, values: unknown[]): Promise<ValueRow[]>;
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
 * Runs parameterised statements for the OneRoster API on the process's database pool (the one
 * TypeORM opened, exported by PersistenceModule). Reads are single statements, so they go straight
 * to the pool (no QueryRunner per request), as named statements so PostgreSQL parses and plans each
 * query shape once per connection rather than per request.
 */
@Injectable()
export class RosterDb {
  private readonly names = new StatementNames('roster', MAX_PREPARED_STATEMENTS);

  constructor(private readonly pool: Pool) {}

  private statement(text: string, values: unknown[]): QueryConfig {
    return this.names.statement(text, values, ROSTER_TYPES);
  }

  /** Rows as value arrays: no object with a key per column for each row, so wide pages decode faster. */
  private arrayStatement(text: string, values: unknown[]): QueryArrayConfig {
    return { ...this.statement(text, values), rowMode: 'array' };
  }

  async query<T>(text: string, values: unknown[]): Promise<T[]> {
    return (await this.pool.query(this.statement(text, values))).rows as T[];
  }

  /** Rows as value arrays in SELECT-list order (the serializer's columns, then any after them). */
  async valueRows(text: string, values: unknown[]): Promise<ValueRow[]> {
    return (await this.pool.query(this.arrayStatement(text, values))).rows;
  }

  /** Runs `work` in one transaction on one pooled connection (the gradebook writes). */
  transaction<T>(work: (tx: SqlTransaction) => Promise<T>): Promise<T> {
    return inPooledTransaction(this.pool, (client) => work(this.transactionOn(client)));
  }

  private transactionOn(client: ClientBase): SqlTransaction {
    const run = async (text: string, values: unknown[]) => {
      const result = await client.query(this.statement(text, values));
      return { rows: result.rows, count: result.rowCount ?? 0 };
    };
    return {
      query: async <R>(text: string, values: unknown[]) => (await run(text, values)).rows as R[],
      valueRows: async (text: string, values: unknown[]) =>
        (await client.query(this.arrayStatement(text, values))).rows,
      execute: async <R>(text: string, values: unknown[]) => {
        const { rows, count } = await run(text, values);
        return { rows: rows as R[], count };
      },
    };
  }
}
