import type { EntityManager } from 'typeorm';
import type { WebhookDisabledReason, WebhookEntity } from '../entities';
import type { ColumnsOf } from './columns-of';
import { holdOpenDeliveriesSql } from './delivery-sql';
import type { AttemptOutcome } from './outcome-sql';

/** A webhook an outcome batch disabled, and why. */
export type DisabledWebhook = ColumnsOf<WebhookEntity, 'id' | 'appId' | 'endpoint'> & {
  disabled_reason: WebhookDisabledReason;
  disabled_at: Date;
};

/**
 * Disables the active webhooks whose endpoint answered 410 Gone in this batch, and holds their
 * open deliveries (no further attempt for any message until the app re-enables the webhook).
 */
export async function disableWebhooks(em: EntityManager, outcomes: AttemptOutcome[]): Promise<DisabledWebhook[]> {
  const gone = [...new Set(outcomes.filter((o) => o.endpointGone).map((o) => o.webhookId))];
  if (gone.length === 0) return [];
  const [disabled]: [DisabledWebhook[], number] = await em.query(
    `UPDATE webhooks SET status = 'disabled', disabled_reason = 'endpoint_gone', disabled_at = now()
      WHERE id = ANY($1::uuid[]) AND status = 'active'
      RETURNING id, app_id, endpoint, disabled_reason, disabled_at`,
    [gone],
  );
  if (disabled.length)
    await em.query(holdOpenDeliveriesSql('d.webhook_id = ANY($1::uuid[])'), [disabled.map((w) => w.id)]);
  return disabled;
}
