/**
 * Bulk replay of undeliverable deliveries (see replay-cli.ts): for every delivery that became
 * undeliverable in a time window (optionally of one webhook, app or tenant), a redelivery of its
 * message to its webhook, exactly as `POST /v2/alerts/webhook/:id/deliveries/:deliveryId/redeliver`
 * makes one: a new delivery (new `jti`, a schedule of its own) with `trigger = redeliver` and
 * `redelivery_of` naming the original. They are stored unqueued; the webhook dispatcher's outbox
 * relay queues them within seconds, so the command needs PostgreSQL only. A delivery whose message
 * the app's data sharing no longer shares is skipped, as the redeliver endpoint refuses it.
 */
import { BaseEnv, parseCommandLine } from '@edu/config';
import { isUuid } from '@edu/domain';
import {
  databaseCommandConfig,
  planReplay,
  replayUndeliverable,
  withCommandDatabase,
  type CliOutput,
  type ReplayFilter,
} from '@edu/persistence';
import { notSharedNow } from '../sharing/replay-sharing';

export type { CliOutput } from '@edu/persistence';

export const REPLAY_USAGE =
  'usage: npm run alerts:replay -- --since <time|duration> [--until <time|duration>] [--webhook <id>] [--app <id>] [--tenant <id>] [--dry-run]';

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

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
    if (!at)
      return `--${flag} must be an ISO 8601 time (2025-03-01T02:00:00Z) or a duration before now (6h, 2d) (got ${JSON.stringify(value)})`;
    times[flag] = at;
  }
  const ids: Partial<Record<'webhookId' | 'appId' | 'tenantId', string>> = {};
  for (const [flag, key] of [
    ['webhook', 'webhookId'],
    ['app', 'appId'],
    ['tenant', 'tenantId'],
  ] as const) {
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
    const notShared = await notSharedNow(ds, filter);
    const plan = await planReplay(ds, filter, notShared);
    out.log(`Deliveries ${describeWindow(filter)}: ${plan.total} to replay.`);
    for (const g of plan.groups)
      out.log(
        `  ${String(g.deliveries).padStart(6)}  webhook ${g.webhook_id}  app ${g.app_id}  tenant ${g.tenant_id}  ${g.endpoint}`,
      );
    if (plan.alreadyReplayed)
      out.log(`  skipped: ${plan.alreadyReplayed} already redelivered (by an earlier replay or by the partner)`);
    if (plan.webhookDeleted) out.log(`  skipped: ${plan.webhookDeleted} whose webhook has been deleted`);
    if (plan.notShared) out.log(`  skipped: ${plan.notShared} about a person the app's data sharing no longer shares`);
    if (plan.payloadPurged)
      out.log(
        `  skipped: ${plan.payloadPurged} whose message's payload was purged (the tenant's retention): nothing to send`,
      );
    if (dryRun) {
      out.log('Dry run: nothing written.');
      return 0;
    }
    if (plan.total === 0) return 0;
    const created = await replayUndeliverable(ds, filter, notShared);
    out.log(
      `Created ${created} redeliveries (trigger "redeliver"); the webhook dispatcher queues them within a few seconds.`,
    );
    return 0;
  });
}
