import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createTestDatabase, withQueryRunner, type TestDatabase } from '@edu/testing';
import { pendingSchemaChanges } from '../migrate';
import { IndexResultsByClass1765500000000 } from './1765500000000-IndexResultsByClass';

describe('migration 1765500000000: each result keeps its line item’s class, indexed for the class’s pages', () => {
  let db: TestDatabase;
  let c: Client;
  const tenant = randomUUID();

  const addLineItem = (id: string, cls: string) =>
    c.query(
      `INSERT INTO gradebook_line_items (tenant_id, sourced_id, status, date_last_modified, title, assign_date, due_date, class_sourced_id)
       VALUES ($1::uuid, $2, 'active', now(), $2, now(), now(), $3)`,
      [tenant, id, cls],
    );
  const addResult = (id: string, lineItem: string) =>
    c.query(
      `INSERT INTO gradebook_results (tenant_id, sourced_id, status, date_last_modified, line_item_sourced_id, student_sourced_id, score_status, score, score_date)
       VALUES ($1::uuid, $2, 'active', now(), $3, 'stu-1', 'fully graded', 1, '2026-01-01')`,
      [tenant, id, lineItem],
    );
  const classesOf = async (): Promise<Record<string, string | null>> => {
    const { rows } = await c.query<{ sourced_id: string; class_sourced_id: string | null }>(
      `SELECT sourced_id, class_sourced_id FROM gradebook_results WHERE tenant_id = $1::uuid ORDER BY sourced_id`,
      [tenant],
    );
    return Object.fromEntries(rows.map((r) => [r.sourced_id, r.class_sourced_id]));
  };
  /** Results named by change-feed events (an event row names a statement's chunk of objects). */
  const resultEvents = async () =>
    Number(
      (
        await c.query<{ n: string }>(
          `SELECT COALESCE(sum(cardinality(sourced_ids)), 0) AS n FROM roster_events WHERE tenant_id = $1::uuid AND object = 'results'`,
          [tenant],
        )
      ).rows[0]?.n,
    );

  beforeAll(async () => {
    db = await createTestDatabase();
    c = new Client({ connectionString: db.url });
    await c.connect();
    await addLineItem('li-a', 'cls-a');
    await addLineItem('li-b', 'cls-b');
    await addResult('r-1', 'li-a');
    await addResult('r-2', 'li-a');
    await addResult('r-3', 'li-b');
  });

  afterAll(async () => {
    await c?.end();
    await db?.drop();
  });

  it('gives a new result its line item’s class, and a new class when its line item changes', async () => {
    expect(await classesOf()).toEqual({ 'r-1': 'cls-a', 'r-2': 'cls-a', 'r-3': 'cls-b' });
    await c.query(
      `UPDATE gradebook_results SET line_item_sourced_id = 'li-b' WHERE tenant_id = $1 AND sourced_id = 'r-2'`,
      [tenant],
    );
    await c.query(`UPDATE gradebook_results SET score = 7 WHERE tenant_id = $1 AND sourced_id = 'r-1'`, [tenant]);
    expect(await classesOf()).toEqual({ 'r-1': 'cls-a', 'r-2': 'cls-b', 'r-3': 'cls-b' });
    await c.query(
      `UPDATE gradebook_results SET line_item_sourced_id = 'li-a' WHERE tenant_id = $1 AND sourced_id = 'r-2'`,
      [tenant],
    );
  });

  it('moves a line item’s results with it to another class, as an update of each in the change feed', async () => {
    const before = await resultEvents();
    await c.query(
      `UPDATE gradebook_line_items SET class_sourced_id = 'cls-c' WHERE tenant_id = $1 AND sourced_id = 'li-a'`,
      [tenant],
    );
    expect(await classesOf()).toEqual({ 'r-1': 'cls-c', 'r-2': 'cls-c', 'r-3': 'cls-b' });
    expect(await resultEvents()).toBe(before + 2);

    // A line item written without a class change touches no result.
    await c.query(`UPDATE gradebook_line_items SET title = 'Essay' WHERE tenant_id = $1 AND sourced_id = 'li-a'`, [
      tenant,
    ]);
    expect(await resultEvents()).toBe(before + 2);
    await c.query(
      `UPDATE gradebook_line_items SET class_sourced_id = 'cls-a' WHERE tenant_id = $1 AND sourced_id = 'li-a'`,
      [tenant],
    );
  });

  it('gives results written before their line item the line item’s class when it arrives', async () => {
    await addResult('r-4', 'li-late');
    expect((await classesOf())['r-4']).toBeNull();
    await addLineItem('li-late', 'cls-d');
    expect((await classesOf())['r-4']).toBe('cls-d');
  });

  it('indexes (class, sourcedId) with one entry per row version', async () => {
    const { rows } = await c.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE tablename = 'gradebook_results' AND indexname = 'IDX_gradebook_results_class'`,
    );
    expect(rows.map((r) => r.indexdef)).toEqual([
      'CREATE INDEX "IDX_gradebook_results_class" ON public.gradebook_results USING btree (tenant_id, class_sourced_id, sourced_id) WITH (deduplicate_items=off)',
    ]);
  });

  it('goes down and up again, filling the results written before it without change-feed events, and leaves no schema drift', async () => {
    const migration = new IndexResultsByClass1765500000000();
    await withQueryRunner(db.url, async (q, ds) => {
      await migration.down(q);
      await addResult('r-5', 'li-b');
      const events = await resultEvents();
      await migration.up(q);
      expect(await classesOf()).toEqual({
        'r-1': 'cls-a',
        'r-2': 'cls-a',
        'r-3': 'cls-b',
        'r-4': 'cls-d',
        'r-5': 'cls-b',
      });
      expect(await resultEvents()).toBe(events);
      expect(await pendingSchemaChanges(ds)).toEqual([]);
    });
  });
});
