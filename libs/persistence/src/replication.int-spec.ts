import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { runMigrations } from './migrate';
import { cleanupOrphans, OrphanCleanupRefused } from './orphans';
import {
  configureReplication,
  IDENTITY_PUBLICATION,
  replicationStatus,
  REPLICATED_TABLES,
  ReplicationSetupError,
  type ReplicationConfig,
} from './replication';

// The launcher of `npm start` and the jest global setup (plain JS under tools/).
const { startPostgres } = createRequire(__filename)(
  '../../../tools/infra/postgres',
) as typeof import('../../../tools/infra/postgres');
type PostgresServer = Awaited<ReturnType<typeof startPostgres>>;

/**
 * Logical replication between two real PostgreSQL servers: a global one (wal_level=logical) and a
 * regional one, set up by the same code `npm run db:migrate` runs, then the orphan cleanup.
 */
describe('identity replication: publication, subscription and orphan cleanup', () => {
  const SUB = 'edu_identity_test_region';
  let dirs: string[] = [];
  let global: PostgresServer;
  let regional: PostgresServer;
  let g: Client;
  let r: Client;
  let subscriber: ReplicationConfig;

  beforeAll(async () => {
    dirs = [
      fs.mkdtempSync(path.join(os.tmpdir(), 'edu-repl-global-')),
      fs.mkdtempSync(path.join(os.tmpdir(), 'edu-repl-regional-')),
    ];
    [global, regional] = await Promise.all([
      startPostgres({ dataDir: dirs[0], durable: false, settings: { wal_level: 'logical' } }),
      startPostgres({ dataDir: dirs[1], durable: false }),
    ]);
    await Promise.all([runMigrations(global.url), runMigrations(regional.url)]);
    g = new Client({ connectionString: global.url });
    r = new Client({ connectionString: regional.url });
    await Promise.all([g.connect(), r.connect()]);
    subscriber = { role: 'subscriber', sourceUrl: global.url, subscription: SUB };
  }, 60_000);

  afterAll(async () => {
    await Promise.all([g?.end(), r?.end()]);
    // The subscriber first: its workers hold connections to the publisher.
    await regional?.stop();
    await global?.stop();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  /** Polls the regional database until `sql` returns what `done` accepts; resolves the wait in ms. */
  async function regionalSees(
    sql: string,
    params: unknown[],
    done: (rows: Record<string, unknown>[]) => boolean,
  ): Promise<number> {
    const started = Date.now();
    for (;;) {
      const { rows } = await r.query(sql, params);
      if (done(rows)) return Date.now() - started;
      if (Date.now() - started > 15_000)
        throw new Error(`regional database never showed the change: ${sql} -> ${JSON.stringify(rows)}`);
      await new Promise((res) => setTimeout(res, 50));
    }
  }

  async function tenant(c: Client, region = 'AU-NSW'): Promise<string> {
    const { rows } = await c.query(
      `INSERT INTO tenants (name, customer_id, govt_id, region_id, licences) VALUES ('School', $1, 'G-1', $2, '{data-operations}') RETURNING id`,
      [Math.floor(Math.random() * 1e9), region],
    );
    return rows[0].id;
  }

  async function app(c: Client): Promise<string> {
    const { rows } = await c.query(
      `INSERT INTO apps (name, owner_type, owner_id, auth_type, client_id, client_secret_hash) VALUES ('App', 'developer', $1, 'oauth2', $2, 'hash') RETURNING id`,
      [randomUUID(), `client-${randomUUID()}`],
    );
    return rows[0].id;
  }

  it('refuses to publish from a server without wal_level=logical, naming the setting', async () => {
    await expect(configureReplication(regional.url, { role: 'publisher' })).rejects.toThrow(
      /wal_level is "replica".*wal_level = logical/,
    );
    expect((await r.query('SELECT 1 FROM pg_publication')).rowCount).toBe(0);
  });

  it('refuses to subscribe before the global database publishes, changing nothing on either side', async () => {
    await expect(configureReplication(regional.url, subscriber)).rejects.toThrow(
      /no publication edu_identity_reference.*REPLICATION_ROLE=publisher/,
    );
    expect((await r.query('SELECT count(*)::int AS n FROM regions')).rows[0].n).toBe(2);
    expect((await r.query('SELECT 1 FROM pg_subscription')).rowCount).toBe(0);
    expect((await g.query('SELECT 1 FROM pg_replication_slots')).rowCount).toBe(0);
  });

  it('publishes the reference tables once (a second run changes nothing), without TRUNCATE and with webhook keys only', async () => {
    const first = await configureReplication(global.url, { role: 'publisher' });
    expect(first).toEqual([
      expect.stringContaining('signing_keys: replica identity FULL'),
      expect.stringContaining(`publication ${IDENTITY_PUBLICATION} created`),
    ]);
    expect(await configureReplication(global.url, { role: 'publisher' })).toEqual([]);
    const { rows } = await g.query(
      'SELECT tablename, rowfilter FROM pg_publication_tables WHERE pubname = $1 ORDER BY tablename',
      [IDENTITY_PUBLICATION],
    );
    expect(rows).toEqual([
      { tablename: 'apps', rowfilter: null },
      { tablename: 'deployment_sharing', rowfilter: null },
      { tablename: 'regions', rowfilter: null },
      { tablename: 'sharing_versions', rowfilter: null },
      { tablename: 'signing_keys', rowfilter: "(use = 'webhook'::text)" },
      { tablename: 'tenant_app_deployments', rowfilter: null },
      { tablename: 'tenants', rowfilter: null },
    ]);
    const pub = await g.query(
      'SELECT pubinsert, pubupdate, pubdelete, pubtruncate FROM pg_publication WHERE pubname = $1',
      [IDENTITY_PUBLICATION],
    );
    expect(pub.rows[0]).toEqual({ pubinsert: true, pubupdate: true, pubdelete: true, pubtruncate: false });
  });

  it('refuses to subscribe the global database to itself', async () => {
    await expect(
      configureReplication(global.url, {
        role: 'subscriber',
        sourceUrl: regional.url,
        subscription: 'edu_identity_wrong',
      }),
    ).rejects.toBeInstanceOf(ReplicationSetupError);
  });

  it('subscribes the regional database: the initial copy replaces the seeded regions, then inserts, updates and deletes follow within seconds', async () => {
    const early = await tenant(g);
    await g.query(
      `INSERT INTO signing_keys (kid, use, alg, public_jwk, private_jwk_encrypted) VALUES ('wh-1', 'webhook', 'ES256', '{}', 'enc-wh'), ('at-1', 'access-token', 'ES256', '{}', 'enc-at')`,
    );
    const changes = await configureReplication(regional.url, subscriber);
    expect(changes).toEqual([
      expect.stringContaining('regions: 2 local row(s) removed before the initial copy'),
      expect.stringContaining(`subscription ${SUB} created`),
    ]);
    expect(await configureReplication(regional.url, subscriber)).toEqual([]);

    await regionalSees(
      'SELECT srsubstate FROM pg_subscription_rel',
      [],
      (rows) => rows.length === REPLICATED_TABLES.length && rows.every((x) => x.srsubstate === 'r'),
    );
    expect((await r.query('SELECT id FROM regions ORDER BY id')).rows).toEqual([{ id: 'AU-NSW' }, { id: 'SG' }]);
    expect((await r.query('SELECT id FROM tenants')).rows).toEqual([{ id: early }]);
    // Only the webhook key: a regional database cannot be used to mint access tokens.
    expect((await r.query('SELECT kid FROM signing_keys')).rows).toEqual([{ kid: 'wh-1' }]);

    const t = await tenant(g);
    const a = await app(g);
    await g.query(
      `INSERT INTO tenant_app_deployments (tenant_id, app_id, scope, settings) VALUES ($1, $2, '{s1}', '{"onerosterBooleans":"json"}')`,
      [t, a],
    );
    const lag = await regionalSees(
      'SELECT scope, settings FROM tenant_app_deployments WHERE tenant_id = $1',
      [t],
      (rows) => rows.length === 1,
    );
    expect(lag).toBeLessThan(5_000);
    await g.query(`UPDATE tenants SET licences = '{}' WHERE id = $1`, [t]);
    await g.query(`UPDATE signing_keys SET status = 'retired', publish_until = now() WHERE kid IN ('wh-1', 'at-1')`);
    await regionalSees(
      'SELECT licences FROM tenants WHERE id = $1',
      [t],
      (rows) => (rows[0]?.licences as string[])?.length === 0,
    );
    await regionalSees(
      `SELECT status FROM signing_keys WHERE kid = 'wh-1'`,
      [],
      (rows) => rows[0]?.status === 'retired',
    );
    await g.query('DELETE FROM tenants WHERE id = $1', [early]);
    await regionalSees('SELECT 1 FROM tenants WHERE id = $1', [early], (rows) => rows.length === 0);

    const status = await replicationStatus(regional.url);
    expect(status.subscriptions).toEqual([
      expect.objectContaining({
        name: SUB,
        enabled: true,
        workerRunning: true,
        applyErrors: 0,
        syncErrors: 0,
        tables: {
          apps: 'ready',
          deployment_sharing: 'ready',
          regions: 'ready',
          sharing_versions: 'ready',
          signing_keys: 'ready',
          tenant_app_deployments: 'ready',
          tenants: 'ready',
        },
      }),
    ]);
    const published = await replicationStatus(global.url);
    expect(published.slots).toEqual([expect.objectContaining({ slot: SUB, active: true })]);
  });

  it('keeps regional rows when their tenant or app is deleted by replication; the cleanup removes exactly those', async () => {
    const [gone, kept] = [await tenant(g), await tenant(g)];
    const [goneApp, keptApp] = [await app(g), await app(g)];
    await regionalSees(
      'SELECT count(*)::int AS n FROM apps WHERE id = ANY($1::uuid[])',
      [[goneApp, keptApp]],
      (rows) => rows[0].n === 2,
    );
    await regionalSees(
      'SELECT count(*)::int AS n FROM tenants WHERE id = ANY($1::uuid[])',
      [[gone, kept]],
      (rows) => rows[0].n === 2,
    );
    for (const t of [gone, kept]) {
      await r.query(
        `INSERT INTO roster_orgs (tenant_id, sourced_id, status, date_last_modified, ordinal, name, type) VALUES ($1, 'org-1', 'active', now(), 0, 'School', 'school')`,
        [t],
      );
      await r.query(`INSERT INTO roster_data_versions (tenant_id, version, imported_at) VALUES ($1, 1, now())`, [t]);
      await r.query(
        `INSERT INTO gradebook_categories (tenant_id, sourced_id, status, date_last_modified, title) VALUES ($1, 'cat-1', 'active', now(), 'Homework')`,
        [t],
      );
      await r.query(
        `INSERT INTO alert_messages (id, tenant_id, transaction_id, recipient, alerts, alert_count) VALUES ($1, $2, 'tx-1', '{}', '[]', 0)`,
        [randomUUID(), t],
      );
    }
    const hooks: Record<string, string> = {};
    for (const a of [goneApp, keptApp]) {
      hooks[a] = (
        await r.query(
          `INSERT INTO webhooks (app_id, endpoint, type) VALUES ($1, 'https://hooks.example/a', 'full-payload') RETURNING id`,
          [a],
        )
      ).rows[0].id;
      await r.query(
        `INSERT INTO webhook_deliveries (id, tenant_id, app_id, webhook_id, kind, trigger, status) VALUES ($1, $2, $3, $4, 'full-payload', 'test', 'pending')`,
        [randomUUID(), kept, a, hooks[a]],
      );
    }

    // Replicated deletes: nothing regional references them by foreign key, so nothing fails or cascades.
    await g.query('DELETE FROM tenants WHERE id = $1', [gone]);
    await g.query('DELETE FROM apps WHERE id = $1', [goneApp]);
    await regionalSees(
      'SELECT (SELECT count(*) FROM tenants WHERE id = $1)::int + (SELECT count(*) FROM apps WHERE id = $2)::int AS n',
      [gone, goneApp],
      (rows) => rows[0].n === 0,
    );
    expect((await r.query('SELECT count(*)::int AS n FROM roster_orgs WHERE tenant_id = $1', [gone])).rows[0].n).toBe(
      1,
    );

    const dry = await cleanupOrphans(regional.url, { dryRun: true });
    expect(dry).toMatchObject({
      ran: true,
      tenants: [gone],
      apps: [goneApp],
      removed: {
        roster_orgs: 1,
        roster_data_versions: 1,
        gradebook_categories: 1,
        alert_messages: 1,
        webhooks: 1,
        // The change feed's record of those two rows.
        roster_events: 2,
        roster_event_batches: 2,
        roster_event_heads: 1,
      },
    });
    expect((await r.query('SELECT count(*)::int AS n FROM webhooks')).rows[0].n).toBe(2);

    const done = await cleanupOrphans(regional.url);
    expect(done).toEqual({
      ran: true,
      tenants: [gone],
      apps: [goneApp],
      cancelledDeliveries: 1,
      removed: {
        roster_orgs: 1,
        roster_data_versions: 1,
        gradebook_categories: 1,
        alert_messages: 1,
        webhooks: 1,
        // The change feed's record of those two rows.
        roster_events: 2,
        roster_event_batches: 2,
        roster_event_heads: 1,
      },
    });
    for (const table of ['roster_orgs', 'roster_data_versions', 'gradebook_categories', 'alert_messages']) {
      const { rows } = await r.query(`SELECT tenant_id::text FROM ${table} ORDER BY 1`);
      expect({ table, rows }).toEqual({ table, rows: [{ tenant_id: kept }] });
    }
    expect((await r.query('SELECT app_id::text FROM webhooks')).rows).toEqual([{ app_id: keptApp }]);
    const deliveries = await r.query('SELECT webhook_id::text, status FROM webhook_deliveries ORDER BY status');
    expect(deliveries.rows).toEqual([
      { webhook_id: hooks[goneApp], status: 'cancelled' },
      { webhook_id: hooks[keptApp], status: 'pending' },
    ]);
    expect(await cleanupOrphans(regional.url)).toEqual({
      ran: true,
      tenants: [],
      apps: [],
      cancelledDeliveries: 0,
      removed: {},
    });
  });

  it('refuses to clean up while the subscription is disabled (a missing row may not have arrived yet)', async () => {
    await r.query(`ALTER SUBSCRIPTION ${SUB} DISABLE`);
    try {
      await expect(cleanupOrphans(regional.url)).rejects.toThrow(OrphanCleanupRefused);
      await expect(cleanupOrphans(regional.url)).rejects.toThrow(/disabled/);
    } finally {
      // The next run puts it back: the setup is declarative.
      expect(await configureReplication(regional.url, subscriber)).toEqual([`subscription ${SUB} enabled`]);
    }
  });

  it('follows a changed REPLICATION_SOURCE_URL on the next run, and keeps replicating', async () => {
    const moved: ReplicationConfig = {
      role: 'subscriber',
      sourceUrl: `${global.url}?application_name=edu_identity_moved`,
      subscription: SUB,
    };
    expect(await configureReplication(regional.url, moved)).toEqual([`subscription ${SUB} connection updated`]);
    expect(await configureReplication(regional.url, moved)).toEqual([]);
    const t = await tenant(g, 'SG');
    await regionalSees('SELECT region_id FROM tenants WHERE id = $1', [t], (rows) => rows[0]?.region_id === 'SG');
    expect(await configureReplication(regional.url, subscriber)).toEqual([`subscription ${SUB} connection updated`]);
  });

  it('copies a table added to the publication later, on the next run of both sides', async () => {
    await g.query(`ALTER PUBLICATION ${IDENTITY_PUBLICATION} DROP TABLE signing_keys`);
    await r.query(`ALTER SUBSCRIPTION ${SUB} REFRESH PUBLICATION`);
    await g.query(
      `INSERT INTO signing_keys (kid, use, alg, public_jwk, private_jwk_encrypted) VALUES ('wh-2', 'webhook', 'ES256', '{}', 'enc-wh2')`,
    );
    await r.query(
      `INSERT INTO signing_keys (kid, use, alg, public_jwk, private_jwk_encrypted) VALUES ('wh-local', 'webhook', 'ES256', '{}', 'made-here')`,
    );

    expect(await configureReplication(global.url, { role: 'publisher' })).toEqual([
      expect.stringContaining('tables set to'),
    ]);
    const changes = await configureReplication(regional.url, subscriber);
    expect(changes).toEqual([
      expect.stringMatching(/^signing_keys: 2 local row\(s\) removed/),
      `subscription ${SUB} refreshed: copying signing_keys`,
    ]);
    await regionalSees(
      'SELECT kid FROM signing_keys ORDER BY kid',
      [],
      (rows) => rows.map((x) => x.kid).join() === 'wh-1,wh-2',
    );
  });
});
