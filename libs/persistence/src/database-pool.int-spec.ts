import { Test } from '@nestjs/testing';
import { Client, Pool } from 'pg';
import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@edu/testing';
import { inPooledTransaction, inTransaction, TransactionAbandonedError } from './database-pool';
import { PersistenceModule } from './persistence.module';

describe('database pool and transactions', () => {
  let db: TestDatabase;
  let client: Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    client = new Client({ connectionString: db.url });
    await client.connect();
    await client.query('CREATE TABLE tx_probe (n int)');
  });

  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  const count = async () =>
    Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM tx_probe')).rows[0]!.n);

  it('PersistenceModule exports the very pool TypeORM queries through, with the configured size and name', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [PersistenceModule.forRoot({ url: db.url, poolSize: 3, applicationName: 'pool-spec' })],
    }).compile();
    await moduleRef.init();
    try {
      const pool = moduleRef.get(Pool);
      const ds = moduleRef.get(DataSource);
      expect(pool).toBeInstanceOf(Pool);
      expect(pool.options.max).toBe(3);
      // A connection TypeORM holds shows in the exported pool's counters: one pool, not two.
      const runner = ds.createQueryRunner();
      await runner.connect();
      try {
        expect(pool.totalCount - pool.idleCount).toBeGreaterThanOrEqual(1);
        const { rows } = await pool.query<{ name: string; timeout: string }>(
          "SELECT current_setting('application_name') AS name, current_setting('statement_timeout') AS timeout",
        );
        expect(rows[0]).toEqual({ name: 'pool-spec', timeout: '15s' });
      } finally {
        await runner.release();
      }
    } finally {
      await moduleRef.close();
    }
  });

  it('inTransaction commits when the work returns and rolls back (rethrowing) when it throws', async () => {
    await inTransaction(client, () => client.query('INSERT INTO tx_probe VALUES (1)'));
    expect(await count()).toBe(1);
    await expect(
      inTransaction(client, async () => {
        await client.query('INSERT INTO tx_probe VALUES (2)');
        throw new Error('work failed');
      }),
    ).rejects.toThrow('work failed');
    expect(await count()).toBe(1);
  });

  it('inTransaction rolls back and returns the result when the commit predicate says no', async () => {
    const result = await inTransaction(
      client,
      async () => {
        await client.query('INSERT INTO tx_probe VALUES (3)');
        return { failed: true };
      },
      (r) => !r.failed,
    );
    expect(result).toEqual({ failed: true });
    expect(await count()).toBe(1);
  });

  it('a failed rollback is reported, and inPooledTransaction discards that connection instead of pooling it', async () => {
    const pool = new Pool({ connectionString: db.url, max: 1 });
    pool.on('error', () => undefined);
    try {
      const first = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      // Killing our own backend mid-transaction makes both the work and the rollback fail.
      await expect(
        inPooledTransaction(pool, (c) => c.query('SELECT pg_terminate_backend(pg_backend_pid())')),
      ).rejects.toBeDefined();
      const second = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      expect(second.rows[0]!.pid).not.toBe(first.rows[0]!.pid);
      const lone = new Client({ connectionString: db.url });
      lone.on('error', () => undefined);
      await lone.connect();
      const abandoned = await inTransaction(lone, () =>
        lone.query('SELECT pg_terminate_backend(pg_backend_pid())'),
      ).catch((err: unknown) => err);
      expect(abandoned).toBeInstanceOf(TransactionAbandonedError);
      expect((abandoned as TransactionAbandonedError).cause).toBeInstanceOf(Error);
      await lone.end().catch(() => undefined);
    } finally {
      await pool.end();
    }
  });
});
