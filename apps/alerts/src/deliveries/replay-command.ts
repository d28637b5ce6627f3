/**
 * Bulk replay of undeliverable deliveries (see replay-cli.ts): for every delivery that became
 * undeliverable in a time window (optionally of one webhook, app or tenant), a redelivery of its
 * message to its webhook, exactly as `POST /v2/alerts/webhook/:id/deliveries/:deliveryId/redeliver`
 * makes one: a new delivery (new `jti`, a schedule of its own) with `trigger = redeliver` and
 * `redelivery_of` naming the original. They are stored unqueued; the webhook dispatcher's outbox
 * relay queues them within seconds, so the command needs PostgreSQL only.
 */
import type { DataSource } from 'typeorm';
import { BaseEnv, parseCommandLine } from '@edu/config';
import { isUuid } from '@edu/domain';
import { databaseCommandConfig, withCommandDatabase, type CliOutput } from '@edu/persistence';

export type { CliOutput } from '@edu/persistence';

export const REPLAY_USAGE = 'usage: npm run alerts:replay -- --since <time|duration> [--until <time|duration>] [--webhook <id>] [--app <id>] [--tenant <id>] [--dry-run]';

/** One replay at a time per database: two concurrent runs must not both replay a delivery. */
const REPLAY_LOCK_ID = 7_310_077;
const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export interface ReplayFilter {
  since: Date;
  until?: Date;
  webhookId?: string;
  appId?: string;
  tenantId?: string;
}

export interface ReplayGroup {
  webhook_id: string;
  app_id: string;
  tenant_id: string;
  endpoint: string;
  deliveries: number;
}

export interface ReplayPlan {
  groups: ReplayGroup[];
  total: number;
  /** Undeliverable deliveries in the window that already have a redelivery (replayed before, or redelivered by the partner). */
  alreadyReplayed: number;
  /** Undeliverable deliveries in the window whose webhook has been deleted since. */
  webhookDeleted: number;
}

