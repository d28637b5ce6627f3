import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { PREFIX, RosterHarness, SCOPE, type TenantSetup } from './support/harness';
import { loadFixture } from './support/load';
import { districtFixture } from './support/roster-fixture';
import { call, operatorToken } from './support/sources';
import { startWorker, syncOutcome, TokenEndpoint } from './support/sync-world';

const QUEUE = `{rs-guard-${randomUUID().slice(0, 8)}}`;
const SOURCE_ENV = {
  ROSTER_SOURCE_ALLOW_HTTP: 'true',
  ROSTER_SOURCE_ALLOW_PRIVATE_TARGETS: 'true',
  ROSTER_SOURCE_ALLOWED_PORTS: '*',
};

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** The school's endpoint for operational events: keeps what it receives. */
async function eventEndpoint(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/roster-events`, received, server };
}

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The sync worker's scheduling and guard around a source: a schedule runs a sync by itself, one
 * tenant's syncs never overlap, a token that runs out mid-pull is renewed, and a held sync is
 * announced to the tenant's endpoint with a Standard Webhooks signature.
 */
describe('roster sync schedules, tenant exclusion and held announcements', () => {
  const h = new RosterHarness();
  let worker: INestApplication;
  let op: string;
  let source: TenantSetup;
  let tokens: TokenEndpoint;
  let base = '';

  beforeAll(async () => {
    await h.start({ ...SOURCE_ENV, REDIS_URL: process.env.REDIS_URL as string, QUEUE_PREFIX: QUEUE });
    await h.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(h.app.getHttpServer().address() as AddressInfo).port}${PREFIX}`;
    worker = await startWorker(h, { QUEUE_PREFIX: QUEUE, ROSTER_SYNC_PAGE_SIZE: '10', ROSTER_SYNC_CONCURRENCY: '4' });
    op = await operatorToken(h.issuer);
    source = await h.tenant({ rootOrg: 'org-d1' });
    await loadFixture(h, source, districtFixture());
    tokens = await new TokenEndpoint(h.issuer, source, 'sis', 'sis-secret', [SCOPE.roster, SCOPE.demographics]).start();
  });
  afterAll(async () => {
    await worker?.close();
    await tokens?.stop();
    await h.stop();
  });

  const addSource = async (t: TenantSetup, o: Record<string, unknown> = {}) =>
    (
      await call(h.app, 'post', `/admin/tenants/${t.tenantId}/roster-sources`, op, {
        type: 'oneroster-rest',
        version: '1.1',
        base_url: base,
        token_url: tokens.url,
        client_id: 'sis',
        client_secret: 'sis-secret',
        ...o,
      }).expect(201)
    ).body.source;

  it('a schedule runs a sync by itself (an interval fires at once, then every period)', async () => {
    const t = await h.tenant({ rootOrg: 'org-d1' });
    const s = await addSource(t, { schedule: { interval_minutes: 60 } });
    const first = await until(async () => {
      const { syncs } = (await call(h.app, 'get', `/admin/tenants/${t.tenantId}/roster-syncs`, op).expect(200)).body;
      return syncs.find((x: { source_id: string }) => x.source_id === s.id);
    });
    expect(await syncOutcome(h, op, t.tenantId, first.id)).toMatchObject({ trigger: 'schedule', status: 'succeeded' });
  });

  it("one tenant's syncs never overlap: a second source's sync waits for the first", async () => {
    const t = await h.tenant({ rootOrg: 'org-d1' });
    const [a, b] = [await addSource(t, { name: 'A' }), await addSource(t, { name: 'B' })];
    const ids = await Promise.all(
      [a, b].map(
        async (s) =>
          (await call(h.app, 'post', `/admin/tenants/${t.tenantId}/roster-sources/${s.id}/sync`, op).expect(202)).body
            .sync.id,
      ),
    );
    const done = await Promise.all(ids.map((id: string) => syncOutcome(h, op, t.tenantId, id)));
    expect(done.map((d) => d.status)).toEqual(['succeeded', 'succeeded']);
    const [x, y] = [...done].sort((p, q) => Date.parse(p.started_at) - Date.parse(q.started_at));
    expect(Date.parse(y!.started_at)).toBeGreaterThanOrEqual(Date.parse(x!.ended_at));
  });

  it('gets a new token when the source refuses the one it has (401), and goes on', async () => {
    const t = await h.tenant({ rootOrg: 'org-d1' });
    const s = await addSource(t);
    const before = tokens.issued;
    tokens.spoilNext = true;
    const res = await call(h.app, 'post', `/admin/tenants/${t.tenantId}/roster-sources/${s.id}/sync`, op).expect(202);
    expect((await syncOutcome(h, op, t.tenantId, res.body.sync.id)).status).toBe('succeeded');
    expect(tokens.issued - before).toBe(2);
  });

  it('announces a held sync to the tenant endpoint, signed (Standard Webhooks)', async () => {
    const t = await h.tenant({ rootOrg: 'org-d1' });
    const endpoint = await eventEndpoint();
    try {
      const s = await addSource(t);
      expect(
        (
          await syncOutcome(
            h,
            op,
            t.tenantId,
            (await call(h.app, 'post', `/admin/tenants/${t.tenantId}/roster-sources/${s.id}/sync`, op).expect(202)).body
              .sync.id,
          )
        ).status,
      ).toBe('succeeded');
      const secret = `whsec_${Buffer.from('a school secret of 32 bytes!!!!!').toString('base64')}`;
      await call(h.app, 'put', `/admin/tenants/${t.tenantId}/roster-sync-settings`, op, {
        deletion_threshold_percent: 0,
        notify_url: endpoint.url,
        notify_secret: secret,
      }).expect(200);
      // Any deletion now holds: the source drops one org from what it lists.
      await h.ds.query(
        `UPDATE roster_orgs SET status = 'tobedeleted' WHERE tenant_id = $1 AND sourced_id = (SELECT max(sourced_id) FROM roster_orgs WHERE tenant_id = $1 AND status = 'active' AND parent_sourced_id IS NOT NULL)`,
        [source.tenantId],
      );
      await h.ds.query('UPDATE roster_data_versions SET version = version + 1 WHERE tenant_id = $1', [source.tenantId]);
      const res = await call(h.app, 'post', `/admin/tenants/${t.tenantId}/roster-sources/${s.id}/sync`, op, {
        mode: 'full',
      }).expect(202);
      const held = await syncOutcome(h, op, t.tenantId, res.body.sync.id);
      expect(held.status).toBe('held');
      const got = await until(() => endpoint.received[0]);
      const event = JSON.parse(got.body);
      expect(event).toMatchObject({
        type: 'roster.sync.held',
        tenant_id: t.tenantId,
        sync_id: held.id,
        over_threshold: ['orgs'],
      });
      const signed = `${got.headers['webhook-id']}.${got.headers['webhook-timestamp']}.${got.body}`;
      const expected = createHmac('sha256', Buffer.from(secret.slice(6), 'base64'))
        .update(signed)
        .digest('base64');
      expect(got.headers['webhook-signature']).toBe(`v1,${expected}`);
      const after = await until(async () => {
        const sync = (await call(h.app, 'get', `/admin/tenants/${t.tenantId}/roster-syncs/${held.id}`, op).expect(200))
          .body.sync;
        return sync.notified_at ? sync : undefined;
      });
      expect(after.notified_at).not.toBeNull();
      const metrics = await import('supertest').then((st) => st.default(worker.getHttpServer()).get('/metrics'));
      expect(metrics.text).toContain(`roster_syncs_held_total{tenant="${t.tenantId}"} 1`);
    } finally {
      await new Promise<void>((resolve) => endpoint.server.close(() => resolve()));
    }
  });
});
