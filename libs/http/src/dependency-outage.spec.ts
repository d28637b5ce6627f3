import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import Redis from 'ioredis';
import { Client, Pool } from 'pg';
import { refusingUrl } from '@edu/testing';
import { classifyError } from './classify-error';
import { isDependencyOutage } from './dependency-outage';

/** The error a promise rejects with (fails the test when it resolves). */
async function failure(work: () => Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await work();
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new Error('expected a failure');
}

/** Accepts TCP connections and never answers: a hung server. */
async function blackHole(): Promise<{ port: number; close: () => Promise<void> }> {
  const sockets: Socket[] = [];
  const srv: Server = createServer((s) => sockets.push(s));
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  return {
    port: (srv.address() as AddressInfo).port,
    close: () => new Promise<void>((r) => (sockets.forEach((s) => s.destroy()), srv.close(() => r()))),
  };
}

/** How TypeORM hands a driver error over: QueryFailedError keeps `driverError` and copies `code`. */
const asQueryFailed = (driverError: Error & { code?: string }) =>
  Object.assign(new Error(driverError.message), { name: 'QueryFailedError', driverError, code: driverError.code });

describe('dependency outage recognition (real PostgreSQL and Redis failures)', () => {
  const dbUrl = process.env.DATABASE_URL as string;
  const redisUrl = process.env.REDIS_URL as string;

  describe('PostgreSQL', () => {
    it('connection refused', async () => {
      const down = await refusingUrl();
      const err = await failure(() =>
        new Client({ host: '127.0.0.1', port: down.port, user: 'x', database: 'x' }).connect(),
      );
      down.release();
      expect(err.code).toBe('ECONNREFUSED');
      expect(isDependencyOutage(err)).toBe(true);
    });

    it('a server that accepts TCP but never answers (connection timeout)', async () => {
      const hole = await blackHole();
      try {
        const client = await failure(() =>
          new Client({
            host: '127.0.0.1',
            port: hole.port,
            user: 'x',
            database: 'x',
            connectionTimeoutMillis: 200,
          }).connect(),
        );
        const pool = new Pool({
          host: '127.0.0.1',
          port: hole.port,
          user: 'x',
          database: 'x',
          connectionTimeoutMillis: 200,
        });
        const pooled = await failure(() => pool.query('SELECT 1'));
        await pool.end();
        expect([client.message, pooled.message]).toEqual([
          'timeout expired',
          'Connection terminated due to connection timeout',
        ]);
        expect([isDependencyOutage(client), isDependencyOutage(pooled)]).toEqual([true, true]);
      } finally {
        await hole.close();
      }
    });

    it('no pool client within connectionTimeoutMillis', async () => {
      const pool = new Pool({ connectionString: dbUrl, max: 1, connectionTimeoutMillis: 200 });
      const held = await pool.connect();
      try {
        const err = await failure(() => pool.connect());
        expect(err.message).toBe('timeout exceeded when trying to connect');
        expect(isDependencyOutage(err)).toBe(true);
      } finally {
        held.release();
        await pool.end();
      }
    });

    it('statement_timeout (57014) and the client-side query_timeout', async () => {
      const c = new Client({ connectionString: dbUrl, statement_timeout: 50 });
      await c.connect();
      const cancelled = await failure(() => c.query('SELECT pg_sleep(2)'));
      await c.end();
      expect(cancelled.code).toBe('57014');
      expect(isDependencyOutage(asQueryFailed(cancelled))).toBe(true);

      const q = new Client({ connectionString: dbUrl, query_timeout: 50 });
      await q.connect();
      const unanswered = await failure(() => q.query('SELECT pg_sleep(0.3)'));
      await q.end();
      expect(unanswered.message).toBe('Query read timeout');
      expect(isDependencyOutage(asQueryFailed(unanswered))).toBe(true);
    });

    it('a connection terminated by the server (admin shutdown 57P01) and queries after it', async () => {
      const victim = new Client({ connectionString: dbUrl });
      victim.on('error', () => undefined);
      await victim.connect();
      const pid = (await victim.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      const admin = new Client({ connectionString: dbUrl });
      await admin.connect();
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await admin.end();
      const first = await failure(() => victim.query('SELECT 1'));
      const later = await failure(() => victim.query('SELECT 1'));
      await victim.end().catch(() => undefined);
      for (const err of [first, later])
        expect({ message: err.message, outage: isDependencyOutage(asQueryFailed(err)) }).toEqual({
          message: err.message,
          outage: true,
        });
    });

    it("a transaction's connection cut by the server: TypeORM's released query runner", async () => {
      // The connection's error event (here a real 57P01) makes TypeORM release the transaction's
      // query runner and drop the error; the next query throws this (typeorm is not a dependency here).
      const victim = new Client({ connectionString: dbUrl });
      const cut = new Promise<Error>((resolve) => victim.on('error', resolve));
      await victim.connect();
      const pid = (await victim.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      const admin = new Client({ connectionString: dbUrl });
      await admin.connect();
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await admin.end();
      expect(isDependencyOutage(await cut)).toBe(true);
      await victim.end().catch(() => undefined);
      const released = Object.assign(
        new Error(
          'Database connection provided by a query runner was already released, cannot continue to use its querying methods anymore.',
        ),
        { name: 'QueryRunnerProviderAlreadyReleasedError' },
      );
      expect(isDependencyOutage(released)).toBe(true);
      expect(classifyError(released).status).toBe(503);
    });

    it('input and bugs are not outages: unique violation, bad input syntax, syntax error', async () => {
      const c = new Client({ connectionString: dbUrl });
      await c.connect();
      await c.query('CREATE TEMP TABLE t (k int PRIMARY KEY)');
      await c.query('INSERT INTO t VALUES (1)');
      const errors = [
        await failure(() => c.query('INSERT INTO t VALUES (1)')),
        await failure(() => c.query("SELECT 'x'::uuid")),
        await failure(() => c.query('SELEC 1')),
      ];
      await c.end();
      expect(errors.map((e) => e.code)).toEqual(['23505', '22P02', '42601']);
      for (const e of errors) {
        expect(isDependencyOutage(asQueryFailed(e))).toBe(false);
        expect(classifyError(asQueryFailed(e)).status).toBe(500);
      }
    });
  });

  describe('Redis (ioredis)', () => {
    it('a command refused while disconnected (offline queue off) and after the retry limit', async () => {
      const down = await refusingUrl();
      const port = down.port;
      const noQueue = new Redis({
        port,
        host: '127.0.0.1',
        enableOfflineQueue: false,
        lazyConnect: true,
        retryStrategy: () => null,
      });
      noQueue.on('error', () => undefined);
      const refused = await failure(() => noQueue.get('k'));
      noQueue.disconnect();
      expect(refused.message).toMatch(/enableOfflineQueue options is false/);
      expect(isDependencyOutage(refused)).toBe(true);

      const retrying = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1, retryStrategy: () => 10 });
      retrying.on('error', () => undefined);
      const gaveUp = await failure(() => retrying.get('k'));
      retrying.disconnect();
      down.release();
      expect(gaveUp.name).toBe('MaxRetriesPerRequestError');
      expect(isDependencyOutage(gaveUp)).toBe(true);
    });

    it('a closed connection, but not a command error', async () => {
      const r = new Redis(redisUrl);
      await r.set('outage-spec:list', 'x');
      const wrongType = await failure(() => r.lpush('outage-spec:list', 'y'));
      expect(wrongType.message).toMatch(/^WRONGTYPE/);
      expect(isDependencyOutage(wrongType)).toBe(false);
      await r.del('outage-spec:list');
      await r.quit();
      const closed = await failure(() => r.get('k'));
      expect(closed.message).toBe('Connection is closed.');
      expect(isDependencyOutage(closed)).toBe(true);
    });
  });

  it('looks through causes and aggregates, and stops on cycles', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' });
    expect(isDependencyOutage(new AggregateError([refused], 'all attempts failed'))).toBe(true);
    expect(isDependencyOutage(new Error('wrapped', { cause: refused }))).toBe(true);
    const loop: Error & { cause?: unknown } = new Error('loop');
    loop.cause = loop;
    expect(isDependencyOutage(loop)).toBe(false);
    expect(isDependencyOutage(undefined)).toBe(false);
    expect(isDependencyOutage('Connection is closed.')).toBe(false);
  });
});
