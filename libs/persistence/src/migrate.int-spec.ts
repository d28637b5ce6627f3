import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@edu/testing';
import { createDataSource } from './data-source';
import { MIGRATIONS } from './migrations';
import { pendingSchemaChanges, runMigrations } from './migrate';

async function emptyDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  const name = `edu_empty_${Math.random().toString(16).slice(2, 10)}`;
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const u = new URL(process.env.DATABASE_URL as string);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new Client({ connectionString: process.env.DATABASE_URL });
      await c.connect();
      await c.query(`DROP DATABASE "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

describe('migrations', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('leave no drift: the entities need no schema change after all migrations ran', async () => {
    const ds = createDataSource({ url: db.url });
    await ds.initialize();
    try {
      expect(await pendingSchemaChanges(ds)).toEqual([]);
    } finally {
      await ds.destroy();
    }
  });

  it('apply once even when two runners start together (advisory lock)', async () => {
    const fresh = await emptyDatabase();
    try {
      const [a, b] = await Promise.all([runMigrations(fresh.url), runMigrations(fresh.url)]);
      expect([...a, ...b].sort()).toEqual(MIGRATIONS.map((m) => new m().name ?? m.name).sort());
      expect(await runMigrations(fresh.url)).toEqual([]);
    } finally {
      await fresh.drop();
    }
  });

  it('seed the regions the spec names', async () => {
    const c = new Client({ connectionString: db.url });
    await c.connect();
    const { rows } = await c.query('SELECT id, country_code FROM regions ORDER BY id');
    await c.end();
    expect(rows).toEqual([
      { id: 'AU-NSW', country_code: 'AU' },
      { id: 'SG', country_code: 'SG' },
    ]);
  });
});
