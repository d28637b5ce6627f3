import { Client } from 'pg';
import { inTransaction } from './database-pool';

/**
 * Identity reference data reaches each regional database by PostgreSQL logical replication: one
 * publication in the global database, one subscription in each regional database. Everything
 * about it is declared here and applied idempotently by `npm run db:migrate` (after the
 * migrations) or `npm run db:replication`, from REPLICATION_* configuration. See README.md.
 */

/** The publication in the global database. */
export const IDENTITY_PUBLICATION = 'edu_identity_reference';

export interface ReplicatedTable {
  table: string;
  /** Row filter, written as PostgreSQL prints it back (pg_publication_tables.rowfilter). */
  rowFilter?: string;
}

/**
 * What regional services read: regions, tenants with licences, apps, deployments with scopes and
 * settings, and the webhook signing keys (the dispatcher signs with the key the identity service
 * publishes in the global JWKS). The access-token keys stay global: a regional database cannot be
 * used to mint access tokens. Every table has a primary key (replica identity) and uuid or text
 * keys: no sequence value has to agree between databases.
 */
export const REPLICATED_TABLES: readonly ReplicatedTable[] = [
  { table: 'regions' },
  { table: 'tenants' },
  { table: 'apps' },
  { table: 'tenant_app_deployments' },
  // What each deployment may see (data sharing) and the tenant's sharing version, read on every rostering request.
  { table: 'deployment_sharing' },
  { table: 'sharing_versions' },
  // A row filter on UPDATE/DELETE may only use replica-identity columns: signing_keys uses FULL.
  { table: 'signing_keys', rowFilter: "(use = 'webhook'::text)" },
];

/**
 * Identity tables no regional service reads; they stay in the global database (their regional
 * copies stay empty). A subscriber refuses to start on a database where any of them holds rows.
 */
export const GLOBAL_ONLY_TABLES: readonly string[] = [
  'developers',
  'users',
  'tenant_users',
  'identity_providers',
  'constituencies',
  'vanity_domains',
  // Sign-in state of the OpenID Connect provider (apps/identity/src/sign-in): expiring rows only identity reads.
  'oidc_payloads',
  'sign_in_grants',
  // The sign-in log (tenants read it through the identity API).
  'sign_in_events',
  // The audit trail of sharing changes (tenants read it through the identity API).
  'audit_events',
];

/** Replicated operations. TRUNCATE is not: a regional `tenants` is referenced by global-only tables. */
const PUBLISH = 'insert, update, delete';

/** Serialises replication setup runs against one database (migration runners use 7_310_042). */
const REPLICATION_LOCK_ID = 7_310_044;

export type ReplicationConfig =
  | { role: 'none' }
  | { role: 'publisher' }
  | {
      role: 'subscriber';
      /** Connection string the regional PostgreSQL server uses to reach the global database. */
      sourceUrl: string;
      /** Subscription name, also the replication slot's name on the publisher: unique per region. */
      subscription: string;
    };

export class ReplicationConfigError extends Error {}
export class ReplicationSetupError extends Error {}

const NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** Default subscription name for a region: `AU-NSW` → `edu_identity_au_nsw`. */
export function subscriptionNameFor(region: string): string {
  return `edu_identity_${region
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')}`;
}

/**
 * Reads REPLICATION_ROLE (`publisher` | `subscriber`, unset = no replication), and for a
 * subscriber REPLICATION_SOURCE_URL plus REPLICATION_SUBSCRIPTION (default derived from
 * SERVICE_REGION). Throws ReplicationConfigError naming every problem.
 */
