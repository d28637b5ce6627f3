import { Client } from 'pg';
import { cancelOpenDeliveriesSql } from './deliveries/delivery-sql';

/**
 * Regional data keyed by a tenant. None of these tables has a foreign key to `tenants` (in a
 * regional database that table is a replica, see replication.ts), so rows of a deleted tenant stay
 * until this cleanup removes them. Every table has an index whose first column is `tenant_id`.
 * Deleting an alert message also deletes its deliveries, their attempts and its fetch records.
 */
export const TENANT_DATA_TABLES: readonly string[] = [
  'roster_orgs',
  'roster_academic_sessions',
  'roster_courses',
  'roster_classes',
  'roster_users',
  'roster_enrollments',
  'roster_demographics',
  'roster_data_versions',
  'roster_imports',
  'roster_resources',
  'roster_course_resources',
  'roster_class_resources',
  'roster_user_roles',
  'roster_user_profiles',
  'roster_user_resources',
  'gradebook_categories',
  'gradebook_line_items',
  'gradebook_results',
  'gradebook_score_scales',
  'gradebook_assessment_line_items',
  'gradebook_assessment_results',
  'gradebook_line_item_score_scales',
  'gradebook_result_score_scales',
  'gradebook_line_item_learning_objectives',
  'gradebook_result_learning_objectives',
  'gradebook_data_versions',
  'alert_messages',
  // A tenant's delivery settings (payload retention), and its apps' delivery-portal sessions.
  'tenant_delivery_settings',
  'alert_portal_sessions',
  // Computed visibility of sharing specs (their shared_objects and shared_user_rows go with them).
  'sharing_scopes',
  // The roster change feed's log (its batches and heads go with it).
  'roster_events',
  'roster_event_batches',
  'roster_event_heads',
  // Where roster-events webhooks stand in the feed of the tenant's deployments.
  'roster_event_streams',
  // Roster sources and syncs (a held sync's files before their sync, which they reference).
  'roster_sync_packages',
  'roster_syncs',
  'roster_sources',
  'roster_sync_settings',
];

/** Rows removed per statement, so no statement runs long or holds many locks. */
const BATCH = 5_000;
const CLEANUP_LOCK_ID = 7_310_045;

export interface OrphanCleanupOptions {
  /** Count what would be removed, remove nothing. */
  dryRun?: boolean;
  /** Run even though `tenants` is empty (every tenant-keyed row is then an orphan). */
  force?: boolean;
}

export interface OrphanCleanupReport {
  /** Per table: rows removed (or that would be, in a dry run). */
  removed: Record<string, number>;
  /** Tenants that no longer exist but still had rows. */
  tenants: string[];
  /** Apps that no longer exist but still had webhooks. */
  apps: string[];
  /** Open deliveries of the removed webhooks, now cancelled (never sent). */
  cancelledDeliveries: number;
  /** False when another cleanup held the lock (nothing was done). */
  ran: boolean;
}

export class OrphanCleanupRefused extends Error {}

/**
 * Removes regional rows whose tenant or app no longer exists: tenant-keyed data (rostering,
 * resources, gradebook, alert messages) and webhooks of deleted apps (their open deliveries are
 * cancelled, as when the app deletes a webhook). Refuses on a subscriber whose copy is incomplete:
 * a row not yet replicated is indistinguishable from a deleted one.
 */
export async function cleanupOrphans(databaseUrl: string, o: OrphanCleanupOptions = {}): Promise<OrphanCleanupReport> {
  const c = new Client({ connectionString: databaseUrl, application_name: 'edu-cleanup-orphans' });
  await c.connect();
  const report: OrphanCleanupReport = { removed: {}, tenants: [], apps: [], cancelledDeliveries: 0, ran: false };
  try {
    const locked = await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [CLEANUP_LOCK_ID]);
    if (!locked.rows[0].ok) return report;
    try {
      await assertCompleteCopy(c, o.force === true);
      report.ran = true;
      const gone = new Set<string>();
      for (const table of TENANT_DATA_TABLES) {
        let removed = 0;
        for (const tenantId of await orphanTenants(c, table)) {
          gone.add(tenantId);
          removed += o.dryRun ? await countRows(c, table, tenantId) : await deleteRows(c, table, tenantId);
        }
        if (removed > 0) report.removed[table] = removed;
      }
      report.tenants = [...gone].sort();
      await cleanupWebhooks(c, o.dryRun === true, report);
    } finally {
      await c.query('SELECT pg_advisory_unlock($1)', [CLEANUP_LOCK_ID]);
    }
    return report;
  } finally {
    await c.end();
  }
}

