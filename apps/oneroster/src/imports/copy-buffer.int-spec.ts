import { useTestDatabaseClient } from '@edu/testing';
import { CopyBuffer, copyLine } from './copy-buffer';

const COPY_SQL = 'COPY copy_buffer_rows (n, label) FROM STDIN';

/** Pushes rows n = 0..count-1 as the file loader does: a flush check after each batch of records. */
async function pushRows(buffer: CopyBuffer, count: number, recordsPerCheck = 700): Promise<void> {
  for (let n = 0; n < count; n++) {
    buffer.push([n, n % 3 === 0 ? `row\t${n}` : null]);
    if ((n + 1) % recordsPerCheck === 0) await buffer.maybeFlush();
  }
}

describe('CopyBuffer: one COPY per file, streamed (real PostgreSQL)', () => {
  const { client } = useTestDatabaseClient();

  beforeAll(async () => {
    await client().query(`CREATE TABLE copy_buffer_rows (n int PRIMARY KEY CHECK (n <> 15000), label text)`);
    // A statement-level trigger counts the statements that wrote rows: COPY fires it once per COPY.
    await client().query(`CREATE TABLE copy_buffer_statements (count int NOT NULL)`);
    await client().query(`INSERT INTO copy_buffer_statements VALUES (0)`);
    await client().query(`CREATE FUNCTION copy_buffer_count() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN UPDATE copy_buffer_statements SET count = count + 1; RETURN NULL; END $$`);
    await client().query(`CREATE TRIGGER copy_buffer_count AFTER INSERT ON copy_buffer_rows
      FOR EACH STATEMENT EXECUTE FUNCTION copy_buffer_count()`);
  });

  beforeEach(async () => {
    await client().query('TRUNCATE copy_buffer_rows');
    await client().query('UPDATE copy_buffer_statements SET count = 0');
  });

  const toLine = (row: readonly unknown[]) => copyLine(row, 0, 2);
  const stored = async () =>
    (await client().query<{ count: string }>('SELECT count(*) FROM copy_buffer_rows')).rows[0]!.count;
  const statements = async () =>
    (await client().query<{ count: number }>('SELECT count FROM copy_buffer_statements')).rows[0]!.count;

  it('sends every row, in order and as written, through a single COPY however many batches', async () => {
    const buffer = new CopyBuffer(client(), COPY_SQL, toLine, 1000);
    await client().query('BEGIN');
    await pushRows(buffer, 12_345);
    expect(buffer.staged).toBeGreaterThan(10_000); // most rows were sent while the "file" was still being read
    await buffer.finish();
    await client().query('COMMIT');

    expect(buffer.staged).toBe(12_345);
    expect(await stored()).toBe('12345');
    expect(await statements()).toBe(1);
    const { rows } = await client().query<{ n: number; label: string | null }>(
      'SELECT n, label FROM copy_buffer_rows WHERE n IN (0, 1, 12344) ORDER BY n',
    );
    expect(rows).toEqual([
      { n: 0, label: 'row\t0' },
      { n: 1, label: null },
      { n: 12344, label: null },
    ]);
  });

  it('fails with PostgreSQL’s error when it refuses a row mid-stream; the rollback leaves nothing and the connection works', async () => {
    const buffer = new CopyBuffer(client(), COPY_SQL, toLine, 1000);
    await client().query('BEGIN');
    // Row 15000 breaks the CHECK: the server stops the COPY while rows are still being sent.
    const sending = pushRows(buffer, 40_000).then(() => buffer.finish());
    await expect(sending).rejects.toThrow(/copy_buffer_rows_n_check/);
    await client().query('ROLLBACK');

    expect(await stored()).toBe('0');
    expect(await statements()).toBe(0);
    expect((await client().query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('abandons the COPY on discard: nothing is written and the connection runs the next statement', async () => {
    const buffer = new CopyBuffer(client(), COPY_SQL, toLine, 1000);
    await client().query('BEGIN');
    await pushRows(buffer, 5_000);
    expect(buffer.staged).toBeGreaterThan(0);
    await buffer.discard();
    await client().query('ROLLBACK');

    expect(await stored()).toBe('0');
    // A new COPY on the same connection after the abandoned one.
    const next = new CopyBuffer(client(), COPY_SQL, toLine, 1000);
    await pushRows(next, 10);
    await next.finish();
    expect(await stored()).toBe('10');
  });

  it('opens no COPY for a file without valid rows', async () => {
    const buffer = new CopyBuffer(client(), COPY_SQL, toLine, 1000);
    await buffer.finish();
    await buffer.discard();
    expect(buffer.staged).toBe(0);
    expect(await statements()).toBe(0);
    expect((await client().query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });
});