export function replicationConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ReplicationConfig {
  const role = env.REPLICATION_ROLE?.trim() ?? '';
  const problems: string[] = [];
  if (role === '' || role === 'none') {
    if (env.REPLICATION_SOURCE_URL)
      problems.push('REPLICATION_SOURCE_URL is set but REPLICATION_ROLE is not "subscriber"');
  } else if (role === 'publisher') {
    if (env.REPLICATION_SOURCE_URL)
      problems.push('REPLICATION_SOURCE_URL is for REPLICATION_ROLE=subscriber; the publisher needs none');
  } else if (role === 'subscriber') {
    const sourceUrl = env.REPLICATION_SOURCE_URL ?? '';
    if (!sourceUrl)
      problems.push(
        'REPLICATION_SOURCE_URL is required for REPLICATION_ROLE=subscriber (the global database, as the regional PostgreSQL server reaches it)',
      );
    else if (!/^postgres(ql)?:\/\/[^/]/.test(sourceUrl))
      problems.push('REPLICATION_SOURCE_URL must be a postgres:// URL');
    const subscription =
      env.REPLICATION_SUBSCRIPTION || (env.SERVICE_REGION ? subscriptionNameFor(env.SERVICE_REGION) : '');
    if (!subscription)
      problems.push(
        'REPLICATION_SUBSCRIPTION (or SERVICE_REGION to derive it) is required for REPLICATION_ROLE=subscriber',
      );
    else if (!NAME.test(subscription))
      problems.push(
        `REPLICATION_SUBSCRIPTION "${subscription}" must match ${NAME} (it is also the replication slot's name)`,
      );
    if (problems.length === 0) return { role: 'subscriber', sourceUrl, subscription };
  } else {
    problems.push(`REPLICATION_ROLE must be "publisher", "subscriber" or unset, not "${role}"`);
  }
  if (problems.length > 0) throw new ReplicationConfigError(problems.join('; '));
  return role === 'publisher' ? { role: 'publisher' } : { role: 'none' };
}

/**
 * Creates or updates this database's side of the replication; returns what it changed (empty
 * when everything was already in place). Run it after the migrations: the subscriber's tables
 * must exist before the initial copy.
 */
export async function configureReplication(databaseUrl: string, config: ReplicationConfig): Promise<string[]> {
  if (config.role === 'none') return [];
  const c = new Client({ connectionString: databaseUrl, application_name: 'edu-replication' });
  await c.connect();
  try {
    await c.query('SELECT pg_advisory_lock($1)', [REPLICATION_LOCK_ID]);
    try {
      return config.role === 'publisher'
        ? await ensurePublication(c)
        : await ensureSubscription(c, config.sourceUrl, config.subscription);
    } finally {
      await c.query('SELECT pg_advisory_unlock($1)', [REPLICATION_LOCK_ID]);
    }
  } finally {
    await c.end();
  }
}

async function setting(c: Client, name: string): Promise<string> {
  const { rows } = await c.query<{ setting: string }>('SELECT setting FROM pg_settings WHERE name = $1', [name]);
  return rows[0]?.setting ?? '';
}

async function ensurePublication(c: Client): Promise<string[]> {
  const walLevel = await setting(c, 'wal_level');
  if (walLevel !== 'logical') {
    throw new ReplicationSetupError(
      `wal_level is "${walLevel}" on the global database server: set wal_level = logical (with max_replication_slots and max_wal_senders above the number of regions) and restart PostgreSQL`,
    );
  }
  for (const name of ['max_replication_slots', 'max_wal_senders']) {
    if (Number(await setting(c, name)) < 1)
      throw new ReplicationSetupError(
        `${name} is 0 on the global database server: raise it above the number of regions and restart PostgreSQL`,
      );
  }
  const changes: string[] = [];
  await inTransaction(c, async () => {
    const ident = await c.query<{ relreplident: string }>(
      `SELECT relreplident FROM pg_class WHERE oid = 'signing_keys'::regclass`,
    );
    if (ident.rows[0]?.relreplident !== 'f') {
      await c.query('ALTER TABLE signing_keys REPLICA IDENTITY FULL');
      changes.push('signing_keys: replica identity FULL (the publication filters its rows on "use")');
    }
    const tableList = REPLICATED_TABLES.map((t) => (t.rowFilter ? `${t.table} WHERE ${t.rowFilter}` : t.table)).join(
      ', ',
    );
    const pub = await c.query<{ pubinsert: boolean; pubupdate: boolean; pubdelete: boolean; pubtruncate: boolean }>(
      'SELECT pubinsert, pubupdate, pubdelete, pubtruncate FROM pg_publication WHERE pubname = $1',
      [IDENTITY_PUBLICATION],
    );
    if (pub.rowCount === 0) {
      await c.query(`CREATE PUBLICATION ${IDENTITY_PUBLICATION} FOR TABLE ${tableList} WITH (publish = '${PUBLISH}')`);
      changes.push(`publication ${IDENTITY_PUBLICATION} created: ${REPLICATED_TABLES.map((t) => t.table).join(', ')}`);
    } else {
      const { rows } = await c.query<{ tablename: string; rowfilter: string | null }>(
        'SELECT tablename, rowfilter FROM pg_publication_tables WHERE pubname = $1 AND schemaname = current_schema()',
        [IDENTITY_PUBLICATION],
      );
      const have = new Map(rows.map((r) => [r.tablename, r.rowfilter ?? undefined]));
      const same =
        have.size === REPLICATED_TABLES.length &&
        REPLICATED_TABLES.every((t) => have.has(t.table) && have.get(t.table) === t.rowFilter);
      if (!same) {
        await c.query(`ALTER PUBLICATION ${IDENTITY_PUBLICATION} SET TABLE ${tableList}`);
        changes.push(
          `publication ${IDENTITY_PUBLICATION} tables set to: ${REPLICATED_TABLES.map((t) => t.table).join(', ')}`,
        );
      }
      const p = pub.rows[0];
      if (!p.pubinsert || !p.pubupdate || !p.pubdelete || p.pubtruncate) {
        await c.query(`ALTER PUBLICATION ${IDENTITY_PUBLICATION} SET (publish = '${PUBLISH}')`);
        changes.push(`publication ${IDENTITY_PUBLICATION} publishes ${PUBLISH}`);
      }
    }
  });
  return changes;
}

