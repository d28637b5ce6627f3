/**
 * A first import's change-feed events are written by the importer, not by the capture trigger
 * (direct-load-events.ts): they must be exactly the trigger's, chunk for chunk. The reference is the
 * trigger itself, capturing the same rows inserted in the same order by one statement.
 */
import { Client } from 'pg';
import { importRosterPackage } from '../src/imports/roster-importer';
import { openRosterPackage } from '../src/imports/roster-package';
import { bulkStudent, clonePackage, fullPackage, writeFolder, type CsvPackage } from './support/csv-package';
import { RosterHarness, type TenantSetup } from './support/harness';
import { importFolder } from './support/load';

/** A chunk of the feed's log: its type and its objects, in order. */
type Chunk = [type: string, sourcedIds: string[]];

describe('a direct load’s change-feed events', () => {
  const h = new RosterHarness();

  beforeAll(() => h.start({ LOG_LEVEL: process.env.DEBUG_LOG ?? 'silent' }));
  afterAll(() => h.stop());

  /** The full package with `ids` as more users before its own (in sourcedId order), every 7th tobedeleted. */
  function withUsers(ids: string[]): CsvPackage {
    const p = clonePackage(fullPackage());
    const users = p.files['users.csv']!;
    const extra = ids.map((sourcedId, i) => bulkStudent(sourcedId, i % 7 === 3 ? 'tobedeleted' : 'active'));
    users.rows = [...extra, ...users.rows];
    return p;
  }

  const bulkIds = (prefix: string, n: number) =>
    Array.from({ length: n }, (_, i) => `${prefix}-${String(i).padStart(4, '0')}`);

  async function chunksOf(tenantId: string, object: string): Promise<Chunk[]> {
    const rows: Array<{ type: string; sourced_ids: string[] }> = await h.ds.query(
      'SELECT type, sourced_ids FROM roster_events WHERE tenant_id = $1 AND object = $2 ORDER BY txid, n',
      [tenantId, object],
    );
    return rows.map((r) => [r.type, r.sourced_ids]);
  }

  /** What the capture trigger logs for `from`'s rows of `table` inserted for `to`, in ordinal order, by one statement. */
  async function triggerChunks(table: string, object: string, from: string, to: string): Promise<Chunk[]> {
    const columns: Array<{ name: string }> = await h.ds.query(
      `SELECT attname AS name FROM pg_attribute
        WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '' ORDER BY attnum`,
      [table],
    );
    const names = columns.map((c) => `"${c.name}"`);
    const values = columns.map((c) => (c.name === 'tenant_id' ? '$2::uuid' : `"${c.name}"`));
    await h.ds.query(
      `INSERT INTO "${table}" (${names.join(', ')}) SELECT ${values.join(', ')} FROM "${table}" WHERE tenant_id = $1 ORDER BY ordinal`,
      [from, to],
    );
    return chunksOf(to, object);
  }

  it('are the chunks the capture trigger logs for the same rows in the same order', async () => {
    const t: TenantSetup = await h.tenant();
    const reference: TenantSetup = await h.tenant();
    const ids = bulkIds('usr-a', 2600);
    const report = await importFolder(h, t.tenantId, writeFolder(withUsers(ids)));
    expect(report).toMatchObject({ status: 'succeeded', errors: [] });

    const users = await chunksOf(t.tenantId, 'users');
    expect(users).toEqual(await triggerChunks('roster_users', 'users', t.tenantId, reference.tenantId));
    // 2,604 users: chunks of 1,000, 1,000 and 604 rows, each split into created, then deleted.
    expect(users.map(([type, list]) => `${type} ${list.length}`)).toEqual([
      'created 857',
      'deleted 143',
      'created 857',
      'deleted 143',
      'created 519',
      'deleted 85',
    ]);
    expect(users.flatMap(([, list]) => list).sort()).toEqual([...ids, 'usr-p1', 'usr-s1', 'usr-s2', 'usr-t1'].sort());
    expect(await chunksOf(t.tenantId, 'enrollments')).toEqual(
      await triggerChunks('roster_enrollments', 'enrollments', t.tenantId, reference.tenantId),
    );
  });

  it('are written by the importer: the trigger does not capture the load', async () => {
    const t = await h.tenant();
    const [{ def }]: Array<{ def: string }> = await h.ds.query(
      "SELECT pg_get_functiondef('roster_events_capture_insert'::regproc) AS def",
    );
    // The trigger refuses to capture users past its check of `edu.roster_events`.
    const refusing = def.replace(
      /END IF;/,
      "END IF;\n  IF TG_ARGV[0] = 'users' THEN RAISE EXCEPTION 'the trigger captured a direct load'; END IF;",
    );
    expect(refusing).not.toBe(def);
    await h.ds.query(refusing);
    try {
      const report = await importFolder(h, t.tenantId, writeFolder(withUsers(bulkIds('usr-b', 30))));
      expect(report).toMatchObject({ status: 'succeeded', errors: [] });
      expect((await chunksOf(t.tenantId, 'users')).flatMap(([, list]) => list)).toHaveLength(34);
    } finally {
      await h.ds.query(def);
    }
  });

  it('leave sourcedId order: the direct part and the merged rest give every object one event', async () => {
    const t = await h.tenant();
    const ids = bulkIds('usr-c', 1500);
    const p = withUsers(ids);
    // Two rows swapped: the 1,201st is out of order, so it and the rest are staged and merged (captured by the trigger).
    const rows = p.files['users.csv']!.rows;
    [rows[1199], rows[1200]] = [rows[1200]!, rows[1199]!];
    expect(await importFolder(h, t.tenantId, writeFolder(p))).toMatchObject({ status: 'succeeded', errors: [] });
    const users = await chunksOf(t.tenantId, 'users');
    const logged = users.flatMap(([, list]) => list);
    expect(logged.sort()).toEqual([...ids, 'usr-p1', 'usr-s1', 'usr-s2', 'usr-t1'].sort());
    // The direct part's 1,200 rows in two chunks (1,000 and 200), each split by type, then the merge's.
    expect(users[0]![1].length + users[1]![1].length).toBe(1000);
    expect(users[0]![1]).toEqual(ids.filter((_, i) => i < 1000 && i % 7 !== 3));
  });

  it('are none where the trigger would log none: capture off for the session, or the trigger disabled', async () => {
    const off = await h.tenant();
    const client = new Client({ connectionString: h.db.url });
    await client.connect();
    try {
      await client.query("SET edu.roster_events = 'off'");
      const dir = writeFolder(withUsers(bulkIds('usr-d', 20)));
      const report = await importRosterPackage(client, () => openRosterPackage(dir), {
        tenantId: off.tenantId,
        source: 'capture off',
      });
      expect(report).toMatchObject({ status: 'succeeded', errors: [] });
    } finally {
      await client.end();
    }
    expect(await chunksOf(off.tenantId, 'users')).toEqual([]);

    const disabled = await h.tenant();
    await h.ds.query('ALTER TABLE roster_users DISABLE TRIGGER roster_events_insert');
    try {
      const report = await importFolder(h, disabled.tenantId, writeFolder(withUsers(bulkIds('usr-e', 20))));
      expect(report).toMatchObject({ status: 'succeeded', errors: [] });
    } finally {
      await h.ds.query('ALTER TABLE roster_users ENABLE TRIGGER roster_events_insert');
    }
    expect(await chunksOf(disabled.tenantId, 'users')).toEqual([]);
    // Other files of the same import still logged by the importer.
    expect((await chunksOf(disabled.tenantId, 'enrollments')).length).toBeGreaterThan(0);
  });
});
