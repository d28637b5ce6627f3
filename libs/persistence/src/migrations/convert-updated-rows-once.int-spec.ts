import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createTestDatabase, withQueryRunner, type TestDatabase } from '@edu/testing';
import { ConvertUpdatedRowsOnce1765600000000 } from './1765600000000-ConvertUpdatedRowsOnce';

interface Captured {
  type: string;
  sourced_ids: string[];
  previous: Array<Record<string, unknown>> | null;
}

/** Users written, then updated in the ways an import or an API write updates them. */
async function writeAndUpdate(c: Client, tenant: string): Promise<Captured[]> {
  await c.query(
    `INSERT INTO roster_users (tenant_id, sourced_id, status, date_last_modified, ordinal, username, enabled_user,
                               given_name, family_name, middle_name, role, org_sourced_ids, role_group, group_ordinal, roles)
     SELECT $1::uuid, 'u-' || i, CASE WHEN i = 4 THEN 'tobedeleted' ELSE 'active' END, '2026-01-01T00:00:00Z', i,
            'user' || i, true, 'Given' || i, 'Family', CASE WHEN i % 2 = 0 THEN 'M' END, 'student', '{s1}', 'student', i,
            '[{"org":"s1","role":"student","roleType":"primary"}]'::jsonb
       FROM generate_series(1, 6) AS i`,
    [tenant],
  );
  // One statement: a rename, a value to NULL and one from NULL, a deletion, a restoration, a no-op.
  await c.query(
    `UPDATE roster_users SET
        given_name = CASE sourced_id WHEN 'u-1' THEN 'Renamed' ELSE given_name END,
        middle_name = CASE sourced_id WHEN 'u-2' THEN NULL WHEN 'u-3' THEN 'N' ELSE middle_name END,
        status = CASE sourced_id WHEN 'u-5' THEN 'tobedeleted' WHEN 'u-4' THEN 'active' ELSE status END,
        roles = CASE sourced_id WHEN 'u-1' THEN '[]'::jsonb ELSE roles END,
        org_sourced_ids = CASE sourced_id WHEN 'u-3' THEN '{s1,s2}' ELSE org_sourced_ids END,
        date_last_modified = CASE WHEN sourced_id = 'u-6' THEN date_last_modified ELSE '2026-02-01T00:00:00Z' END
      WHERE tenant_id = $1`,
    [tenant],
  );
  // An update's events carry the previous values; an insert's do not.
  const { rows } = await c.query<Captured>(
    `SELECT type, sourced_ids, previous FROM roster_events WHERE tenant_id = $1 AND previous IS NOT NULL
      ORDER BY n, type`,
    [tenant],
  );
  return rows;
}

describe('migration 1765600000000: the update capture converts each row to JSON once', () => {
  let db: TestDatabase;
  let c: Client;

  beforeAll(async () => {
    db = await createTestDatabase();
    c = new Client({ connectionString: db.url });
    await c.connect();
  });

  afterAll(async () => {
    await c?.end();
    await db?.drop();
  });

  it('captures exactly what the per-column conversion captured, and goes down and up again', async () => {
    const migration = new ConvertUpdatedRowsOnce1765600000000();
    const after = await writeAndUpdate(c, randomUUID());
    await withQueryRunner(db.url, (q) => migration.down(q));
    const before = await writeAndUpdate(c, randomUUID());
    await withQueryRunner(db.url, (q) => migration.up(q));
    const again = await writeAndUpdate(c, randomUUID());

    expect(after).toEqual(before);
    expect(again).toEqual(before);
    const byType = Object.fromEntries(after.map((e) => [e.type, e]));
    expect(Object.keys(byType).sort()).toEqual(['created', 'deleted', 'updated']);
    expect(byType['deleted']?.sourced_ids).toEqual(['u-5']);
    const updated = byType['updated']!;
    // u-6 changed nothing: no event.
    expect([...updated.sourced_ids].sort()).toEqual(['u-1', 'u-2', 'u-3']);
    const previousOf = (id: string) => updated.previous?.[updated.sourced_ids.indexOf(id)];
    expect(previousOf('u-1')).toMatchObject({ given_name: 'Given1', date_last_modified: '2026-01-01T00:00:00+00:00' });
    expect(previousOf('u-1')).toHaveProperty('roles', [{ org: 's1', role: 'student', roleType: 'primary' }]);
    expect(previousOf('u-2')).toMatchObject({ middle_name: 'M' });
    expect(previousOf('u-3')).toMatchObject({ middle_name: null, org_sourced_ids: ['s1'] });
  });

  it('keeps the lateral conversion fenced (OFFSET 0), which is what makes it once per row', async () => {
    const { rows } = await c.query<{ def: string }>(
      `SELECT pg_get_functiondef('roster_events_capture_update()'::regprocedure) AS def`,
    );
    expect(rows[0]?.def).toMatch(/to_jsonb\(n\) AS nj\s+OFFSET 0\) AS j/);
  });
});