async function assertCompleteCopy(c: Client, force: boolean): Promise<void> {
  const subs = await c.query<{ subname: string; subenabled: boolean; pending: string[] }>(
    `SELECT s.subname, s.subenabled,
            coalesce(array_agg(r.srrelid::regclass::text) FILTER (WHERE r.srsubstate <> 'r'), '{}') AS pending
       FROM pg_subscription s
       LEFT JOIN pg_subscription_rel r ON r.srsubid = s.oid
      WHERE s.subdbid = (SELECT oid FROM pg_database WHERE datname = current_database())
      GROUP BY s.subname, s.subenabled`,
  );
  for (const s of subs.rows) {
    if (!s.subenabled)
      throw new OrphanCleanupRefused(
        `the subscription ${s.subname} is disabled: the replicated identity data may be stale`,
      );
    if (s.pending.length > 0)
      throw new OrphanCleanupRefused(
        `the subscription ${s.subname} has not finished the initial copy of ${s.pending.join(', ')}`,
      );
  }
  if (!force) {
    const any = await c.query<{ found: boolean }>('SELECT EXISTS (SELECT 1 FROM tenants) AS found');
    if (!any.rows[0].found)
      throw new OrphanCleanupRefused(
        'the tenants table is empty, so every tenant-keyed row would go: run with --force if that is intended',
      );
  }
}

/** Distinct tenant ids of `table` that no longer exist, by skipping along its tenant_id index. */
async function orphanTenants(c: Client, table: string): Promise<string[]> {
  const { rows } = await c.query<{ tenant_id: string }>(
    `WITH RECURSIVE ids AS (
       (SELECT tenant_id FROM ${table} ORDER BY tenant_id LIMIT 1)
       UNION ALL
       SELECT (SELECT t.tenant_id FROM ${table} t WHERE t.tenant_id > ids.tenant_id ORDER BY t.tenant_id LIMIT 1)
         FROM ids WHERE ids.tenant_id IS NOT NULL
     )
     SELECT ids.tenant_id::text FROM ids
      WHERE ids.tenant_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM tenants WHERE tenants.id = ids.tenant_id)`,
  );
  return rows.map((r) => r.tenant_id);
}

async function countRows(c: Client, table: string, tenantId: string): Promise<number> {
  const { rows } = await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE tenant_id = $1`, [
    tenantId,
  ]);
  return rows[0].n;
}

/** Deletes the tenant's rows in batches, each re-checking that the tenant is still absent. */
async function deleteRows(c: Client, table: string, tenantId: string): Promise<number> {
  let total = 0;
  for (;;) {
    const res = await c.query(
      `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(
         SELECT ctid FROM ${table}
          WHERE tenant_id = $1 AND NOT EXISTS (SELECT 1 FROM tenants WHERE id = $1)
          LIMIT ${BATCH}))`,
      [tenantId],
    );
    total += res.rowCount ?? 0;
    if ((res.rowCount ?? 0) < BATCH) return total;
  }
}

async function cleanupWebhooks(c: Client, dryRun: boolean, report: OrphanCleanupReport): Promise<void> {
  if (dryRun) {
    const { rows } = await c.query<{ app_id: string; n: number }>(
      `SELECT w.app_id::text, count(*)::int AS n FROM webhooks w
        WHERE NOT EXISTS (SELECT 1 FROM apps a WHERE a.id = w.app_id) GROUP BY w.app_id ORDER BY w.app_id`,
    );
    const n = rows.reduce((sum, r) => sum + r.n, 0);
    if (n > 0) report.removed.webhooks = n;
    report.apps = rows.map((r) => r.app_id);
    return;
  }
  const { rows } = await c.query<{ webhooks: number; deliveries: number; apps: string[] }>(
    `WITH gone AS (
       DELETE FROM webhooks w WHERE NOT EXISTS (SELECT 1 FROM apps a WHERE a.id = w.app_id) RETURNING w.id, w.app_id
     ), cancelled AS (
       ${cancelOpenDeliveriesSql('d.webhook_id IN (SELECT id FROM gone)')}
     )
     SELECT (SELECT count(*)::int FROM gone) AS webhooks, (SELECT count(*)::int FROM cancelled) AS deliveries,
            (SELECT coalesce(array_agg(DISTINCT app_id::text), '{}') FROM gone) AS apps`,
  );
  if (rows[0].webhooks > 0) report.removed.webhooks = rows[0].webhooks;
  report.cancelledDeliveries = rows[0].deliveries;
  report.apps = [...rows[0].apps].sort();
}
