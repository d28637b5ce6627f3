import type { MigrationInterface, QueryRunner } from 'typeorm';
import { replaceIndexConcurrently } from './replace-index';

const INDEX = 'IDX_gradebook_results_class';

/** The triggers that keep a result's class: on what event of which table, running what. */
const TRIGGERS = [
  {
    name: 'gradebook_results_class_insert',
    table: 'gradebook_results',
    when: 'BEFORE INSERT',
    then: 'EXECUTE FUNCTION gradebook_results_take_class()',
  },
  {
    name: 'gradebook_results_class_update',
    table: 'gradebook_results',
    when: 'BEFORE UPDATE OF "line_item_sourced_id"',
    then: 'WHEN (OLD.line_item_sourced_id IS DISTINCT FROM NEW.line_item_sourced_id) EXECUTE FUNCTION gradebook_results_take_class()',
  },
  {
    name: 'gradebook_line_items_class_insert',
    table: 'gradebook_line_items',
    when: 'AFTER INSERT',
    then: 'EXECUTE FUNCTION gradebook_line_items_give_class()',
  },
  {
    name: 'gradebook_line_items_class_update',
    table: 'gradebook_line_items',
    when: 'AFTER UPDATE OF "class_sourced_id"',
    then: 'WHEN (OLD.class_sourced_id IS DISTINCT FROM NEW.class_sourced_id) EXECUTE FUNCTION gradebook_line_items_give_class()',
  },
] as const;

/**
 * `/classes/{id}/results` pages are the results of the class's line items in sourcedId order.
 * Found through the line-item index, every result of the class was read and sorted before the
 * page's LIMIT/OFFSET: 1.2-1.3 ms of PostgreSQL per page for a class of 1,200 results, and more
 * right after a grade sync replaced them, while each result's former versions are still in the
 * table (2.2-2.8 ms right after the benchmark's replacing sync).
 *
 * Each result now keeps its line item's class (`class_sourced_id`), maintained by triggers for
 * every writer (API writes, bulk posts, imports, syncs), and an index on (class, sourcedId) hands
 * a page over in order: a page reads the class's rows up to its end, and sorts nothing. In the
 * benchmark's results pages (right after the replacing sync) PostgreSQL's CPU per page fell from
 * 1.57-1.66 ms to 0.63-0.64 ms.
 *
 * The index keeps one entry per row version (`deduplicate_items = off`): a replaced result's key
 * is unchanged, and with deduplication its versions share one posting-list entry, which an index
 * scan can mark dead only once every version in it is dead, never while the live one is among
 * them. Each version its own entry, a scan marks the dead ones on first visit and skips them
 * after. Measured on a class whose 1,200 results had 12 former versions each (the statement's
 * execution time, 120 pages at offsets 0-1,100, two runs): 0.15-0.19 ms per page, 1.3-2.0 ms
 * with deduplication.
 *
 * - Results: BEFORE INSERT, and BEFORE UPDATE when the line item changes, take the line item's
 *   class.
 * - Line items: AFTER INSERT, and AFTER UPDATE when the class changes, set the class on the line
 *   item's results (a move shows as an update of each result in the change feed).
 * - The backfill runs with `edu.roster_events = 'off'`: no result changed for a reader.
 * - The cost to a write: one line-item lookup per result inserted, about 5.5 µs (200,000 results
 *   inserted in one statement: 1.03 s without the trigger, 2.13 s with it).
 *
 * gradebook_results holds every tenant of a region: the index is built concurrently, outside a
 * transaction; the backfill is one UPDATE that takes row locks only.
 */
export class IndexResultsByClass1765500000000 implements MigrationInterface {
  name = 'IndexResultsByClass1765500000000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "gradebook_results" ADD COLUMN IF NOT EXISTS "class_sourced_id" text`);
    await q.query(`CREATE OR REPLACE FUNCTION gradebook_results_take_class() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.class_sourced_id := (SELECT li.class_sourced_id FROM gradebook_line_items AS li
                            WHERE li.tenant_id = NEW.tenant_id AND li.sourced_id = NEW.line_item_sourced_id);
  RETURN NEW;
END $$`);
    await q.query(`CREATE OR REPLACE FUNCTION gradebook_line_items_give_class() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Probed first: an UPDATE statement would run the results' change-feed trigger even for no row.
  IF EXISTS (SELECT 1 FROM gradebook_results AS r
              WHERE r.tenant_id = NEW.tenant_id AND r.line_item_sourced_id = NEW.sourced_id
                AND r.class_sourced_id IS DISTINCT FROM NEW.class_sourced_id) THEN
    UPDATE gradebook_results AS r SET class_sourced_id = NEW.class_sourced_id
     WHERE r.tenant_id = NEW.tenant_id AND r.line_item_sourced_id = NEW.sourced_id
       AND r.class_sourced_id IS DISTINCT FROM NEW.class_sourced_id;
  END IF;
  RETURN NULL;
END $$`);
    for (const t of TRIGGERS)
      await q.query(`CREATE OR REPLACE TRIGGER "${t.name}" ${t.when} ON "${t.table}" FOR EACH ROW ${t.then}`);
    await backfill(q);
    await replaceIndexConcurrently(
      q,
      'gradebook_results',
      INDEX,
      `("tenant_id", "class_sourced_id", "sourced_id") WITH (deduplicate_items = off)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS "${INDEX}"`);
    for (const t of TRIGGERS) await q.query(`DROP TRIGGER IF EXISTS "${t.name}" ON "${t.table}"`);
    await q.query(`DROP FUNCTION IF EXISTS gradebook_line_items_give_class()`);
    await q.query(`DROP FUNCTION IF EXISTS gradebook_results_take_class()`);
    await q.query(`ALTER TABLE "gradebook_results" DROP COLUMN IF EXISTS "class_sourced_id"`);
  }
}

/** Every existing result takes its line item's class, without change-feed events. */
async function backfill(q: QueryRunner): Promise<void> {
  await q.startTransaction();
  try {
    await q.query(`SET LOCAL edu.roster_events = 'off'`);
    await q.query(
      `UPDATE "gradebook_results" AS r SET "class_sourced_id" = li.class_sourced_id
         FROM "gradebook_line_items" AS li
        WHERE li.tenant_id = r.tenant_id AND li.sourced_id = r.line_item_sourced_id
          AND r.class_sourced_id IS DISTINCT FROM li.class_sourced_id`,
    );
    await q.commitTransaction();
  } catch (err) {
    await q.rollbackTransaction();
    throw err;
  }
}
