import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { DEFAULT_ONEROSTER_V1P2_SCOPE_BASE } from '@edu/domain';
import { PREFIX, RosterHarness, SCOPE, type TenantSetup } from './support/harness';
import { loadFixture } from './support/load';
import { districtFixture, type RosterFixture } from './support/roster-fixture';
import { call, operatorToken } from './support/sources';
import { FaultyProxy, fullRead, startWorker, syncOutcome, TokenEndpoint } from './support/sync-world';

const V1P2 = '/ims/oneroster/rostering/v1p2';
const V1P2_SCOPES = ['roster.readonly', 'roster-demographics.readonly'].map(
  (s) => `${DEFAULT_ONEROSTER_V1P2_SCOPE_BASE}/${s}`,
);
const QUEUE = `{rs-pull-${randomUUID().slice(0, 8)}}`;
const SOURCE_ENV = {
  ROSTER_SOURCE_ALLOW_HTTP: 'true',
  ROSTER_SOURCE_ALLOW_PRIVATE_TARGETS: 'true',
  ROSTER_SOURCE_ALLOWED_PORTS: '*',
};

/** The fixture without half of its users (and what refers to them), for the guard. */
function halfTheUsers(f: RosterFixture): RosterFixture {
  const users = f.rows.filter((r) => r.file === 'users').map((r) => r.row.sourcedId!);
  const gone = new Set(users.slice(0, Math.ceil(users.length / 2)));
  const refers = (r: Record<string, string>) =>
    [r.sourcedId, r.userSourcedId, ...(r.agentSourcedIds ?? '').split(',')].some((x) => x && gone.has(x));
  return {
    ...f,
    rows: f.rows.filter((r) => !(['users', 'enrollments', 'demographics'].includes(r.file) && refers(r.row))),
  };
}

/**
 * Syncs from a OneRoster API: this platform's own (a second tenant as the source) over real HTTP
 * with real tokens, through the sync worker and the CSV importer. A full pull reproduces the
 * source; a delta pull applies exactly the changes; a mass deletion is held until approved or
 * rejected; a misbehaving source fails the sync and leaves the data as it was.
 */
