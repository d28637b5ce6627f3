import { randomUUID } from 'node:crypto';
import { KeyEncryption } from '@edu/signing';
import { RosterSyncQueue } from '@edu/queue';
import { DEMO_KEY_ENCRYPTION_KEY } from '@edu/config';
import { RosterSyncsRepository } from '../src/sources/roster-syncs.repository';
import { RosterHarness, SCOPE, type TenantSetup } from './support/harness';
import { ADMIN, call, imsxError, operatorToken, schoolToken, TENANT_READ, TENANT_WRITE } from './support/sources';

const PREFIX = `{rs-api-${randomUUID().slice(0, 8)}}`;

const restSource = (o: Record<string, unknown> = {}) => ({
  type: 'oneroster-rest',
  name: 'District SIS',
  version: '1.1',
  base_url: 'https://sis.example.org/ims/oneroster/v1p1',
  token_url: 'https://sis.example.org/oauth/token',
  client_id: 'edu-platform',
  client_secret: 'the-sis-secret-value',
  schedule: { cron: '0 2 * * *', timezone: 'Australia/Sydney' },
  ...o,
});

/**
 * The roster source, sync and guard-settings routes over real HTTP: configuration, write-only
 * secrets, bad input naming the field, and who may do what (operator, the school's admin app,
 * anyone else), on every route.
 */
