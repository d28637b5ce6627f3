import * as pg from 'pg';
import type { ClientBase, Pool, PoolConfig } from 'pg';

/**
 * Hands code that runs its own SQL the pg pool TypeORM opens, so a process keeps one pool (one
 * connection budget, one set of limits) whoever queries. TypeORM takes the pg module through its
 * public `driver` option; the module given here is pg itself except that its `Pool` remembers the
 * pool TypeORM builds. The platform gives TypeORM no read replicas, so that is its only pool.
 */
export class PoolCapture {
  private captured: Pool | undefined;

  /** The pg module to pass as TypeORM's `driver`. */
  readonly driver: typeof pg;

  constructor() {
    const onCreate = (pool: Pool) => {
      this.captured = pool;
    };
    class CapturedPool extends pg.Pool {
      constructor(config?: PoolConfig) {
        super(config);
        onCreate(this);
      }
    }
    // pg's other exports (types, defaults, the lazy `native`) stay reachable through the prototype.
    this.driver = Object.create(pg, { Pool: { value: CapturedPool, enumerable: true } }) as typeof pg;
  }

  /** The pool of the initialised DataSource (a failed start-up that retried leaves the newest). */
  pool(): Pool {
    if (!this.captured) throw new Error('The DataSource has not opened its connection pool yet');
    return this.captured;
  }
}

/**
 * Runs `work` in one transaction on `client`: committed when it returns and `commit(result)` holds
 * (by default always), otherwise rolled back and its result returned. A throw rolls back and is
 * rethrown; if the rollback fails too, a `TransactionAbandonedError` says the connection is unusable.
 */
export async function inTransaction<T>(
  client: ClientBase,
  work: () => Promise<T>,
  commit: (result: T) => boolean = () => true,
): Promise<T> {
  await client.query('BEGIN');
  let result: T;
  try {
    result = await work();
  } catch (err) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => {
      throw new TransactionAbandonedError(err, rollbackError);
    });
    throw err;
  }
  await client.query(commit(result) ? 'COMMIT' : 'ROLLBACK');
  return result;
}

/** A transaction whose rollback failed too: the connection is in an unknown state. */
export class TransactionAbandonedError extends Error {
  constructor(
    override readonly cause: unknown,
    readonly rollbackError: Error,
  ) {
    super(
      `rollback failed (${rollbackError.message}) after: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
  }
}

/**
 * Borrows a connection from `pool` for one transaction (`inTransaction`). A connection that broke
 * (its rollback failed, or the server dropped it: pg reports that as an `error` event, which would
 * crash the process if nobody listened while the connection is checked out) is destroyed rather
 * than returned to the pool.
 */
export async function inPooledTransaction<T>(pool: Pool, work: (client: ClientBase) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const onConnectionError = (err: Error) => {
    broken = err;
  };
  client.on('error', onConnectionError);
  try {
    return await inTransaction(client, () => work(client));
  } catch (err) {
    if (err instanceof TransactionAbandonedError) {
      broken = err.rollbackError;
      throw err.cause;
    }
    throw err;
  } finally {
    client.off('error', onConnectionError);
    client.release(broken);
  }
}
