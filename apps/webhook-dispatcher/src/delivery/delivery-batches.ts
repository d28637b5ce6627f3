import { Injectable, Logger } from '@nestjs/common';
import { DispatchRepository, type AttemptOutcome, type DeliveryToSend, type DisabledWebhook } from '@edu/persistence';
import { DispatcherEnv } from '../config/dispatcher.env';
import { DispatcherMetrics } from './dispatcher.metrics';
import { MicroBatch } from './micro-batch';

/** Reads the deliveries of concurrent jobs in one query (up to 500, or after 5 ms). */
@Injectable()
export class DeliveryReads extends MicroBatch<string, DeliveryToSend | undefined> {
  constructor(repo: DispatchRepository) {
    super(
      async (ids) => {
        const rows = await repo.loadForSending(ids);
        const byId = new Map(rows.map((r) => [r.id, r]));
        return ids.map((id) => byId.get(id));
      },
      500,
      5,
    );
  }
}

/**
 * Writes the outcomes of concurrent attempts in one statement (up to 1,000, or after 20 ms).
 * Each caller learns whether the batch disabled its webhook (its delivery is then held, not retried).
 */
@Injectable()
export class OutcomeWrites extends MicroBatch<AttemptOutcome, { webhookDisabled: boolean }> {
  constructor(repo: DispatchRepository, metrics: DispatcherMetrics, env: DispatcherEnv) {
    const logger = new Logger('WebhookHealth');
    const rules = {
      failingForMs: env.WEBHOOK_DISABLE_AFTER_FAILING_MS,
      undeliverableInARow: env.WEBHOOK_DISABLE_AFTER_UNDELIVERABLE,
    };
    super(
      async (outcomes) => {
        const disabled = await repo.recordOutcomes(outcomes, rules);
        for (const w of disabled) reportDisabled(w, metrics, logger);
        const ids = new Set(disabled.map((w) => w.id));
        return outcomes.map((o) => ({ webhookDisabled: ids.has(o.webhookId) }));
      },
      1_000,
      20,
    );
  }
}

function reportDisabled(w: DisabledWebhook, metrics: DispatcherMetrics, logger: Logger): void {
  metrics.webhooksDisabled.inc({ reason: w.disabled_reason });
  logger.warn(
    {
      webhookId: w.id,
      appId: w.app_id,
      endpoint: w.endpoint,
      reason: w.disabled_reason,
      failingSince: w.failing_since,
      undeliverableInARow: w.consecutive_undeliverable,
    },
    'Webhook disabled: its deliveries are held until its app re-enables it; the app is sent endpoint.disabled',
  );
}
