import type { DeliveryToSend, MessageBodyText } from '@edu/persistence';
import { withheldFields, withholdFromAlertMessage, WITHHOLD_CATEGORIES, type WithholdCategory } from '@edu/sharing';

/** The body claim of a delivery token: its name and JSON text. */
export interface DeliveryBody {
  type: string;
  claim: 'notice' | 'message' | 'event';
  /** The whole body, or with `endsWithMessage` its start. */
  json: string;
  subject: string;
  /** The message whose recipient and alerts end the body (`messageTailJson`): full payloads. */
  endsWithMessage?: string;
  /** The field categories left out of that message's end (`alertWithholding`). */
  withhold?: readonly WithholdCategory[];
}

const j = JSON.stringify;

/** Path of getMessage for a message (spec 4.3). */
export const messagePath = (messageId: string): string => `/v2/alerts/message/${messageId}`;

/** The withhold categories that remove fields from an alert message (contact, identifiers, preferred_names). */
const TOUCHES_ALERTS = WITHHOLD_CATEGORIES.filter(
  (c) => withheldFields('alertRecipient', [c]).size + withheldFields('alertEntity', [c]).size > 0,
);

/**
 * The categories of the app's data sharing that remove fields from an alert message, in one
 * order (empty when none does): what a payload leaves out, and part of a full payload's cache key.
 */
export function alertWithholding(withhold: readonly string[] | null): WithholdCategory[] {
  return TOUCHES_ALERTS.filter((c) => withhold?.includes(c));
}

function recipientSummary(recipientJson: string, withhold: readonly WithholdCategory[]): string {
  const r = JSON.parse(recipientJson) as {
    entity_uuid?: string;
    ext_id?: string;
    name?: string;
    identifiers?: unknown;
  };
  const summary = { entity_uuid: r.entity_uuid, ext_id: r.ext_id, name: r.name, identifiers: r.identifiers };
  return j(withholdFromAlertMessage(summary, [], withhold).recipient);
}

/**
 * `notification-only`: a small notice (message id, tenant, recipient summary without e-mail,
 * alert counts, where to fetch the message); the partner then calls getMessage.
 */
function notice(d: DeliveryToSend, alertsBaseUrl: string | undefined): string {
  const id = d.message_id as string;
  const url = alertsBaseUrl ? `,"message_url":${j(`${alertsBaseUrl.replace(/\/+$/, '')}${messagePath(id)}`)}` : '';
  return (
    `{"message_id":${j(id)},"tenant_id":${j(d.tenant_id)},"transaction_id":${j(d.transaction_id)},` +
    `"recipient":${recipientSummary(d.recipient_json as string, alertWithholding(d.withhold))},"alert_count":${d.alert_count},"alert_group_count":${d.group_count},` +
    `"created_at":${j(new Date(d.message_created_at as Date).toISOString())},"message_path":${j(messagePath(id))}${url}}`
  );
}

/**
 * `full-payload`: the whole message in the getMessage shape (spec 2.10). Its start (ids and the
 * live counts) is built per attempt; its end, the stored recipient and alerts spliced in as text
 * (`messageTailJson`), is the same on every delivery of the message and encoded once.
 */
function fullMessageHead(d: DeliveryToSend): string {
  const alertCount = d.alert_count ?? 0;
  return (
    `{"message_id":${j(d.message_id)},"method":${j(d.method)},"queued_alert_count":${alertCount * (d.open_deliveries ?? 0)},` +
    `"fetched_alert_count":${alertCount * (d.fetching_apps ?? 0)},"sent_alert_count":${alertCount * (d.delivered_deliveries ?? 0)},` +
    `"transaction_id":${j(d.transaction_id)},`
  );
}

/**
 * The end of a full payload's message, in parts: recipient and alert groups as stored, never
 * parsed here, unless the app's data sharing withholds fields of them (then parsed once and left out).
 */
export function messageTailJson(m: MessageBodyText, withhold: readonly WithholdCategory[] = []): string[] {
  if (withhold.length === 0) return ['"recipient":', m.recipient_json, ',"alerts":', m.alerts_json, '}'];
  const shown = withholdFromAlertMessage(JSON.parse(m.recipient_json), JSON.parse(m.alerts_json), withhold);
  return ['"recipient":', j(shown.recipient), ',"alerts":', j(shown.alerts), '}'];
}

/**
 * What a delivery carries, by its kind (design §6); test deliveries carry a short notice, event
 * deliveries (`endpoint.disabled`) their stored event under `event`, about the webhook it names.
 */
export function deliveryBody(d: DeliveryToSend, alertsBaseUrl: string | undefined): DeliveryBody {
  if (d.trigger === 'event' && d.event_type && d.event_json) {
    const event = JSON.parse(d.event_json) as { webhook_id?: string };
    return { type: d.event_type, claim: 'event', subject: event.webhook_id ?? d.id, json: d.event_json };
  }
  if (d.trigger === 'test' || !d.message_id) {
    return {
      type: 'test',
      claim: 'notice',
      subject: d.id,
      json: j({
        test: true,
        webhook_id: d.webhook_id,
        tenant_id: d.tenant_id,
        delivery_kind: d.kind,
        text: 'A test delivery: real deliveries carry type notification-only or full-payload.',
      }),
    };
  }
  if (d.kind === 'full-payload')
    return {
      type: 'full-payload',
      claim: 'message',
      subject: d.message_id,
      json: fullMessageHead(d),
      endsWithMessage: d.message_id,
      withhold: alertWithholding(d.withhold),
    };
  return { type: 'notification-only', claim: 'notice', subject: d.message_id, json: notice(d, alertsBaseUrl) };
}
