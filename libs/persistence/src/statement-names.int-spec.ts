import { Pool } from 'pg';
import { createTestDatabase, type TestDatabase } from '@edu/testing';
import { NamedStatementPool, StatementNames } from './statement-names';

describe('StatementNames', () => {
  it('names a text the same way every time, and different texts differently', () => {
    const names = new StatementNames('t', 10);
    const a = names.of('SELECT 1');
    expect(a).toMatch(/^t_[0-9a-f]{24}$/);
    expect(names.of('SELECT 1')).toBe(a);
    expect(new StatementNames('t', 10).of('SELECT 1')).toBe(a);
    expect(names.of('SELECT 2')).not.toBe(a);
  });

  it('stops naming new texts once full; the texts already named keep their names', () => {
    const names = new StatementNames('t', 2);
    const first = names.of('SELECT 1');
    names.of('SELECT 2');
    expect(names.of('SELECT 3')).toBeUndefined();
    expect(names.statement('SELECT 3', [1])).toEqual({ text: 'SELECT 3', values: [1] });
    expect(names.statement('SELECT 1', [1])).toEqual({ name: first, text: 'SELECT 1', values: [1] });
  });
});

describe('NamedStatementPool (real PostgreSQL)', () => {
  let db: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    db = await createTestDatabase();
    // One connection, so the prepared statements listed are the ones the queries left on it.
    pool = new Pool({ connectionString: db.url, max: 1 });
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  const prepared = async () =>
    (await pool.query<{ name: string }>('SELECT name FROM pg_prepared_statements ORDER BY name')).rows.map(
      (r) => r.name,
    );

  it('runs each text as a statement prepared once on the connection, with its parameters', async () => {
    const sql = new NamedStatementPool(pool, 'probe', 1);
    const names = new StatementNames('probe', 1);
    const text = 'SELECT $1::int + 1 AS n';

    expect((await sql.query<{ n: number }>(text, [1])).rows).toEqual([{ n: 2 }]);
    expect((await sql.query<{ n: number }>(text, [41])).rows).toEqual([{ n: 42 }]);
    expect(await prepared()).toEqual([names.of(text)]);

    // Past its bound a text runs unnamed: nothing more is prepared on the connection.
    expect((await sql.query<{ s: string }>('SELECT $1::text AS s', ['x'])).rows).toEqual([{ s: 'x' }]);
    expect(await prepared()).toEqual([names.of(text)]);
  });
});