interface SubscriptionRow {
  oid: number;
  subenabled: boolean;
  subpublications: string[];
}

async function ensureSubscription(c: Client, sourceUrl: string, name: string): Promise<string[]> {
  const ownPublication = await c.query('SELECT 1 FROM pg_publication WHERE pubname = $1', [IDENTITY_PUBLICATION]);
  if (ownPublication.rowCount) {
    throw new ReplicationSetupError(
      `this database holds the publication ${IDENTITY_PUBLICATION} (it is the global database): REPLICATION_ROLE=subscriber is for a regional database`,
    );
  }
  const existing = await c.query<SubscriptionRow>(
    `SELECT s.oid, s.subenabled, s.subpublications FROM pg_subscription s
      WHERE s.subname = $1 AND s.subdbid = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    [name],
  );
  if (existing.rowCount === 0) return createSubscription(c, sourceUrl, name);

  const sub = existing.rows[0];
  const changes: string[] = [];
  if (sub.subpublications.length !== 1 || sub.subpublications[0] !== IDENTITY_PUBLICATION) {
    await c.query(`ALTER SUBSCRIPTION ${name} SET PUBLICATION ${IDENTITY_PUBLICATION} WITH (refresh = false)`);
    changes.push(`subscription ${name} now subscribes to ${IDENTITY_PUBLICATION}`);
  }
  if ((await currentConninfo(c, sub.oid)) !== sourceUrl) {
    await c.query(`ALTER SUBSCRIPTION ${name} CONNECTION ${c.escapeLiteral(sourceUrl)}`);
    changes.push(`subscription ${name} connection updated`);
  }
  if (!sub.subenabled) {
    await c.query(`ALTER SUBSCRIPTION ${name} ENABLE`);
    changes.push(`subscription ${name} enabled`);
  }
  // Tables added to the publication since the subscription was created: copy them in.
  const rels = await c.query<{ table: string }>(
    'SELECT srrelid::regclass::text AS table FROM pg_subscription_rel WHERE srsubid = $1',
    [sub.oid],
  );
  const subscribed = new Set(rels.rows.map((r) => r.table));
  const missing = REPLICATED_TABLES.map((t) => t.table).filter((t) => !subscribed.has(t));
  if (missing.length > 0) {
    changes.push(...(await emptyReplicaTables(c, missing)));
    await c.query(`ALTER SUBSCRIPTION ${name} REFRESH PUBLICATION WITH (copy_data = true)`);
    changes.push(`subscription ${name} refreshed: copying ${missing.join(', ')}`);
  }
  return changes;
}

/** pg_subscription.subconninfo is readable by superusers only: null when hidden (then it is always re-set). */
async function currentConninfo(c: Client, oid: number): Promise<string | null> {
  try {
    const { rows } = await c.query<{ subconninfo: string }>('SELECT subconninfo FROM pg_subscription WHERE oid = $1', [
      oid,
    ]);
    return rows[0]?.subconninfo ?? null;
  } catch {
    return null;
  }
}

/** Refuses when a global-only identity table holds rows: this is not a regional database. */
async function assertNotGlobal(c: Client): Promise<void> {
  for (const t of GLOBAL_ONLY_TABLES) {
    const { rows } = await c.query<{ found: boolean }>(`SELECT EXISTS (SELECT 1 FROM ${t}) AS found`);
    if (rows[0].found) {
      throw new ReplicationSetupError(
        `${t} has rows here: this looks like the global identity database, and REPLICATION_ROLE=subscriber would replace its data with a copy`,
      );
    }
  }
}

/**
 * Empties local copies before their initial copy (COPY cannot merge into existing rows: the
 * regions seeded by migration would collide), after making sure this is not the global database.
 */
async function emptyReplicaTables(c: Client, tables: string[]): Promise<string[]> {
  await assertNotGlobal(c);
  const changes: string[] = [];
  await inTransaction(c, async () => {
    // Referencing tables first (deployments reference tenants and apps, tenants reference regions).
    for (const t of [...REPLICATED_TABLES]
      .reverse()
      .map((r) => r.table)
      .filter((r) => tables.includes(r))) {
      const res = await c.query(`DELETE FROM ${t}`);
      if (res.rowCount) changes.push(`${t}: ${res.rowCount} local row(s) removed before the initial copy`);
    }
  });
  return changes;
}

async function createSubscription(c: Client, sourceUrl: string, name: string): Promise<string[]> {
  await assertNotGlobal(c);
  const warnings: string[] = [];
  const onNotice = (n: { severity?: string; message?: string }) => {
    if (n.severity === 'WARNING' && n.message) warnings.push(n.message);
  };
  c.on('notice', onNotice);
  try {
    // Not inside a transaction block: it creates the replication slot on the publisher. Created
    // disabled, so nothing local changes unless the publisher is reachable and ready.
    await c.query(
      `CREATE SUBSCRIPTION ${name} CONNECTION ${c.escapeLiteral(sourceUrl)} PUBLICATION ${IDENTITY_PUBLICATION} WITH (copy_data = true, enabled = false)`,
    );
  } catch (err) {
    throw new ReplicationSetupError(
      `cannot create the subscription ${name} to the global database: ${err instanceof Error ? err.message : String(err)}`,
    );
  } finally {
    c.off('notice', onNotice);
  }
  const missingPublication = warnings.find((w) => w.includes('does not exist on the publisher'));
  if (missingPublication) {
    await c.query(`DROP SUBSCRIPTION ${name}`);
    throw new ReplicationSetupError(
      `the global database has no publication ${IDENTITY_PUBLICATION}: run the migrations there with REPLICATION_ROLE=publisher first (${missingPublication})`,
    );
  }
  const changes = await emptyReplicaTables(
    c,
    REPLICATED_TABLES.map((t) => t.table),
  );
  await c.query(`ALTER SUBSCRIPTION ${name} ENABLE`);
  changes.push(
    `subscription ${name} created: initial copy of ${REPLICATED_TABLES.map((t) => t.table).join(', ')} under way`,
  );
  return changes;
}

export interface SubscriptionStatus {
  name: string;
  enabled: boolean;
  /** Apply worker running. */
  workerRunning: boolean;
  /** Per table: `ready`, or the initial copy's state (`init`, `copying`, `synced`, ...). */
  tables: Record<string, string>;
  lastMessageReceivedAt: Date | null;
  /** Seconds since the last message (data or keepalive) from the publisher. */
  secondsSinceLastMessage: number | null;
  applyErrors: number;
  syncErrors: number;
}

export interface SlotStatus {
  slot: string;
  active: boolean;
  /** WAL the publisher keeps for this subscriber (bytes not yet confirmed). */
  lagBytes: number;
  /** Time between a commit here and its apply on the subscriber (recent transactions). */
  replayLagSeconds: number | null;
}

export interface ReplicationStatus {
  publication: { name: string; tables: string[] } | null;
  slots: SlotStatus[];
  subscriptions: SubscriptionStatus[];
}

const SYNC_STATES: Record<string, string> = { i: 'init', d: 'copying', f: 'copied', s: 'synced', r: 'ready' };

/** What this database publishes or subscribes to, with lag figures (`npm run db:replication -- status`). */
export async function replicationStatus(databaseUrl: string): Promise<ReplicationStatus> {
  const c = new Client({ connectionString: databaseUrl, application_name: 'edu-replication-status' });
  await c.connect();
  try {
    const pub = await c.query<{ tablename: string }>(
      'SELECT tablename FROM pg_publication_tables WHERE pubname = $1 ORDER BY tablename',
      [IDENTITY_PUBLICATION],
    );
    const hasPublication =
      (await c.query('SELECT 1 FROM pg_publication WHERE pubname = $1', [IDENTITY_PUBLICATION])).rowCount === 1;
    const slots = hasPublication
      ? (
          await c.query<{ slot_name: string; active: boolean; lag_bytes: string | null; replay_lag: number | null }>(
            `SELECT s.slot_name, s.active,
                    pg_wal_lsn_diff(pg_current_wal_lsn(), s.confirmed_flush_lsn)::bigint AS lag_bytes,
                    extract(epoch FROM r.replay_lag)::float8 AS replay_lag
               FROM pg_replication_slots s
               LEFT JOIN pg_stat_replication r ON r.pid = s.active_pid
              WHERE s.slot_type = 'logical' AND s.database = current_database()
              ORDER BY s.slot_name`,
          )
        ).rows.map((r) => ({
          slot: r.slot_name,
          active: r.active,
          lagBytes: Number(r.lag_bytes ?? 0),
          replayLagSeconds: r.replay_lag,
        }))
      : [];
    const subs = await c.query<{
      oid: number;
      subname: string;
      subenabled: boolean;
      pid: number | null;
      last_msg_receipt_time: Date | null;
      since: number | null;
      apply_error_count: string | null;
      sync_error_count: string | null;
    }>(
      `SELECT s.oid, s.subname, s.subenabled, w.pid, w.last_msg_receipt_time,
              extract(epoch FROM now() - w.last_msg_receipt_time)::float8 AS since,
              st.apply_error_count, st.sync_error_count
         FROM pg_subscription s
         LEFT JOIN LATERAL (
           SELECT x.pid, x.last_msg_receipt_time FROM pg_stat_subscription x
            WHERE x.subid = s.oid AND x.relid IS NULL
            ORDER BY x.last_msg_receipt_time DESC NULLS LAST LIMIT 1
         ) w ON true
         LEFT JOIN pg_stat_subscription_stats st ON st.subid = s.oid
        WHERE s.subdbid = (SELECT oid FROM pg_database WHERE datname = current_database())
        ORDER BY s.subname`,
    );
    const subscriptions: SubscriptionStatus[] = [];
    for (const s of subs.rows) {
      const rels = await c.query<{ table: string; state: string }>(
        'SELECT srrelid::regclass::text AS table, srsubstate AS state FROM pg_subscription_rel WHERE srsubid = $1 ORDER BY 1',
        [s.oid],
      );
      subscriptions.push({
        name: s.subname,
        enabled: s.subenabled,
        workerRunning: s.pid !== null,
        tables: Object.fromEntries(rels.rows.map((r) => [r.table, SYNC_STATES[r.state] ?? r.state])),
        lastMessageReceivedAt: s.last_msg_receipt_time,
        secondsSinceLastMessage: s.since,
        applyErrors: Number(s.apply_error_count ?? 0),
        syncErrors: Number(s.sync_error_count ?? 0),
      });
    }
    return {
      publication: hasPublication ? { name: IDENTITY_PUBLICATION, tables: pub.rows.map((r) => r.tablename) } : null,
      slots,
      subscriptions,
    };
  } finally {
    await c.end();
  }
}