describe('roster sources API', () => {
  const h = new RosterHarness();
  let t: TenantSetup;
  let other: TenantSetup;
  let op: string;
  let queue: RosterSyncQueue;
  const base = () => `/admin/tenants/${t.tenantId}`;

  beforeAll(async () => {
    await h.start({ REDIS_URL: process.env.REDIS_URL as string, QUEUE_PREFIX: PREFIX });
    t = await h.tenant();
    other = await h.tenant();
    op = await operatorToken(h.issuer);
    queue = new RosterSyncQueue({ redisUrl: process.env.REDIS_URL as string, prefix: PREFIX });
  });
  afterAll(async () => {
    await queue?.close();
    await h.stop();
  });

  const create = async (body: unknown = restSource(), tenant = t.tenantId) =>
    (await call(h.app, 'post', `/admin/tenants/${tenant}/roster-sources`, op, body).expect(201)).body.source;

  describe('configuration by the operator', () => {
    it('creates a OneRoster API source: 201 with its Location, the secret never returned and sealed at rest', async () => {
      const res = await call(h.app, 'post', `${base()}/roster-sources`, op, restSource()).expect(201);
      const s = res.body.source;
      expect(res.headers['location']).toBe(`${base()}/roster-sources/${s.id}`);
      expect(s).toMatchObject({
        type: 'oneroster-rest',
        name: 'District SIS',
        enabled: true,
        version: '1.1',
        base_url: 'https://sis.example.org/ims/oneroster/v1p1',
        client_id: 'edu-platform',
        client_secret_set: true,
        delta: true,
        full_sync_interval_hours: 24,
        schedule: { cron: '0 2 * * *', timezone: 'Australia/Sydney' },
        delta_cursor: null,
      });
      expect(JSON.stringify(res.body)).not.toContain('the-sis-secret-value');
      const [row] = await h.ds.query('SELECT secret_encrypted FROM roster_sources WHERE id = $1', [s.id]);
      expect(row.secret_encrypted).not.toContain('the-sis-secret-value');
      expect(new KeyEncryption(DEMO_KEY_ENCRYPTION_KEY).decrypt(row.secret_encrypted)).toBe('the-sis-secret-value');
      expect(await queue.scheduledSources()).toContain(s.id);
    });

    it('creates an SFTP source with a hashed password and public keys, and an upload source', async () => {
      const key = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGn2HLy6mE0kBd4l2nD3E0qU0m8Gk2oZqH8mKb9q1n2X school@sis';
      const s = await create({
        type: 'sftp',
        username: `school-${randomUUID().slice(0, 6)}`,
        password: 'a long sftp password',
        public_keys: [key],
      });
      expect(s).toMatchObject({ type: 'sftp', password_set: true, public_keys: [key], stable_seconds: 10 });
      const [row] = await h.ds.query('SELECT sftp_password_hash FROM roster_sources WHERE id = $1', [s.id]);
      expect(row.sftp_password_hash).toMatch(/^scrypt\$/);
      expect(JSON.stringify(s)).not.toContain('a long sftp password');
      expect(await create({ type: 'upload' })).toMatchObject({ type: 'upload', name: 'Operator upload' });
    });

    it('lists, reads, changes (secret replaced, schedule removed) and deletes a source', async () => {
      const s = await create();
      const list = await call(h.app, 'get', `${base()}/roster-sources`, op).expect(200);
      expect(list.body.sources.map((x: { id: string }) => x.id)).toContain(s.id);
      await call(h.app, 'get', `${base()}/roster-sources/${s.id.toUpperCase()}`, op).expect(200);
      const patched = await call(h.app, 'patch', `${base()}/roster-sources/${s.id}`, op, {
        name: 'Renamed',
        client_secret: 'a-new-secret',
        schedule: null,
      }).expect(200);
      expect(patched.body.source).toMatchObject({ name: 'Renamed', schedule: null, client_secret_set: true });
      const [row] = await h.ds.query('SELECT secret_encrypted FROM roster_sources WHERE id = $1', [s.id]);
      expect(new KeyEncryption(DEMO_KEY_ENCRYPTION_KEY).decrypt(row.secret_encrypted)).toBe('a-new-secret');
      expect(await queue.scheduledSources()).not.toContain(s.id);
      await call(h.app, 'delete', `${base()}/roster-sources/${s.id}`, op).expect(204);
      await call(h.app, 'get', `${base()}/roster-sources/${s.id}`, op).expect(404);
      await call(h.app, 'delete', `${base()}/roster-sources/${s.id}`, op).expect(404);
    });

    it('refuses a second SFTP source with the same user name (409 naming username)', async () => {
      const username = `dup-${randomUUID().slice(0, 6)}`;
      await create({ type: 'sftp', username, password: 'a long sftp password' });
      const res = await call(h.app, 'post', `/admin/tenants/${other.tenantId}/roster-sources`, op, {
        type: 'sftp',
        username,
        password: 'another long password',
      }).expect(409);
      expect(imsxError(res.body).field).toBe('username');
    });
  });

  describe('bad input: 400 naming the field, never a 500', () => {
    const cases: Array<[string, unknown, string]> = [
      ['a private address (SSRF)', restSource({ base_url: 'https://10.0.0.5/ims/oneroster/v1p1' }), 'base_url'],
      ['loopback', restSource({ token_url: 'https://127.0.0.1/oauth/token' }), 'token_url'],
      ['plain http', restSource({ base_url: 'http://sis.example.org/x' }), 'base_url'],
      ['an odd port', restSource({ base_url: 'https://sis.example.org:6379/x' }), 'base_url'],
      ['a malformed cron', restSource({ schedule: { cron: '61 2 * * *' } }), 'schedule.cron'],
      ['a cron of six fields', restSource({ schedule: { cron: '* * * * * *' } }), 'schedule.cron'],
      [
        'an unknown time zone',
        restSource({ schedule: { cron: '0 2 * * *', timezone: 'Mars/Base' } }),
        'schedule.timezone',
      ],
      ['a zero interval', restSource({ schedule: { interval_minutes: 0 } }), 'schedule.interval_minutes'],
      ['a schedule of neither kind', restSource({ schedule: { every: 'day' } }), 'schedule.every'],
      ['a missing secret', { ...restSource(), client_secret: undefined }, 'client_secret'],
      ['an empty secret', restSource({ client_secret: '' }), 'client_secret'],
      ['a missing base URL', { ...restSource(), base_url: undefined }, 'base_url'],
      ['a version 1.0', restSource({ version: '1.0' }), 'version'],
      ['an unknown type', { type: 'ftp' }, 'type'],
      ['no type', { name: 'x' }, 'type'],
      ['an unknown field', restSource({ clientSecret: 'x' }), 'clientSecret'],
      ['a number as a name', restSource({ name: 42 }), 'name'],
      ['a control character in a name', restSource({ name: 'a\u0007b' }), 'name'],
      ['an SFTP source without credentials', { type: 'sftp', username: 'nocreds' }, 'password'],
      ['a short SFTP password', { type: 'sftp', username: 'shortpw', password: 'short' }, 'password'],
      ['a bad SFTP user name', { type: 'sftp', username: '../etc', password: 'a long sftp password' }, 'username'],
      [
        'a private key as a public key',
        { type: 'sftp', username: 'badkey', public_keys: ['-----BEGIN OPENSSH PRIVATE KEY-----'] },
        'public_keys[0]',
      ],
      [
        'a schedule on an SFTP source',
        { type: 'sftp', username: 'sched', password: 'a long sftp password', schedule: null },
        'schedule',
      ],
    ];
    it.each(cases)('%s', async (_name, body, field) => {
      const res = await call(h.app, 'post', `${base()}/roster-sources`, op, body).expect(400);
      expect(imsxError(res.body).field).toBe(field);
    });

    it('refuses bodies that are not JSON objects', async () => {
      await call(h.app, 'post', `${base()}/roster-sources`, op).set('Content-Type', 'text/plain').send('x').expect(415);
      await call(h.app, 'post', `${base()}/roster-sources`, op)
        .set('Content-Type', 'application/json')
        .send('{"type":')
        .expect(400);
      await call(h.app, 'post', `${base()}/roster-sources`, op)
        .set('Content-Type', 'application/json')
        .send('[1,2]')
        .expect(400);
      await call(h.app, 'post', `${base()}/roster-sources`, op)
        .set('Content-Type', 'application/json')
        .send('"x"')
        .expect(400);
      const deep = `{"type":"upload","name":${'['.repeat(200)}${']'.repeat(200)}}`;
      await call(h.app, 'post', `${base()}/roster-sources`, op)
        .set('Content-Type', 'application/json')
        .send(deep)
        .expect(400);
    });

    it('refuses a change of type, and bad changes, naming the field', async () => {
      const s = await create();
      const patch = (body: unknown) => call(h.app, 'patch', `${base()}/roster-sources/${s.id}`, op, body).expect(400);
      expect(imsxError((await patch({ type: 'sftp' })).body).field).toBe('type');
      expect(imsxError((await patch({ base_url: 'https://192.168.1.1/x' })).body).field).toBe('base_url');
      expect(imsxError((await patch({ schedule: 'daily' })).body).field).toBe('schedule');
      expect(imsxError((await patch({ enabled: 'yes' })).body).field).toBe('enabled');
    });
  });

  describe('sync now and the sync reports', () => {
    it('queues one sync (202 with its Location); a second while it is open is 409', async () => {
      const s = await create(restSource({ schedule: null }));
      const res = await call(h.app, 'post', `${base()}/roster-sources/${s.id}/sync`, op, { mode: 'full' }).expect(202);
      expect(res.body.sync).toMatchObject({
        status: 'queued',
        trigger: 'manual',
        requested_mode: 'full',
        source_id: s.id,
      });
      expect(res.headers['location']).toBe(`${base()}/roster-syncs/${res.body.sync.id}`);
      expect(await queue.syncJobState(res.body.sync.id)).not.toBe('unknown');
      const again = await call(h.app, 'post', `${base()}/roster-sources/${s.id}/sync`, op).expect(409);
      expect(imsxError(again.body).description).toContain(res.body.sync.id);
      const got = await call(h.app, 'get', `${base()}/roster-syncs/${res.body.sync.id}`, op).expect(200);
      expect(got.body.sync.id).toBe(res.body.sync.id);
    });

    it('refuses to sync an upload source or a disabled one, and a bad mode', async () => {
      const upload = await create({ type: 'upload' });
      await call(h.app, 'post', `${base()}/roster-sources/${upload.id}/sync`, op).expect(409);
      const off = await create(restSource({ enabled: false, schedule: null }));
      await call(h.app, 'post', `${base()}/roster-sources/${off.id}/sync`, op).expect(409);
      const on = await create(restSource({ schedule: null }));
      const bad = await call(h.app, 'post', `${base()}/roster-sources/${on.id}/sync`, op, { mode: 'partial' }).expect(
        400,
      );
      expect(imsxError(bad.body).field).toBe('mode');
    });

    it('pages the reports newest first with a cursor, and filters by status and source', async () => {
      const tenant = await h.tenant();
      const s = await create(restSource({ schedule: null }), tenant.tenantId);
      for (let i = 0; i < 3; i++)
        await h.ds.query(
          `INSERT INTO roster_syncs (tenant_id, source_id, source_type, trigger, status, created_at) VALUES ($1, $2, 'oneroster-rest', 'schedule', 'succeeded', now() - $3 * interval '1 minute')`,
          [tenant.tenantId, s.id, i],
        );
      const url = `/admin/tenants/${tenant.tenantId}/roster-syncs`;
      const first = await call(h.app, 'get', `${url}?limit=2`, op).expect(200);
      expect(first.body.syncs).toHaveLength(2);
      expect(first.headers['link']).toContain('rel="next"');
      const second = await call(h.app, 'get', `${url}?limit=2&cursor=${first.body.next_cursor}`, op).expect(200);
      expect(second.body.syncs).toHaveLength(1);
      expect(second.body.next_cursor).toBeUndefined();
      const seen = [...first.body.syncs, ...second.body.syncs].map((x: { created_at: string }) => x.created_at);
      expect(seen).toEqual([...seen].sort().reverse());
      expect((await call(h.app, 'get', `${url}?status=held`, op).expect(200)).body.syncs).toEqual([]);
      expect((await call(h.app, 'get', `${url}?source_id=${s.id}`, op).expect(200)).body.syncs).toHaveLength(3);
      for (const q of [
        'limit=0',
        'limit=201',
        'limit=x',
        'cursor=nope',
        'status=done',
        'source_id=12',
        'limit=1&limit=2',
      ])
        expect({ q, status: (await call(h.app, 'get', `${url}?${q}`, op)).status }).toEqual({ q, status: 400 });
    });

    it('decides only held syncs: approve queues it again (202), reject ends it; anything else is 409', async () => {
      const s = await create(restSource({ schedule: null }));
      const held = async () =>
        (
          await h.ds.query(
            `INSERT INTO roster_syncs (tenant_id, source_id, source_type, trigger, status) VALUES ($1, $2, 'oneroster-rest', 'schedule', 'held') RETURNING id`,
            [t.tenantId, s.id],
          )
        )[0].id as string;
      const a = await held();
      const approved = await call(h.app, 'post', `${base()}/roster-syncs/${a}/approve`, op).expect(202);
      expect(approved.body.sync).toMatchObject({ status: 'queued', decided_by: 'operator:operator' });
      await call(h.app, 'post', `${base()}/roster-syncs/${a}/approve`, op).expect(409);
      const b = await held();
      // The source already has a queued sync (the approved one): approving another now is refused.
      await call(h.app, 'post', `${base()}/roster-syncs/${b}/approve`, op).expect(409);
      const rejected = await call(h.app, 'post', `${base()}/roster-syncs/${b}/reject`, op).expect(200);
      expect(rejected.body.sync).toMatchObject({ status: 'rejected' });
      await call(h.app, 'post', `${base()}/roster-syncs/${b}/reject`, op).expect(409);
    });
  });

  describe('sync rows, as the API and the worker change them', () => {
    it('claims, decides and supersedes only the rows in the state each expects, and says which', async () => {
      const repo = new RosterSyncsRepository(h.ds);
      const s = await create(restSource({ schedule: null }));
      const row = async (status: string) =>
        (
          await h.ds.query(
            `INSERT INTO roster_syncs (tenant_id, source_id, source_type, trigger, status) VALUES ($1, $2, 'oneroster-rest', 'schedule', $3) RETURNING id`,
            [t.tenantId, s.id, status],
          )
        )[0].id as string;
      const failed = await row('failed');
      expect(await repo.claim(t.tenantId, failed)).toBe(false);
      expect(await repo.decide(t.tenantId, failed, true, 'operator:operator')).toBeNull();
      const [older, newer] = [await row('held'), await row('held')];
      expect(await repo.claim(t.tenantId, older)).toBe(false);
      // Another tenant's id changes nothing.
      expect(await repo.decide(other.tenantId, older, false, 'operator:operator')).toBeNull();
      expect(await repo.supersedeHeld(t.tenantId, s.id, newer)).toEqual([older]);
      expect(await repo.decide(t.tenantId, older, false, 'operator:operator')).toBeNull();
      expect((await repo.decide(t.tenantId, newer, false, 'operator:operator'))?.status).toBe('rejected');
      const queued = await row('queued');
      expect(await repo.claim(t.tenantId, queued)).toBe(true);
      expect((await repo.get(t.tenantId, queued))?.status).toBe('running');
    });
  });

  describe('the guard settings', () => {
    it('has the defaults, takes a threshold and a signed endpoint, never returns the secret', async () => {
      const url = `${base()}/roster-sync-settings`;
      expect((await call(h.app, 'get', url, op).expect(200)).body.settings).toMatchObject({
        deletion_threshold_percent: 10,
        notify_url: null,
        notify_secret_set: false,
      });
      const put = await call(h.app, 'put', url, op, {
        deletion_threshold_percent: 25,
        notify_url: 'https://school.example.org/hooks/roster',
        notify_secret: 'whsec_a-long-enough-secret',
      }).expect(200);
      expect(put.body.settings).toMatchObject({ deletion_threshold_percent: 25, notify_secret_set: true });
      expect(JSON.stringify(put.body)).not.toContain('a-long-enough-secret');
      for (const [body, field] of [
        [{ deletion_threshold_percent: 150 }, 'deletion_threshold_percent'],
        [{ notify_url: 'https://10.1.1.1/x' }, 'notify_url'],
        [{ notify_url: 'https://school.example.org/x', notify_secret: null }, 'notify_secret'],
        [{ threshold: 5 }, 'threshold'],
      ] as const) {
        const res = await call(h.app, 'put', url, op, body).expect(400);
        expect(imsxError(res.body).field).toBe(field);
      }
    });
  });

  describe('access on every route', () => {
    let sourceId: string;
    let syncId: string;
    const routes = (): Array<[string, 'get' | 'post' | 'patch' | 'put' | 'delete', string, unknown?]> => [
      ['create', 'post', 'roster-sources', { type: 'upload' }],
      ['list sources', 'get', 'roster-sources'],
      ['get source', 'get', `roster-sources/${sourceId}`],
      ['patch source', 'patch', `roster-sources/${sourceId}`, { name: 'x' }],
      ['delete source', 'delete', `roster-sources/${sourceId}`],
      ['sync now', 'post', `roster-sources/${sourceId}/sync`],
      ['list syncs', 'get', 'roster-syncs'],
      ['get sync', 'get', `roster-syncs/${syncId}`],
      ['approve', 'post', `roster-syncs/${syncId}/approve`],
      ['reject', 'post', `roster-syncs/${syncId}/reject`],
      ['get settings', 'get', 'roster-sync-settings'],
      ['put settings', 'put', 'roster-sync-settings', { deletion_threshold_percent: 5 }],
    ];

    beforeAll(async () => {
      sourceId = (await create(restSource({ schedule: null }))).id;
      syncId = (
        await h.ds.query(
          `INSERT INTO roster_syncs (tenant_id, source_id, source_type, trigger, status) VALUES ($1, $2, 'oneroster-rest', 'manual', 'succeeded') RETURNING id`,
          [t.tenantId, sourceId],
        )
      )[0].id;
    });

    it('no token and bad tokens: 401 on every route', async () => {
      const attacks = await h.issuer.attackTokens({ scopes: [ADMIN], sub: 'operator' });
      for (const [name, method, path, body] of routes()) {
        expect({ name, status: (await call(h.app, method, `${base()}/${path}`, undefined, body)).status }).toEqual({
          name,
          status: 401,
        });
        for (const [attack, token] of Object.entries(attacks))
          expect({
            name,
            attack,
            status: (await call(h.app, method, `${base()}/${path}`, token, body)).status,
          }).toEqual({ name, attack, status: 401 });
      }
    });

    it('a token without an accepted scope: 403 on every route', async () => {
      const reader = await h.token(t, [SCOPE.roster, SCOPE.demographics]);
      for (const [name, method, path, body] of routes())
        expect({ name, status: (await call(h.app, method, `${base()}/${path}`, reader, body)).status }).toEqual({
          name,
          status: 403,
        });
    });

    it("another tenant's admin app: 404 on every route, as for an unknown tenant", async () => {
      const otherAdmin = await schoolToken(h.issuer, other.tenantId, [TENANT_WRITE, TENANT_READ], other.appId);
      for (const [name, method, path, body] of routes()) {
        const status = (await call(h.app, method, `${base()}/${path}`, otherAdmin, body)).status;
        // Configuration routes are the operator's: that scope is missing before the tenant is looked at.
        expect({ name, status }).toEqual({
          name,
          status: ['create', 'patch source', 'delete source', 'put settings'].includes(name) ? 403 : 404,
        });
      }
    });

    it('the operator: unknown tenant, unknown ids and malformed ids are 404', async () => {
      for (const [name, method, path, body] of routes()) {
        const unknownTenant = await call(h.app, method, `/admin/tenants/${randomUUID()}/${path}`, op, body);
        expect({ name, status: unknownTenant.status }).toEqual({ name, status: 404 });
        const badTenant = await call(h.app, method, `/admin/tenants/not-a-uuid/${path}`, op, body);
        expect({ name, status: badTenant.status }).toEqual({ name, status: 404 });
        if (!path.includes('/')) continue;
        for (const id of [randomUUID(), 'nope', '%E2%82%AC'])
          expect({
            name,
            id,
            status: (await call(h.app, method, `${base()}/${path.replace(/[0-9a-f-]{36}/, id)}`, op, body)).status,
          }).toEqual({ name, id, status: 404 });
      }
    });

    it("another tenant's source or sync id through this tenant's path: 404", async () => {
      const foreign = await create(restSource({ schedule: null }), other.tenantId);
      await call(h.app, 'get', `${base()}/roster-sources/${foreign.id}`, op).expect(404);
      await call(h.app, 'patch', `${base()}/roster-sources/${foreign.id}`, op, { name: 'x' }).expect(404);
      await call(h.app, 'post', `${base()}/roster-sources/${foreign.id}/sync`, op).expect(404);
      await call(h.app, 'get', `/admin/tenants/${other.tenantId}/roster-syncs/${syncId}`, op).expect(404);
      await call(h.app, 'post', `/admin/tenants/${other.tenantId}/roster-syncs/${syncId}/approve`, op).expect(404);
    });

    it("the school's admin app reads and operates its own tenant but does not configure", async () => {
      const admin = await schoolToken(h.issuer, t.tenantId, [TENANT_WRITE], t.appId);
      const reader = await schoolToken(h.issuer, t.tenantId, [TENANT_READ], t.appId);
      await call(h.app, 'get', `${base()}/roster-sources`, admin).expect(200);
      await call(h.app, 'get', `${base()}/roster-syncs/${syncId}`, reader).expect(200);
      await call(h.app, 'get', `${base()}/roster-sync-settings`, reader).expect(200);
      await call(h.app, 'post', `${base()}/roster-sources/${sourceId}/sync`, reader).expect(403);
      const res = await call(h.app, 'post', `${base()}/roster-sources/${sourceId}/sync`, admin).expect(202);
      expect(res.body.sync.status).toBe('queued');
      await call(h.app, 'post', `${base()}/roster-sources`, admin, { type: 'upload' }).expect(403);
      await call(h.app, 'patch', `${base()}/roster-sources/${sourceId}`, admin, { name: 'x' }).expect(403);
      await call(h.app, 'delete', `${base()}/roster-sources/${sourceId}`, admin).expect(403);
      await call(h.app, 'put', `${base()}/roster-sync-settings`, admin, {}).expect(403);
    });
  });
});
