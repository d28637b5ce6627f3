import type { AlertRecipient } from '@edu/persistence';
import type { MessageWithCounts } from './alert-message.repository';

/** Spec 2.10, in the spec's field order. */
export interface AlertMessageView {
  message_id: string;
  method: string;
  queued_alert_count: number;
  fetched_alert_count: number;
  sent_alert_count: number;
  transaction_id: string;
  recipient: AlertRecipient;
  alerts: unknown[];
}

/**
 * The counters count alert items (the entries of every group's `alerts`), once per delivery or
 * fetch that carries them: queued = items × deliveries still under way (pending or awaiting a
 * retry), sent = items × deliveries answered 2xx, fetched = items × apps that read the message
 * through getMessage. See apps/alerts/src/README.md.
 */
export function toMessageView(m: MessageWithCounts): AlertMessageView {
  return {
    message_id: m.id,
    method: m.method,
    queued_alert_count: m.alert_count * m.open_deliveries,
    fetched_alert_count: m.alert_count * m.fetching_apps,
    sent_alert_count: m.alert_count * m.delivered_deliveries,
    transaction_id: m.transaction_id,
    recipient: m.recipient,
    alerts: m.alerts,
  };
}
