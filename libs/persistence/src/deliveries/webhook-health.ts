import type { EntityManager } from 'typeorm';
import type { WebhookDisabledReason, WebhookEntity } from '../entities';
import type { ColumnsOf } from './columns-of';
import { holdOpenDeliveriesSql } from './delivery-sql';
import type { AttemptOutcome } from './outcome-sql';

/** When a failing webhook is disabled as dead; 0 turns a rule off. */
export interface DisableRules {
  /** Failing continuously (no delivered attempt) for this long (ms). */
  failingForMs: number;
  /** This many of its deliveries in a row became undeliverable. */
  undeliverableInARow: number;
}

/** A webhook an outcome batch disabled, why, and the tenant of a delivery that did it. */
export type DisabledWebhook = ColumnsOf<
  WebhookEntity,
  'id' | 'appId' | 'endpoint' | 'failingSince' | 'consecutiveUndeliverable'
> & {
  disabled_reason: WebhookDisabledReason;
  disabled_at: Date;
  tenant_id: string;
};

/** What one batch says of one webhook's health (test deliveries say nothing). */
interface HealthDelta {
  id: string;
  delivered: boolean;
  firstFailure: Date | null;
  undeliverable: number;
  gone: boolean;
  tenantId: string;
}

function deltas(outcomes: AttemptOutcome[]): HealthDelta[] {
  const by = new Map<string, HealthDelta>();
  for (const o of outcomes) {
    if (!o.affectsHealth) continue;
    const d = by.get(o.webhookId) ?? {
      id: o.webhookId,
      delivered: false,
      firstFailure: null,
      undeliverable: 0,
      gone: false,
      tenantId: o.tenantId,
    };
    if (o.status === 'delivered') d.delivered = true;
    else if (!d.firstFailure || o.startedAt < d.firstFailure) d.firstFailure = o.startedAt;
    if (o.status === 'undeliverable') d.undeliverable++;
    d.gone ||= o.endpointGone;
    by.set(o.webhookId, d);
  }
  // In id order: the rows are locked in that order, so concurrent batches never deadlock.
  return [...by.values()].sort((a, b) => (a.id < b.id ? -1 : 1));
}

/**
 * Keeps each webhook's dead-endpoint clock: a delivered attempt clears it, a failure starts it
 * (`failing_since`) and undeliverable deliveries count up. Healthy webhooks are not written. Then
 * disables the active webhooks that answered 410 Gone or that the rules find dead, and holds their
 * open deliveries. Returns those disabled.
 */
export async function updateWebhookHealth(
  em: EntityManager,
  outcomes: AttemptOutcome[],
  rules: DisableRules,
): Promise<DisabledWebhook[]> {
  const all = deltas(outcomes);
  if (all.length === 0) return [];
  const col = <K extends keyof HealthDelta>(k: K) => all.map((d) => d[k]);
  const params = [col('id'), col('delivered'), col('firstFailure'), col('undeliverable'), col('gone'), col('tenantId')];
  await em.query(
    `WITH h AS (SELECT * FROM unnest($1::uuid[], $2::bool[], $3::timestamptz[], $4::int[], $5::bool[], $6::uuid[])
                  AS h(id, delivered, first_failure, undeliverable, gone, tenant_id)),
          locked AS (SELECT w.id FROM webhooks w JOIN h ON h.id = w.id
                      WHERE w.status = 'active' AND (NOT h.delivered OR w.failing_since IS NOT NULL OR w.consecutive_undeliverable > 0)
                      ORDER BY w.id FOR UPDATE OF w)
     UPDATE webhooks w SET
       failing_since = CASE WHEN h.delivered THEN NULL ELSE COALESCE(w.failing_since, h.first_failure) END,
       consecutive_undeliverable = CASE WHEN h.delivered THEN 0 ELSE w.consecutive_undeliverable + h.undeliverable END
       FROM h JOIN locked l ON l.id = h.id WHERE w.id = h.id`,
    params,
  );
  const disabled = await disableDead(em, params, rules);
  if (disabled.length)
    await em.query(holdOpenDeliveriesSql('d.webhook_id = ANY($1::uuid[])'), [disabled.map((w) => w.id)]);
  return disabled;
}

/** Disables the batch's active webhooks that answered 410 or that a rule finds dead. */
async function disableDead(em: EntityManager, params: unknown[], rules: DisableRules): Promise<DisabledWebhook[]> {
  const [rows]: [DisabledWebhook[], number] = await em.query(
    `WITH h AS (SELECT * FROM unnest($1::uuid[], $2::bool[], $3::timestamptz[], $4::int[], $5::bool[], $6::uuid[])
                  AS h(id, delivered, first_failure, undeliverable, gone, tenant_id))
     UPDATE webhooks w SET status = 'disabled', disabled_at = now(),
       disabled_reason = CASE WHEN h.gone THEN 'endpoint_gone'
                              WHEN $8::int > 0 AND w.consecutive_undeliverable >= $8 THEN 'undeliverable'
                              ELSE 'failing' END
       FROM h
      WHERE w.id = h.id AND w.status = 'active'
        AND (h.gone
             OR (NOT h.delivered AND $7::bigint > 0 AND w.failing_since <= now() - $7::bigint * interval '1 millisecond')
             OR (NOT h.delivered AND $8::int > 0 AND w.consecutive_undeliverable >= $8))
      RETURNING w.id, w.app_id, w.endpoint, w.failing_since, w.consecutive_undeliverable, w.disabled_reason, w.disabled_at, h.tenant_id`,
    [...params, rules.failingForMs, rules.undeliverableInARow],
  );
  return rows;
}
