import type { AlertRecipient } from '@edu/persistence';
import { withholdFromAlertMessage, type WithholdCategory } from '@edu/sharing';
import type { MessageWithCounts } from './alert-message.repository';

/** Recipient fields a data sharing may withhold (contact, identifiers, preferred_names): absent then. */
type Withholdable = 'primary_email' | 'identifiers' | 'preferred_name';
export type ShownRecipient = Omit<AlertRecipient, Withholdable> & Partial<Pick<AlertRecipient, Withholdable>>;

/** Spec 2.10, in the spec's field order. */
export interface AlertMessageView {
  message_id: string;
  method: string;
  queued_alert_count: number;
  fetched_alert_count: number;
  sent_alert_count: number;
  transaction_id: string;
  recipient: ShownRecipient;
  alerts: unknown[];
}

/**
 * The counters count alert items (the entries of every group's `alerts`), once per delivery or
 * fetch that carries them: queued = items × deliveries still under way (pending or awaiting a
 * retry), sent = items × deliveries answered 2xx, fetched = items × apps that read the message
 * through getMessage. See apps/alerts/src/README.md. Fields the app's data sharing withholds
 * (`withhold`) are left out of the recipient and the alert entities.
 */
export function toMessageView(m: MessageWithCounts, withhold: readonly WithholdCategory[] = []): AlertMessageView {
  const shown = withholdFromAlertMessage(m.recipient, m.alerts, withhold);
  return {
    message_id: m.id,
    method: m.method,
    queued_alert_count: m.alert_count * m.open_deliveries,
    fetched_alert_count: m.alert_count * m.fetching_apps,
    sent_alert_count: m.alert_count * m.delivered_deliveries,
    transaction_id: m.transaction_id,
    recipient: shown.recipient as ShownRecipient,
    alerts: shown.alerts as unknown[],
  };
}
