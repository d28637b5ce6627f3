import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@edu/testing';
import { TENANT_DATA_TABLES } from './orphans';
import { GLOBAL_ONLY_TABLES, REPLICATED_TABLES } from './replication';

/** Tables whose tenant/app rows go with something else the cleanup removes. */
const COVERED_BY = {
  webhooks: 'removed when their app is gone',
  webhook_deliveries:
    'deleted with their alert message (delivery log of a removed webhook is kept, open ones cancelled)',
  alert_message_fetches: 'deleted with their alert message',
  shared_user_rows: 'deleted with their sharing scope (a copy of the roster_users rows the scope lists)',
} as const;

describe('orphan cleanup coverage', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('knows every table keyed by a tenant or an app: replicated, global-only, cleaned up, or covered by one of those', async () => {
    const c = new Client({ connectionString: db.url });
    await c.connect();
    const { rows } = await c.query<{ table_name: string }>(
      `SELECT DISTINCT table_name FROM information_schema.columns
        WHERE table_schema = current_schema() AND column_name IN ('tenant_id', 'app_id') ORDER BY 1`,
    );
    await c.end();
    const known = new Set([
      ...REPLICATED_TABLES.map((t) => t.table),
      ...GLOBAL_ONLY_TABLES,
      ...TENANT_DATA_TABLES,
      ...Object.keys(COVERED_BY),
    ]);
    expect(rows.map((r) => r.table_name).filter((t) => !known.has(t))).toEqual([]);
  });

  it('finds no foreign key from regional data to a replicated table (a replicated delete must not fail or cascade)', async () => {
    const c = new Client({ connectionString: db.url });
    await c.connect();
    const { rows } = await c.query<{ child: string; parent: string }>(
      `SELECT conrelid::regclass::text AS child, confrelid::regclass::text AS parent FROM pg_constraint WHERE contype = 'f' ORDER BY 1, 2`,
    );
    await c.end();
    const identity = new Set([...REPLICATED_TABLES.map((t) => t.table), ...GLOBAL_ONLY_TABLES]);
    const replicated = new Set(REPLICATED_TABLES.map((t) => t.table));
    expect(rows.filter((r) => replicated.has(r.parent) && !identity.has(r.child))).toEqual([]);
  });
});
