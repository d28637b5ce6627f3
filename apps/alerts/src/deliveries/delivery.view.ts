import { isOpenDelivery, type DeliveryRow, type WebhookDeliveryAttemptEntity } from '@edu/persistence';

/** A delivery as the deliveries endpoints show it. */
export interface DeliveryView {
  delivery_id: string;
  webhook_id: string;
  message_id: string | null;
  type: string;
  trigger: string;
  /** What an event delivery tells (`endpoint.disabled`); null for the others. */
  event_type: string | null;
  redelivery_of: string | null;
  status: string;
  attempt_count: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error_code: string | null;
  created_at: string;
  first_attempt_at: string | null;
  finished_at: string | null;
  /** Why a `withheld` delivery is not sent (`not_shared`); null otherwise. */
  reason: string | null;
}

export interface AttemptView {
  attempt_number: number;
  started_at: string;
  duration_ms: number;
  url: string;
  resolved_ip: string | null;
  response_status: number | null;
  error_code: string | null;
  error_message: string | null;
  response_excerpt: string | null;
  request_bytes: number | null;
  kid: string | null;
}

const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);

export function toDeliveryView(d: DeliveryRow): DeliveryView {
  return {
    delivery_id: d.id,
    webhook_id: d.webhook_id,
    message_id: d.message_id,
    type: d.kind,
    trigger: d.trigger,
    event_type: d.event_type,
    redelivery_of: d.redelivery_of,
    status: d.status,
    attempt_count: d.attempt_count,
    next_attempt_at: isOpenDelivery(d.status) ? iso(d.due_at) : null,
    last_status_code: d.last_status_code,
    last_error_code: d.last_error_code,
    created_at: iso(d.created_at) as string,
    first_attempt_at: iso(d.first_attempt_at),
    finished_at: iso(d.finished_at),
    reason: d.reason,
  };
}

export function toAttemptView(a: WebhookDeliveryAttemptEntity): AttemptView {
  return {
    attempt_number: a.attemptNumber,
    started_at: iso(a.startedAt) as string,
    duration_ms: a.durationMs,
    url: a.url,
    resolved_ip: a.resolvedIp,
    response_status: a.responseStatus,
    error_code: a.errorCode,
    error_message: a.errorMessage,
    response_excerpt: a.responseExcerpt,
    request_bytes: a.requestBytes,
    kid: a.kid,
  };
}