/** An ISO 8601 instant (`2025-03-01T02:00:00Z`, a date alone is midnight UTC) or a duration before now (`6h`, `2d`, `90m`). */
export function parseInstant(text: string, now = Date.now()): Date | undefined {
  const d = /^(\d+)([smhd])$/.exec(text.trim());
  if (d) return new Date(now - Number(d[1]) * UNITS[d[2]]);
  if (!/^\d{4}-\d\d-\d\d([T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?)?$/.test(text.trim())) return undefined;
  const at = new Date(text.trim());
  return Number.isNaN(at.getTime()) ? undefined : at;
}

const OPTIONS = {
  since: { type: 'string' },
  until: { type: 'string' },
  webhook: { type: 'string' },
  app: { type: 'string' },
  tenant: { type: 'string' },
  'dry-run': { type: 'boolean', default: false },
} as const;

function parse(args: string[]): { filter: ReplayFilter; dryRun: boolean } | string {
  const parsed = parseCommandLine({ args, options: OPTIONS });
  if (typeof parsed === 'string') return parsed;
  const { values } = parsed;
  const times: Partial<Record<'since' | 'until', Date>> = {};
  for (const flag of ['since', 'until'] as const) {
    const value = values[flag];
    if (value === undefined) continue;
    const at = parseInstant(value);
    if (!at) return `--${flag} must be an ISO 8601 time (2025-03-01T02:00:00Z) or a duration before now (6h, 2d) (got ${JSON.stringify(value)})`;
    times[flag] = at;
  }
  const ids: Partial<Record<'webhookId' | 'appId' | 'tenantId', string>> = {};
  for (const [flag, key] of [['webhook', 'webhookId'], ['app', 'appId'], ['tenant', 'tenantId']] as const) {
    const value = values[flag];
    if (value === undefined) continue;
    if (!isUuid(value)) return `--${flag} must be a uuid (got ${JSON.stringify(value)})`;
    ids[key] = value.toLowerCase();
  }
  const { since, until } = times;
  if (!since) return '--since is required: replay what became undeliverable after that time';
  if (until && until <= since) return '--until must be later than --since';
  return { filter: { since, until, ...ids }, dryRun: values['dry-run'] };
}

/** The undeliverable deliveries in the window that a replay would redeliver, as SQL conditions on `d` (deliveries) and `$1..$5`. */
const WINDOW = `d.status = 'undeliverable' AND d.message_id IS NOT NULL
  AND d.finished_at >= $1 AND ($2::timestamptz IS NULL OR d.finished_at < $2)
  AND ($3::uuid IS NULL OR d.webhook_id = $3) AND ($4::uuid IS NULL OR d.app_id = $4) AND ($5::uuid IS NULL OR d.tenant_id = $5)`;
const NOT_REPLAYED = `NOT EXISTS (SELECT 1 FROM webhook_deliveries r WHERE r.redelivery_of = d.id)`;

function params(f: ReplayFilter): unknown[] {
  return [f.since, f.until ?? null, f.webhookId ?? null, f.appId ?? null, f.tenantId ?? null];
}

/** What a replay of `filter` would do (read only). */
export async function planReplay(ds: DataSource, filter: ReplayFilter): Promise<ReplayPlan> {
  const groups: ReplayGroup[] = await ds.query(
    `SELECT d.webhook_id, w.app_id, d.tenant_id, w.endpoint, count(*)::int AS deliveries
       FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
      WHERE ${WINDOW} AND ${NOT_REPLAYED}
      GROUP BY d.webhook_id, w.app_id, d.tenant_id, w.endpoint
      ORDER BY count(*) DESC, d.webhook_id, d.tenant_id`,
    params(filter),
  );
  const [skipped] = await ds.query(
    `SELECT count(*) FILTER (WHERE NOT ${NOT_REPLAYED})::int AS replayed,
            count(*) FILTER (WHERE ${NOT_REPLAYED} AND NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id))::int AS deleted
       FROM webhook_deliveries d WHERE ${WINDOW}`,
    params(filter),
  );
  return { groups, total: groups.reduce((n, g) => n + g.deliveries, 0), alreadyReplayed: skipped.replayed, webhookDeleted: skipped.deleted };
}

/** Creates the redeliveries (one transaction, serialised with other replays); returns how many. */
export async function replay(ds: DataSource, filter: ReplayFilter): Promise<number> {
  return ds.transaction(async (em) => {
    await em.query('SELECT pg_advisory_xact_lock($1)', [REPLAY_LOCK_ID]);
    const rows: { id: string }[] = await em.query(
      `INSERT INTO webhook_deliveries (id, tenant_id, app_id, webhook_id, message_id, kind, trigger, redelivery_of, status, due_at)
       SELECT gen_random_uuid(), d.tenant_id, w.app_id, d.webhook_id, d.message_id, w.type, 'redeliver', d.id, 'pending', now()
         FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
        WHERE ${WINDOW} AND ${NOT_REPLAYED}
        ORDER BY d.finished_at, d.id
       RETURNING id`,
      params(filter),
    );
    return rows.length;
  });
}

function describeWindow(f: ReplayFilter): string {
  const parts = [`undeliverable since ${f.since.toISOString()}`];
  if (f.until) parts.push(`until ${f.until.toISOString()}`);
  if (f.webhookId) parts.push(`webhook ${f.webhookId}`);
  if (f.appId) parts.push(`app ${f.appId}`);
  if (f.tenantId) parts.push(`tenant ${f.tenantId}`);
  return parts.join(', ');
}

/** The command as a function (exit code), so tests can run it in-process. */
export async function runReplayCli(args: string[], env: NodeJS.ProcessEnv, out: CliOutput): Promise<number> {
  const parsed = parse(args);
  if (typeof parsed === 'string') {
    out.error(parsed);
    out.error(REPLAY_USAGE);
    return 2;
  }
  const config = databaseCommandConfig(BaseEnv, env);
  if (typeof config === 'string') {
    out.error(config);
    return 2;
  }
  const { filter, dryRun } = parsed;
  return withCommandDatabase(config.DATABASE_URL, 'edu-alerts-replay', async (ds) => {
    const plan = await planReplay(ds, filter);
    out.log(`Deliveries ${describeWindow(filter)}: ${plan.total} to replay.`);
    for (const g of plan.groups) out.log(`  ${String(g.deliveries).padStart(6)}  webhook ${g.webhook_id}  app ${g.app_id}  tenant ${g.tenant_id}  ${g.endpoint}`);
    if (plan.alreadyReplayed) out.log(`  skipped: ${plan.alreadyReplayed} already redelivered (by an earlier replay or by the partner)`);
    if (plan.webhookDeleted) out.log(`  skipped: ${plan.webhookDeleted} whose webhook has been deleted`);
    if (dryRun) {
      out.log('Dry run: nothing written.');
      return 0;
    }
    if (plan.total === 0) return 0;
    const created = await replay(ds, filter);
    out.log(`Created ${created} redeliveries (trigger "redeliver"); the webhook dispatcher queues them within a few seconds.`);
    return 0;
  });
}
