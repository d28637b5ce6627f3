/**
 * The roster change feed, case by case: what imports, gradebook writes and compaction put in
 * it, how it pages, and what it refuses. The property over a generated tenant with sharing
 * changes is roster-events-replay.int-spec.ts.
 */
import {
  bulkStudent,
  clonePackage,
  fullPackage,
  setMode,
  writeFolder,
  type CsvPackage,
  type Rows,
} from './support/csv-package';
import { ROSTER_FILE_TYPES } from '../src/imports/csv-layout';
import { RosterHarness, SCOPE, type TenantSetup } from './support/harness';
import { expectImsxError } from './support/imsx';
import { importFolder } from './support/load';
import { SCOPE_V1P2 } from './support/v1p2';

/** `{schema_base}` of the test configuration (libs/testing baseTestEnv). */
const EVENTS = 'https://api.edu.example/scope/roster/events.readonly';
const FEED = '/roster-events/v1/events';

interface Page {
  events: Array<{
    id: string;
    cursor: string;
    type: string;
    object: string;
    sourcedId: string;
    data: Record<string, unknown> | null;
    previous: Record<string, unknown> | null;
  }>;
  next_cursor: string;
  has_more: boolean;
}

describe('roster change feed', () => {
  const h = new RosterHarness();
  let T: TenantSetup;
  let other: TenantSetup;
  let token: string;
  let start: string;

  async function feed(query: string, tok = token): Promise<Page> {
    const res = await h.get(`${FEED}${query}`, tok);
    if (res.status !== 200) throw new Error(`${query}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as Page;
  }

  /** Every event after `cursor`, page by page; the cursor at the end. */
  async function drain(cursor: string, limit = 1000): Promise<{ events: Page['events']; cursor: string }> {
    const events: Page['events'] = [];
    for (let at = cursor; ;) {
      const page = await feed(`?after=${encodeURIComponent(at)}&limit=${limit}`);
      events.push(...page.events);
      at = page.next_cursor;
      if (!page.has_more) return { events, cursor: at };
    }
  }

  /** A delta package of users.csv alone, holding `rows`. */
  function usersDelta(rows: Rows): CsvPackage {
    const p = clonePackage(fullPackage());
    for (const t of ROSTER_FILE_TYPES) if (t !== 'users') setMode(p, t, 'absent');
    setMode(p, 'users', 'delta');
    p.files['users.csv']!.rows = rows;
    return p;
  }

  beforeAll(async () => {
    await h.start({ LOG_LEVEL: process.env.DEBUG_LOG ?? 'silent' });
    T = await h.tenant();
    const app = await h.otherApp(T);
    other = await h.tenant();
    await h.ds.query('UPDATE tenant_app_deployments SET scope = $2 WHERE id = $1', [
      app.deploymentId,
      [...Object.values(SCOPE), ...Object.values(SCOPE_V1P2), EVENTS],
    ]);
    T = app;
    token = await h.token(T, [EVENTS]);
    start = (await feed('')).next_cursor;
  });

  afterAll(() => h.stop());

  it('starts at now when no cursor is given: nothing yet', async () => {
    const page = await feed('');
    expect(page).toEqual({ events: [], next_cursor: expect.any(String), has_more: false });
  });

  it('carries an import as one created event per object, in the order of the import, each as 1.2 shows it', async () => {
    const report = await importFolder(h, T.tenantId, writeFolder(fullPackage()));
    expect(report.status).toBe('succeeded');
    const { events } = await drain(start, 7);
    const users = events.filter((e) => e.object === 'users');
    expect(users.map((e) => [e.type, e.sourcedId]).sort()).toEqual(
      ['usr-p1', 'usr-s1', 'usr-s2', 'usr-t1'].map((id) => ['users.created', id]),
    );
    expect(users.find((e) => e.sourcedId === 'usr-s1')?.data).toMatchObject({
      sourcedId: 'usr-s1',
      givenName: 'Sam',
      email: 'sam@school.example',
      roles: expect.any(Array),
    });
    expect(new Set(events.map((e) => e.object))).toEqual(
      new Set([
        'orgs',
        'academicSessions',
        'courses',
        'classes',
        'users',
        'enrollments',
        'demographics',
        'resources',
        'categories',
        'lineItems',
        'results',
      ]),
    );
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  });

  it('carries a delta import: an update with the former values, a tombstone as a delete', async () => {
    const at = (await feed('')).next_cursor;
    const p = usersDelta([
      {
        sourcedId: 'usr-p1',
        status: 'active',
        dateLastModified: '2025-05-01T10:00:00.000Z',
        enabledUser: 'false',
        orgSourcedIds: 'org-s1',
        role: 'parent',
        username: 'pat.parent',
        givenName: 'Patricia',
        familyName: 'Nguyen',
        agentSourcedIds: 'usr-s1',
      },
      { sourcedId: 'usr-s2', status: 'tobedeleted', dateLastModified: '2025-05-02T00:00:00Z' },
    ]);
    const report = await importFolder(h, T.tenantId, writeFolder(p));
    expect(report).toMatchObject({ status: 'succeeded', errors: [] });
    const { events } = await drain(at);
    expect(events.map((e) => [e.type, e.sourcedId])).toEqual([
      ['users.updated', 'usr-p1'],
      ['users.deleted', 'usr-s2'],
    ]);
    expect(events[0]?.previous).toMatchObject({ givenName: 'Pat' });
    expect(events[0]?.data).toMatchObject({ givenName: 'Patricia' });
    expect(events[1]?.data).toBeNull();
  });

  it('carries gradebook writes in commit order', async () => {
    const at = (await feed('')).next_cursor;
    const writer = await h.token(T, [SCOPE.gradebookPut, SCOPE.gradebookDelete]);
    const lineItem = {
      lineItem: {
        title: 'Quiz',
        assignDate: '2025-03-01T08:00:00Z',
        dueDate: '2025-03-08T08:00:00Z',
        class: { sourcedId: 'cls-1' },
        resultValueMin: 0,
        resultValueMax: 10,
      },
    };
    await h.put('lineItems/li-feed', lineItem, writer).expect(201);
    await h.put('lineItems/li-feed', { lineItem: { ...lineItem.lineItem, title: 'Quiz 2' } }, writer).expect(200);
    await h.delete('lineItems/li-feed', writer).expect(204);
    const { events } = await drain(at);
    expect(events.map((e) => e.type)).toEqual(['lineItems.created', 'lineItems.updated', 'lineItems.deleted']);
    expect(events[1]?.previous).toMatchObject({ title: 'Quiz' });
  });

  it('filters by collection, and never serves a collection the deployment has no scope for', async () => {
    const page = await feed(`?after=${encodeURIComponent(start)}&objects=classes&limit=1000`);
    expect(page.events.map((e) => e.object)).toEqual(['classes', 'classes']);
    const narrow = await h.tenant();
    await importFolder(h, narrow.tenantId, writeFolder(fullPackage()));
    await h.ds.query('UPDATE tenant_app_deployments SET scope = $2 WHERE id = $1', [
      narrow.deploymentId,
      [SCOPE.core, EVENTS],
    ]);
    const tok = await h.token(narrow, [EVENTS]);
    const all = await feed('?after=beginning&limit=1000', tok);
    expect(new Set(all.events.map((e) => e.object))).toEqual(
      new Set(['orgs', 'academicSessions', 'courses', 'classes', 'users', 'enrollments']),
    );
  });

  it('refuses tampered cursors, other tenants’ and deployments’ cursors, bad limits and unknown collections', async () => {
    const own = (await feed('')).next_cursor;
    const [payload, sig] = own.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify([1, T.tenantId, T.deploymentId, '0', '0'])).toString('base64url');
    // The signature's first character changed (to one it is not: a fixed one would equal it 1 time in 64).
    const tampered = `${payload}.${sig.startsWith('x') ? 'y' : 'x'}${sig.slice(1)}`;
    for (const bad of [`${forged}.${sig}`, tampered, 'nonsense', `${payload}`])
      expectImsxError(await h.get(`${FEED}?after=${encodeURIComponent(bad)}`, token), 400, 'invaliddata');
    const otherToken = await h.token(other, [EVENTS]);
    expectImsxError(await h.get(`${FEED}?after=${encodeURIComponent(own)}`, otherToken), 400, 'invaliddata');
    const twin = await h.otherApp(T);
    expectImsxError(
      await h.get(`${FEED}?after=${encodeURIComponent(own)}`, await h.token(twin, [EVENTS])),
      400,
      'invaliddata',
    );
    for (const limit of ['0', '1001', 'abc', '-1', '1.5'])
      expectImsxError(await h.get(`${FEED}?after=beginning&limit=${limit}`, token), 400, 'invaliddata');
    const unknown = await h.get(`${FEED}?after=beginning&objects=users,sections`, token);
    expectImsxError(unknown, 400, 'invaliddata');
    expect(JSON.stringify(unknown.body)).toContain('sections');
    expectImsxError(await h.get(FEED), 401, 'unauthorisedrequest');
    expectImsxError(await h.get(FEED, 'not.a.token'), 401, 'unauthorisedrequest');
    expectImsxError(await h.get(FEED, await h.token(T, [SCOPE.core])), 403, 'forbidden');
  });

  it('pages a statement of more than 1,000 events (logged in chunks) without a gap or a duplicate, whatever the page size', async () => {
    const at = (await feed('')).next_cursor;
    const ids = Array.from({ length: 2500 }, (_, i) => `usr-bulk-${String(i).padStart(4, '0')}`);
    const rows = ids.map((sourcedId) => bulkStudent(sourcedId));
    expect(await importFolder(h, T.tenantId, writeFolder(usersDelta(rows)))).toMatchObject({
      status: 'succeeded',
      errors: [],
    });
    // One capturing statement: its 2,500 events in three log rows.
    const chunks: Array<{ size: number }> = await h.ds.query(
      `SELECT cardinality(e.sourced_ids) AS size FROM roster_events AS e
        WHERE e.tenant_id = $1 AND e.object = 'users'
          AND e.txid = (SELECT txid FROM roster_events WHERE tenant_id = $1 AND 'usr-bulk-0000' = ANY(sourced_ids))`,
      [T.tenantId],
    );
    expect(chunks.map((c) => c.size).sort((a, b) => a - b)).toEqual([500, 1000, 1000]);
    for (const limit of [1000, 7]) {
      const { events } = await drain(at, limit);
      expect(events.map((e) => e.sourcedId).sort()).toEqual(ids);
      expect(events.every((e) => e.type === 'users.created')).toBe(true);
      const positions = events.map((e) => e.id.split('.').map(BigInt) as [bigint, bigint]);
      for (let i = 1; i < positions.length; i++) {
        const [[b0, n0], [b1, n1]] = [positions[i - 1]!, positions[i]!];
        expect(b1 > b0 || (b1 === b0 && n1 > n0)).toBe(true);
      }
    }
  });

  it('compacts past the horizon to the latest event per object; an old cursor still replays to the current state', async () => {
    const before = await drain(start);
    // A cursor inside the first import's chunk of users, some of which later events superseded.
    const inChunk = before.events.find((e) => e.type === 'users.created' && e.sourcedId === 'usr-p1')!;
    const fromInChunk = await drain(inChunk.cursor);
    const layout = `SELECT txid::text || '/' || n AS chunk, cardinality(sourced_ids) AS size,
                           cardinality(array_positions(sourced_ids, NULL)) AS nulls
                      FROM roster_events WHERE tenant_id = $1 ORDER BY 1`;
    const chunksBefore: Array<{ chunk: string; size: number; nulls: number }> = await h.ds.query(layout, [T.tenantId]);
    const deleted = await h.app
      .get((await import('../src/events/event-compaction')).EventCompaction)
      .run(new Date(Date.now() + 60_000));
    expect(deleted).toBeGreaterThan(0);
    const after = await drain(start);
    // Dropped events are NULLs in place: surviving chunks keep their size, surviving events their ids.
    const chunksAfter: Array<{ chunk: string; size: number; nulls: number }> = await h.ds.query(layout, [T.tenantId]);
    const sizes = new Map(chunksBefore.map((c) => [c.chunk, c.size]));
    for (const c of chunksAfter) expect(c.size).toBe(sizes.get(c.chunk));
    expect(chunksAfter.some((c) => c.nulls > 0 && c.nulls < c.size)).toBe(true);
    expect(chunksAfter.length).toBeLessThan(chunksBefore.length);
    const byId = new Map(before.events.map((e) => [e.id, `${e.type} ${e.sourcedId}`]));
    for (const e of after.events) expect(`${e.type} ${e.sourcedId}`).toBe(byId.get(e.id));
    const latest = (events: Page['events']) => {
      const m = new Map<string, Page['events'][number]>();
      for (const e of events) m.set(`${e.object}/${e.sourcedId}`, e);
      return [...m.values()].map((e) => [e.type, e.object, e.sourcedId]).sort();
    };
    expect(after.events.length).toBeLessThan(before.events.length);
    expect(latest(after.events)).toEqual(latest(before.events));
    expect(after.cursor).toBe(before.cursor);
    const stillFromInChunk = await drain(inChunk.cursor);
    expect(stillFromInChunk.events.length).toBeLessThan(fromInChunk.events.length);
    expect(latest(stillFromInChunk.events)).toEqual(latest(fromInChunk.events));
  });
});
