import type { QueryRunner } from 'typeorm';

/**
 * Replaces an index of a table every tenant of a region reads, without blocking those reads: a
 * plain DROP + CREATE INDEX in a transaction would hold every tenant's reads until both builds end.
 * The new index is built CONCURRENTLY beside the old one (outside a transaction), the old one
 * dropped CONCURRENTLY, the new one renamed into its place. Each step is safe to run again after an
 * interruption: an invalid leftover of an interrupted concurrent build is dropped first.
 */
export async function replaceIndexConcurrently(
  q: QueryRunner,
  table: string,
  index: string,
  definition: string,
): Promise<void> {
  const next = `${index}_next`;
  await q.query(`DROP INDEX CONCURRENTLY IF EXISTS "${next}"`);
  await q.query(`CREATE INDEX CONCURRENTLY "${next}" ON "${table}" ${definition}`);
  await q.query(`DROP INDEX CONCURRENTLY IF EXISTS "${index}"`);
  await q.query(`ALTER INDEX "${next}" RENAME TO "${index}"`);
}