describe('roster syncs from a OneRoster API', () => {
  const h = new RosterHarness();
  let worker: INestApplication;
  let op: string;
  let source: TenantSetup;
  let tokens: TokenEndpoint;
  let proxy: FaultyProxy;
  let base = '';

  beforeAll(async () => {
    await h.start({ ...SOURCE_ENV, REDIS_URL: process.env.REDIS_URL as string, QUEUE_PREFIX: QUEUE });
    await h.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(h.app.getHttpServer().address() as AddressInfo).port}`;
    worker = await startWorker(h, {
      QUEUE_PREFIX: QUEUE,
      ROSTER_SYNC_DELTA_OVERLAP_MS: '0',
      ROSTER_SYNC_HTTP_TIMEOUT_MS: '2000',
      ROSTER_SYNC_RETRIES: '2',
      ROSTER_SYNC_MAX_PAGES: '50',
    });
    op = await operatorToken(h.issuer);
    source = await h.tenant({ rootOrg: 'org-d1' });
    await loadFixture(h, source, districtFixture());
    tokens = await new TokenEndpoint(h.issuer, source, 'sis-client', 'sis-secret-value', [
      SCOPE.roster,
      SCOPE.demographics,
      ...V1P2_SCOPES,
    ]).start();
    proxy = await new FaultyProxy(base).start();
  });
  afterAll(async () => {
    await worker?.close();
    await proxy?.stop();
    await tokens?.stop();
    await h.stop();
  });

  const target = () => h.tenant({ rootOrg: 'org-d1' });
  const addSource = async (t: TenantSetup, o: Record<string, unknown> = {}) =>
    (
      await call(h.app, 'post', `/admin/tenants/${t.tenantId}/roster-sources`, op, {
        type: 'oneroster-rest',
        version: '1.1',
        base_url: `${proxy.url}${PREFIX}`,
        token_url: tokens.url,
        client_id: 'sis-client',
        client_secret: 'sis-secret-value',
        ...o,
      }).expect(201)
    ).body.source;
  const sync = async (t: TenantSetup, sourceId: string, body: unknown = {}) => {
    const res = await call(
      h.app,
      'post',
      `/admin/tenants/${t.tenantId}/roster-sources/${sourceId}/sync`,
      op,
      body,
    ).expect(202);
    return syncOutcome(h, op, t.tenantId, res.body.sync.id);
  };
  const read = async (t: TenantSetup, root = PREFIX) =>
    fullRead(h, await h.token(t, root === PREFIX ? [SCOPE.roster, SCOPE.demographics] : V1P2_SCOPES), root, {
      withoutDates: true,
    });

  it('a full pull of the v1.1 API reproduces the source tenant exactly', async () => {
    const t = await target();
    const s = await addSource(t);
    const result = await sync(t, s.id);
    expect(result).toMatchObject({ status: 'succeeded', mode: 'full', trigger: 'manual', errors: [] });
    expect(result.counts.users.created).toBeGreaterThan(0);
    expect(result.diff.types.users).toMatchObject({ active: 0, deleted: 0 });
    expect(await read(t)).toEqual(await read(source));
    const [stored] = await h.ds.query('SELECT delta_cursor, last_full_sync_at FROM roster_sources WHERE id = $1', [
      s.id,
    ]);
    expect(stored.delta_cursor).toBe(result.next_cursor ?? stored.delta_cursor);
    expect(stored.last_full_sync_at).not.toBeNull();
  });

  it('a full pull of the v1.2 API reproduces the source tenant exactly (read through v1.2)', async () => {
    const t = await target();
    const s = await addSource(t, { version: '1.2', base_url: `${proxy.url}${V1P2}` });
    const result = await sync(t, s.id);
    expect(result).toMatchObject({ status: 'succeeded', mode: 'full', errors: [] });
    expect(await read(t, V1P2)).toEqual(await read(source, V1P2));
  });

  it('a delta pull applies exactly the changes made at the source since the last pull', async () => {
    const t = await target();
    const s = await addSource(t);
    expect((await sync(t, s.id)).status).toBe('succeeded');
    // At the source: one user renamed, one enrollment ended, one user added (a delta package).
    const { importFolder } = await import('./support/load');
    const { writeDeltaPackage } = await import('./support/sync-changes');
    const change = await writeDeltaPackage(h, source.tenantId);
    expect((await importFolder(h, source.tenantId, change.dir)).status).toBe('succeeded');
    const delta = await sync(t, s.id);
    expect(delta).toMatchObject({ status: 'succeeded', mode: 'delta' });
    expect(delta.counts.users).toMatchObject({ created: 1, updated: 1, deleted: 0 });
    expect(delta.counts.enrollments).toMatchObject({ created: 0, updated: 0, deleted: 1 });
    expect(await read(t)).toEqual(await read(source));
    // The changed records carry the source's own dateLastModified.
    const user = (await h.get(`users/${change.renamedUser}`, await h.token(t)).expect(200)).body.user;
    const original = (await h.get(`users/${change.renamedUser}`, await h.token(source)).expect(200)).body.user;
    expect(user.dateLastModified).toBe(original.dateLastModified);
  });

  it('holds a pull that deletes half the users; reject leaves everything as it was, approve applies it', async () => {
    const t = await target();
    const s = await addSource(t);
    expect((await sync(t, s.id)).status).toBe('succeeded');
    const before = await read(t);
    const halved = await h.tenant({ rootOrg: 'org-d1' });
    await loadFixture(h, halved, halfTheUsers(districtFixture()));
    const halfTokens = await new TokenEndpoint(h.issuer, halved, 'half', 'half-secret', [
      SCOPE.roster,
      SCOPE.demographics,
    ]).start();
    try {
      await call(h.app, 'patch', `/admin/tenants/${t.tenantId}/roster-sources/${s.id}`, op, {
        token_url: halfTokens.url,
        client_id: 'half',
        client_secret: 'half-secret',
      }).expect(200);
      const held = await sync(t, s.id, { mode: 'full' });
      expect(held).toMatchObject({ status: 'held' });
      expect(held.diff.over_threshold).toContain('users');
      expect(held.diff.types.users.deleted_percent).toBeGreaterThan(10);
      expect(held.diff.types.users.deleted_sample.length).toBeGreaterThan(0);
      expect(await read(t)).toEqual(before);
      await call(h.app, 'post', `/admin/tenants/${t.tenantId}/roster-syncs/${held.id}/reject`, op).expect(200);
      expect(await read(t)).toEqual(before);
      expect(await h.ds.query('SELECT 1 FROM roster_sync_packages WHERE sync_id = $1', [held.id])).toEqual([]);

      const again = await sync(t, s.id, { mode: 'full' });
      expect(again.status).toBe('held');
      await call(h.app, 'post', `/admin/tenants/${t.tenantId}/roster-syncs/${again.id}/approve`, op).expect(202);
      const applied = await syncOutcome(h, op, t.tenantId, again.id);
      expect(applied).toMatchObject({ status: 'succeeded', decided_by: 'operator:operator' });
      expect(applied.counts.users.deleted).toBe(held.diff.types.users.deleted);
      const after = await read(t);
      const expected = await read(halved);
      expect(after.users!.filter((u) => (u as { status: string }).status === 'active')).toEqual(
        expected.users!.filter((u) => (u as { status: string }).status === 'active'),
      );
    } finally {
      await halfTokens.stop();
    }
  });

  describe('a source that misbehaves fails the sync and leaves the data untouched', () => {
    let t: TenantSetup;
    let sourceId: string;
    let before: Record<string, unknown[]>;

    beforeAll(async () => {
      t = await target();
      sourceId = (await addSource(t)).id;
      expect((await sync(t, sourceId)).status).toBe('succeeded');
      before = await read(t);
    });
    afterEach(() => {
      proxy.fault = 'none';
    });

    it.each([
      ['answers 500s', '500', /answered 500/],
      ['never answers (timeout)', 'hang', /no answer within/],
      ['returns malformed JSON', 'bad-json', /not valid JSON/],
      ['returns JSON without the list', 'no-list', /has no "orgs" list/],
      ['pages forever', 'pages-forever', /keeps paging/],
    ] as const)('%s', async (_name, fault, message) => {
      proxy.fault = fault;
      const result = await sync(t, sourceId, { mode: 'full' });
      expect(result.status).toBe('failed');
      expect(result.errors[0].message).toMatch(message);
      expect(result.errors[0].url).toContain(proxy.url);
      proxy.fault = 'none';
      expect(await read(t)).toEqual(before);
    });

    it('a wrong client secret fails with the token endpoint named', async () => {
      await call(h.app, 'patch', `/admin/tenants/${t.tenantId}/roster-sources/${sourceId}`, op, {
        client_secret: 'wrong',
      }).expect(200);
      const result = await sync(t, sourceId);
      expect(result.status).toBe('failed');
      expect(result.errors[0]).toMatchObject({ url: tokens.url });
      expect(result.errors[0].message).toMatch(/401/);
      await call(h.app, 'patch', `/admin/tenants/${t.tenantId}/roster-sources/${sourceId}`, op, {
        client_secret: 'sis-secret-value',
      }).expect(200);
      expect(await read(t)).toEqual(before);
    });

    it('waits as a 429 Retry-After asks, then succeeds', async () => {
      proxy.fault = '429-once';
      const result = await sync(t, sourceId, { mode: 'full' });
      expect(result.status).toBe('succeeded');
    });
  });
});
