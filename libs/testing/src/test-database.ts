import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource, QueryRunner } from 'typeorm';
import { createDataSource, MIGRATIONS, runMigrations } from '@edu/persistence';

const TEMPLATE_LOCK_ID = 7_310_099;

function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

function serverUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url)
    throw new Error(
      'DATABASE_URL is not set: integration tests need the jest global setup (tools/jest/global-setup.js)',
    );
  return url;
}

/** Name of the migrated template for the current migration list (changes when a migration changes). */
function templateName(): string {
  const fingerprint = createHash('sha256')
    .update(MIGRATIONS.map((m) => m.toString()).join('\n'))
    .digest('hex')
    .slice(0, 16);
  return `edu_tpl_${fingerprint}`;
}

async function ensureTemplate(admin: Client, base: string): Promise<string> {
  const name = templateName();
  await admin.query('SELECT pg_advisory_lock($1)', [TEMPLATE_LOCK_ID]);
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) {
      const building = `${name}_build_${randomBytes(3).toString('hex')}`;
      await admin.query(`CREATE DATABASE "${building}"`);
      await runMigrations(withDatabase(base, building));
      // Renamed only once complete, so a crashed build never leaves a half-migrated template.
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    }
  } finally {
    await admin.query('SELECT pg_advisory_unlock($1)', [TEMPLATE_LOCK_ID]);
  }
  return name;
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * TypeORM records a generated column's expression per database name (`typeorm_metadata`) and
 * compares the entity's with the row of the database it is connected to; a clone still carries
 * the name the template was migrated under, so its rows are renamed to the clone's.
 */
async function claimTypeormMetadata(url: string): Promise<void> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    await c.query('UPDATE typeorm_metadata SET database = current_database() WHERE database IS NOT NULL');
  } finally {
    await c.end();
  }
}

/** A fresh, fully migrated database for one spec file, cloned from a shared template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const base = serverUrl();
  const admin = new Client({ connectionString: withDatabase(base, 'postgres') });
  await admin.connect();
  try {
    const template = await ensureTemplate(admin, base);
    const name = `edu_test_${randomBytes(6).toString('hex')}`;
    await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}" STRATEGY FILE_COPY`);
    await claimTypeormMetadata(withDatabase(base, name));
    return {
      name,
      url: withDatabase(base, name),
      drop: async () => {
        const c = new Client({ connectionString: withDatabase(base, 'postgres') });
        await c.connect();
        try {
          await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        } finally {
          await c.end();
        }
      },
    };
  } finally {
    await admin.end();
  }
}

/**
 * Runs `work` with a TypeORM query runner on the database at `url` (to run a migration's `down`
 * and `up` by hand), and its data source for checks beside it; closes both after.
 */
export async function withQueryRunner<T>(
  url: string,
  work: (q: QueryRunner, ds: DataSource) => Promise<T>,
): Promise<T> {
  const ds = createDataSource({ url, poolSize: 2 });
  await ds.initialize();
  const q = ds.createQueryRunner();
  try {
    return await work(q, ds);
  } finally {
    await q.release();
    await ds.destroy();
  }
}

/**
 * A test database and one connected client on it for the enclosing `describe` (its own jest
 * hooks): `client()` and `db()` are usable from `beforeAll` on, both closed after the block.
 */
export function useTestDatabaseClient(): { client(): Client; db(): TestDatabase } {
  let db: TestDatabase | undefined;
  let client: Client | undefined;
  beforeAll(async () => {
    db = await createTestDatabase();
    client = new Client({ connectionString: db.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });
  const opened = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the test database opens in beforeAll');
    return value;
  };
  return { client: () => opened(client), db: () => opened(db) };
}

/** A Redis URL and a key prefix no other spec file uses. */
export function testRedis(): { url: string; prefix: string } {
  const url = process.env.REDIS_URL;
  if (!url) throw new Error('REDIS_URL is not set: integration tests need the jest global setup');
  return { url, prefix: `{t${randomBytes(4).toString('hex')}}` };
}
