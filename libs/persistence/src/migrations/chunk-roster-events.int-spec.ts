import { randomUUID } from 'node:crypto';
import type { DataSource, QueryRunner } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@edu/testing';
import { createDataSource } from '../data-source';
import { ChunkRosterEvents1765200000000 } from './1765200000000-ChunkRosterEvents';

interface Chunk {
  n: string;
  type: string;
  sourced_ids: string[];
  previous: Array<Record<string, unknown>> | null;
}

/** The migration on a log written one row per event (its `down` recreates that log). */
describe('ChunkRosterEvents1765200000000', () => {
  const migration = new ChunkRosterEvents1765200000000();
  const tenant = randomUUID();
  let db: TestDatabase;
  let ds: DataSource;
  let q: QueryRunner;

  const orgs = (ids: string[]) =>
    q.query(
      `INSERT INTO roster_orgs (tenant_id, sourced_id, status, date_last_modified, ordinal, name, type)
       SELECT $1, id, 'active', now(), (SELECT count(*) FROM roster_orgs) + i, 'School ' || id, 'school'
         FROM unnest($2::text[]) WITH ORDINALITY AS u(id, i)`,
      [tenant, ids],
    );
  const chunks = (): Promise<Chunk[]> =>
    q.query(`SELECT n::text, type, sourced_ids, previous FROM roster_events WHERE tenant_id = $1 ORDER BY n, type`, [
      tenant,
    ]);

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = createDataSource({ url: db.url, poolSize: 2 });
    await ds.initialize();
    q = ds.createQueryRunner();
    await migration.down(q);
  });

  afterAll(async () => {
    await q?.release();
    await ds?.destroy();
    await db?.drop();
  });

  it('makes each logged event a chunk of one that keeps its n; chunked capture; down numbers events by position', async () => {
    await orgs(['org-a', 'org-b']);
    await q.query(`UPDATE roster_orgs SET name = 'Renamed' WHERE tenant_id = $1 AND sourced_id = 'org-a'`, [tenant]);
    const perEvent: Array<{ n: string; type: string; sourced_id: string; previous: unknown }> = await q.query(
      `SELECT n::text, type, sourced_id, previous FROM roster_events WHERE tenant_id = $1 ORDER BY n`,
      [tenant],
    );
    expect(perEvent.map((e) => [e.type, e.sourced_id])).toEqual([
      ['created', 'org-a'],
      ['created', 'org-b'],
      ['updated', 'org-a'],
    ]);

    await migration.up(q);
    expect(await chunks()).toEqual(
      perEvent.map((e) => ({
        n: e.n,
        type: e.type,
        sourced_ids: [e.sourced_id],
        previous: e.previous === null ? null : [e.previous],
      })),
    );

    // A statement's changes: one row per type, previous values aligned with the ids.
    await orgs(['org-c', 'org-d']);
    await q.query(
      `UPDATE roster_orgs SET status = CASE sourced_id WHEN 'org-c' THEN 'tobedeleted' ELSE status END, name = 'New'
        WHERE tenant_id = $1 AND sourced_id IN ('org-a', 'org-b', 'org-c')`,
      [tenant],
    );
    const logged = (await chunks()).slice(perEvent.length);
    const byType = logged.map((c) => `${c.type}: ${[...c.sourced_ids].sort().join(' ')}`).sort();
    expect(byType).toEqual(['created: org-c org-d', 'deleted: org-c', 'updated: org-a org-b']);
    const updated = logged.find((c) => c.type === 'updated')!;
    expect(updated.previous).toEqual(
      updated.sourced_ids.map((id) => ({ name: id === 'org-a' ? 'Renamed' : 'School org-b' })),
    );

    await migration.down(q);
    const back: Array<{ n: string; sourced_id: string }> = await q.query(
      `SELECT n::text, sourced_id FROM roster_events WHERE tenant_id = $1 ORDER BY n`,
      [tenant],
    );
    const positions = [
      ...perEvent.map((e) => ({ n: e.n, ids: [e.sourced_id] })),
      ...logged.map((c) => ({ n: c.n, ids: c.sourced_ids })),
    ]
      .flatMap((c) => c.ids.map((id, i) => ({ n: String(BigInt(c.n) * 1000n + BigInt(i)), sourced_id: id })))
      .sort((a, b) => (BigInt(a.n) < BigInt(b.n) ? -1 : 1));
    expect(back).toEqual(positions);
    await migration.up(q);
  });
});
