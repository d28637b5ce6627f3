/**
 * The import's same-run reference: PostgreSQL's own `COPY` of the rows the import just loaded
 * into a scratch table shaped like the roster table, measured two ways:
 *
 * - into a table with every index and constraint the roster table has: what any load into the
 *   shared, indexed tables pays per row (index maintenance row by row);
 * - into a table without indexes, then the same indexes built by `CREATE INDEX`: what a load
 *   that builds its indexes afterwards (a table or partition of its own) would pay.
 *
 * Only the tables holding almost all rows are copied (users and enrollments: 99 % at every
 * scale). The rows are streamed from the roster table on one connection into the scratch table
 * on another, so neither node nor the disk holds them; the scratch table is dropped after each step.
 * Each table's time into its indexes is kept too, to set beside the import's time for its file.
 */
import { pipeline } from 'node:stream/promises';
import { Client } from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

/** Tables copied; identifiers from this constant only. */
const TABLES = ['roster_users', 'roster_enrollments'] as const;
const SCRATCH = 'bench_copy_reference';

export interface CopyReference {
  tables: readonly string[];
  rows: number;
  /** COPY into a table with the roster table's indexes and constraints. */
  indexedSeconds: number;
  /** COPY into a table without indexes ... */
  unindexedSeconds: number;
  /** ... then CREATE INDEX of each of the roster table's indexes. */
  indexBuildSeconds: number;
  /** Each table's rows and its COPY into the indexes, to set beside the import's time for its file. */
  perTable: Array<{ table: string; rows: number; indexedSeconds: number }>;
}

/** Streams `source` (every row, heap order = the import's order) into the scratch table; rows copied. */
async function copyInto(source: Client, target: Client, table: string): Promise<number> {
  const out = source.query(copyTo(`COPY "${table}" TO STDOUT`));
  const into = target.query(copyFrom(`COPY "${SCRATCH}" FROM STDIN`));
  await pipeline(out, into);
  return into.rowCount;
}

/** `CREATE [UNIQUE] INDEX` statements of the table's indexes, retargeted at the scratch table. */
async function scratchIndexes(client: Client, table: string): Promise<string[]> {
  const { rows } = await client.query<{ def: string }>(
    'SELECT pg_get_indexdef(indexrelid) AS def FROM pg_index WHERE indrelid = $1::regclass',
    [table],
  );
  return rows.map((r) => r.def.replace(/^CREATE (UNIQUE )?INDEX \S+ ON \S+ /, `CREATE $1INDEX ON "${SCRATCH}" `));
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = process.hrtime.bigint();
  const result = await work();
  return [result, Number(process.hrtime.bigint() - started) / 1e9];
}

export async function measureCopyReference(url: string): Promise<CopyReference> {
  const source = new Client({ connectionString: url, application_name: 'bench-copy-source' });
  const target = new Client({ connectionString: url, application_name: 'bench-copy-target' });
  await source.connect();
  await target.connect();
  const ref: CopyReference = {
    tables: TABLES,
    rows: 0,
    indexedSeconds: 0,
    unindexedSeconds: 0,
    indexBuildSeconds: 0,
    perTable: [],
  };
  try {
    for (const table of TABLES) {
      await target.query(`CREATE TABLE "${SCRATCH}" (LIKE "${table}" INCLUDING ALL)`);
      const [rows, indexed] = await timed(() => copyInto(source, target, table));
      await target.query(`DROP TABLE "${SCRATCH}"`);
      ref.rows += rows;
      ref.indexedSeconds += indexed;
      ref.perTable.push({ table, rows, indexedSeconds: indexed });

      const indexes = await scratchIndexes(target, table);
      // Generated columns stay generated (COPY TO leaves them out, COPY FROM computes them).
      await target.query(`CREATE TABLE "${SCRATCH}" (LIKE "${table}" INCLUDING DEFAULTS INCLUDING GENERATED)`);
      ref.unindexedSeconds += (await timed(() => copyInto(source, target, table)))[1];
      for (const sql of indexes) ref.indexBuildSeconds += (await timed(() => target.query(sql)))[1];
      await target.query(`DROP TABLE "${SCRATCH}"`);
    }
  } finally {
    await target.query(`DROP TABLE IF EXISTS "${SCRATCH}"`).catch(() => undefined);
    await source.end();
    await target.end();
  }
  return ref;
}

/** The reference as one line per way, rows/s, then one line per table into its indexes. */
export function describeCopyReference(r: CopyReference): string[] {
  const perSecond = (rows: number, seconds: number) => Math.round(rows / seconds).toLocaleString('en');
  const withBuild = r.unindexedSeconds + r.indexBuildSeconds;
  return [
    `PostgreSQL COPY of ${r.tables.join(' + ')} (${r.rows.toLocaleString('en')} rows) into their indexes: ${r.indexedSeconds.toFixed(1)} s = ${perSecond(r.rows, r.indexedSeconds)} rows/s`,
    `PostgreSQL COPY without indexes ${r.unindexedSeconds.toFixed(1)} s + building them ${r.indexBuildSeconds.toFixed(1)} s = ${perSecond(r.rows, withBuild)} rows/s`,
    ...r.perTable.map(
      (t) =>
        `  ${t.table} (${t.rows.toLocaleString('en')} rows) into its indexes: ${t.indexedSeconds.toFixed(1)} s = ${perSecond(t.rows, t.indexedSeconds)} rows/s`,
    ),
  ];
}
