import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@edu/testing';

/** The counting side of a `familyName='…'` / `givenName='…'` page, as the rostering API writes it. */
const countOf = (column: string) =>
  `SELECT count(*) FROM roster_users AS t WHERE t.tenant_id = $1::uuid AND lower(t.${column}) COLLATE "C" = lower($2::text)`;

describe('migration 1764200000000: user name indexes answer counts alone', () => {
  let db: TestDatabase;
  let c: Client;
  const tenant = randomUUID();

  beforeAll(async () => {
    db = await createTestDatabase();
    c = new Client({ connectionString: db.url });
    await c.connect();
    await c.query(
      `INSERT INTO roster_users (tenant_id, sourced_id, status, date_last_modified, ordinal, username, enabled_user, given_name, family_name, role, org_sourced_ids, role_group, group_ordinal)
       SELECT $1::uuid, 'u-' || n, 'active', now(), n, 'user' || n, true, 'Given' || (n % 7), 'Family' || (n % 5), 'student', ARRAY['org-1'], 'student', n
         FROM generate_series(0, 1999) AS n`,
      [tenant],
    );
    await c.query('VACUUM ANALYZE roster_users');
  });

  afterAll(async () => {
    await c?.end();
    await db?.drop();
  });

  it.each([
    ['family_name', 'IDX_roster_users_family_name_ci', 'family3', 400],
    ['given_name', 'IDX_roster_users_given_name_ci', 'GIVEN2', 286],
  ])(
    '%s: the count is an index-only scan of %s (heap visits only for pages not yet all-visible) and counts right',
    async (column, index, name, expected) => {
      await c.query('BEGIN');
      try {
        // Only the index path is of interest here: on a table this small a sequential scan would win.
        await c.query('SET LOCAL enable_seqscan = off');
        await c.query('SET LOCAL enable_bitmapscan = off');
        const plan = (await c.query(`EXPLAIN (ANALYZE, COSTS OFF) ${countOf(column)}`, [tenant, name])).rows
          .map((r: Record<string, string>) => r['QUERY PLAN'])
          .join('\n');
        expect(plan).toContain(`Index Only Scan using "${index}"`);
        const [row] = (await c.query(countOf(column), [tenant, name])).rows as Array<{ count: string }>;
        expect(Number(row?.count)).toBe(expected);
      } finally {
        await c.query('ROLLBACK');
      }
    },
  );
});
