import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createTestDatabase, withQueryRunner, type TestDatabase } from '@edu/testing';
import { IncludeMembersInEnrollmentClassIndex1765300000000 } from './1765300000000-IncludeMembersInEnrollmentClassIndex';

/** The members side of `/classes/{id}/students`, as the rostering API writes it. */
const MEMBERS = `SELECT e.user_sourced_id FROM roster_enrollments AS e WHERE e.tenant_id = $1::uuid AND e.class_sourced_id = $2::text AND e.status = 'active' AND e.role = ANY($3::text[])`;

describe('migration 1765300000000: a class’s members come from the enrollment index alone', () => {
  let db: TestDatabase;
  let c: Client;
  const tenant = randomUUID();

  beforeAll(async () => {
    db = await createTestDatabase();
    c = new Client({ connectionString: db.url });
    await c.connect();
    // 40 classes of 50 enrollments, written in file order (a class's members spread over the table);
    // every tenth one tobedeleted, every fifth one a teacher's. Committed synchronously: the test
    // server commits asynchronously, and VACUUM marks no page all-visible (so no index-only scan
    // skips the heap) while the inserting commit is not yet flushed.
    await c.query('BEGIN');
    await c.query('SET LOCAL synchronous_commit = on');
    await c.query(
      `INSERT INTO roster_enrollments (tenant_id, sourced_id, status, date_last_modified, ordinal, class_sourced_id, school_sourced_id, user_sourced_id, role)
       SELECT $1::uuid, 'e-' || n, CASE WHEN n % 10 = 0 THEN 'tobedeleted' ELSE 'active' END, now(), n,
              'cls-' || (n % 40), 'sch-1', 'u-' || n, CASE WHEN n % 5 = 1 THEN 'teacher' ELSE 'student' END
         FROM generate_series(0, 1999) AS n`,
      [tenant],
    );
    await c.query('COMMIT');
    await c.query('VACUUM ANALYZE roster_enrollments');
  });

  afterAll(async () => {
    await c?.end();
    await db?.drop();
  });

  const KEY_ONLY =
    'CREATE INDEX "IDX_roster_enrollments_class_role" ON public.roster_enrollments USING btree (tenant_id, class_sourced_id, role)';
  const indexes = async () =>
    (
      await c.query<{ indexdef: string }>(
        `SELECT indexdef FROM pg_indexes WHERE tablename = 'roster_enrollments' AND indexname LIKE 'IDX_roster_enrollments_class_role%'`,
      )
    ).rows.map((r) => r.indexdef);

  it('keeps the key and includes the member and the status', async () => {
    expect(await indexes()).toEqual([`${KEY_ONLY} INCLUDE (user_sourced_id, status)`]);
  });

  it('goes down to the key alone and up again, leaving one index of that name each way', async () => {
    const migration = new IncludeMembersInEnrollmentClassIndex1765300000000();
    await withQueryRunner(db.url, async (q) => {
      await migration.down(q);
      expect(await indexes()).toEqual([KEY_ONLY]);
      await migration.up(q);
      expect(await indexes()).toEqual([`${KEY_ONLY} INCLUDE (user_sourced_id, status)`]);
    });
  });

  it('answers the members with an index-only scan and no heap fetch once vacuumed, and answers right', async () => {
    const values = [tenant, 'cls-7', ['student']];
    await c.query('BEGIN');
    try {
      // Only the index path is of interest here: on a table this small a sequential scan would win.
      await c.query('SET LOCAL enable_seqscan = off');
      await c.query('SET LOCAL enable_bitmapscan = off');
      const plan = (await c.query(`EXPLAIN (ANALYZE, COSTS OFF) ${MEMBERS}`, values)).rows
        .map((r: Record<string, string>) => r['QUERY PLAN'])
        .join('\n');
      expect(plan).toContain('Index Only Scan using "IDX_roster_enrollments_class_role"');
      expect(plan).toContain('Heap Fetches: 0');
    } finally {
      await c.query('ROLLBACK');
    }
    const { rows } = await c.query<{ user_sourced_id: string }>(`${MEMBERS} ORDER BY 1`, values);
    // n % 40 = 7: n = 7, 47, 87, …; none is a multiple of 10 or ≡ 1 (mod 5), so all 50 are active students.
    const expected = Array.from({ length: 50 }, (_, i) => `u-${7 + 40 * i}`).sort();
    expect(rows.map((r) => r.user_sourced_id)).toEqual(expected);
  });

  it('leaves out members that are not active or of another role', async () => {
    // n % 40 = 10: every n ends in 0 (tobedeleted); n % 40 = 1: every n ≡ 1 (mod 5) (teachers).
    const tobedeleted = await c.query(MEMBERS, [tenant, 'cls-10', ['student']]);
    const teachers = await c.query(MEMBERS, [tenant, 'cls-1', ['student']]);
    const asTeachers = await c.query(MEMBERS, [tenant, 'cls-1', ['teacher']]);
    expect([tobedeleted.rowCount, teachers.rowCount, asTeachers.rowCount]).toEqual([0, 0, 50]);
  });
});
