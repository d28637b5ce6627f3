import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { ApiErrorCode } from '@edu/domain';
import {
  addResponse,
  addRouteScopes,
  declarePathParameters,
  documentedOperations,
  jsonResponse,
  serveOpenApi,
  type DocumentedOperation,
  type SchemaObject,
} from '@edu/http';
import {
  PAYLOAD_RETENTION_DAYS,
  DELIVERY_EVENT_TYPES,
  DELIVERY_REASONS,
  DELIVERY_STATUSES,
  WEBHOOK_DISABLED_REASONS,
  WEBHOOK_RATE_LIMIT_BOUNDS,
  WEBHOOK_STATUSES,
  WEBHOOK_KINDS,
  WEBHOOK_TYPES,
} from '@edu/persistence';
import { AlertsEnv } from './config/alerts.env';
import { MAX_MESSAGES_PER_BATCH, ROW_TYPES } from './messages/dto/alert-message.dto';
import { PORTAL_SESSION_SECONDS } from './portal/dto/portal.dto';
import { ROSTER_EVENT_OBJECTS, ROSTER_EVENT_TYPES } from './webhooks/dto/roster-event-filter.dto';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const str: SchemaObject = { type: 'string' };
const uuid: SchemaObject = { type: 'string', format: 'uuid' };
const time: SchemaObject = { type: 'string', format: 'date-time' };
const nullable = (s: SchemaObject): SchemaObject => ({ ...s, nullable: true });
const object = (
  properties: Record<string, SchemaObject | { $ref: string }>,
  optional: string[] = [],
  description?: string,
): SchemaObject => ({
  type: 'object',
  ...(description ? { description } : {}),
  required: Object.keys(properties).filter((k) => !optional.includes(k)),
  properties,
  additionalProperties: false,
});

const identifiers = object({ sis_id: str, lms_guid: str });

/** Fields of the people a message names that a school's data sharing may withhold from an app. */
const WITHHOLDABLE_RECIPIENT = ['primary_email', 'identifiers', 'preferred_name'];
const WITHHOLDABLE_ENTITY = ['identifiers', 'preferred_name', 'pronouns'];
const SHARED_NOTE =
  "As an app reads it: primary_email, identifiers and preferred_name are absent when the school's data sharing withholds contact, identifiers or preferred_names";

/** Spec 2.10 recipient; `optional`: fields an app may not get. */
const recipient = (optional: string[], description?: string): SchemaObject =>
  object(
    {
      entity_uuid: uuid,
      ext_id: str,
      name: str,
      first_name: str,
      last_name: str,
      preferred_name: str,
      primary_email: { type: 'string', format: 'email' },
      identifiers,
    },
    optional,
    description,
  );

/** Spec 2.10 alert group; `optionalOfEntity`: fields of an alert's entity an app may not get. */
const alertGroup = (optionalOfEntity: string[]): SchemaObject =>
  object({
    name: str,
    badges: {
      type: 'array',
      maxItems: 100,
      items: object({ value: str, color: { type: 'string', pattern: '^#[0-9A-Fa-f]{6}$' } }),
    },
    alert_count: str,
    alerts: {
      type: 'array',
      minItems: 1,
      items: object({
        name: str,
        id: uuid,
        type: uuid,
        trigger: object({ type: str, threshold_period: str }),
        rows: {
          type: 'array',
          items: object(
            {
              type: { type: 'string', enum: [...ROW_TYPES] },
              key: str,
              value: str,
              list: { type: 'array', items: str },
            },
            ['value', 'list'],
            'A `value`, or for `detail` rows a `list`',
          ),
        },
        entity: object(
          {
            uuid,
            ext_id: str,
            first_name: str,
            preferred_name: str,
            last_name: str,
            pronouns: { type: 'array', items: str },
            identifiers,
          },
          optionalOfEntity,
        ),
        student: object({
          uuid,
          current_homeroom: str,
          current_year_level: { type: 'integer', minimum: -5, maximum: 30 },
        }),
      }),
    },
  });

/** A delivery as the deliveries endpoints show it. */
const DELIVERY: Record<string, SchemaObject> = {
  delivery_id: uuid,
  webhook_id: uuid,
  message_id: nullable(uuid),
  type: { type: 'string', enum: [...WEBHOOK_TYPES] },
  trigger: {
    type: 'string',
    enum: ['message', 'redeliver', 'test', 'event'],
    description: 'What created the delivery (a message, a redelivery, a test, an operational event)',
  },
  event_type: {
    ...nullable({ type: 'string', enum: [...DELIVERY_EVENT_TYPES] }),
    description: 'What an event delivery tells (endpoint.disabled: a webhook of the app was disabled)',
  },
  redelivery_of: nullable(uuid),
  status: { type: 'string', enum: [...DELIVERY_STATUSES] },
  attempt_count: { type: 'integer', minimum: 0 },
  next_attempt_at: nullable(time),
  last_status_code: nullable({ type: 'integer' }),
  last_error_code: nullable(str),
  created_at: time,
  first_attempt_at: nullable(time),
  finished_at: nullable(time),
  reason: {
    ...nullable({ type: 'string', enum: [...DELIVERY_REASONS] }),
    description:
      "Why a withheld, held or expired delivery is not sent (not_shared: the school's data sharing does not share a person the message names; webhook_disabled: held until the webhook is re-enabled; payload_purged: the payload was purged before it was sent)",
  },
};

/**
 * Response and body schemas of the alerts API (spec 2.10 to 2.12, and the delivery log), written
 * from the views the controllers return; the OpenAPI test validates real answers against them.
 */
export const ALERTS_SCHEMAS: Record<string, SchemaObject> = {
  Error: {
    type: 'object',
    description:
      'Error body of every failure. Validation failures list the fields; a 500 carries an error_id that is logged with the stack.',
    required: ['error', 'message'],
    properties: {
      error: { type: 'string', enum: Object.values(ApiErrorCode) },
      message: str,
      fields: { type: 'array', items: object({ field: str, problems: { type: 'array', items: str } }) },
      error_id: str,
      reason: {
        type: 'string',
        description: 'Why a 409 refused: not_shared, webhook_disabled, payload_purged (the message was purged)',
      },
    },
  },
  Webhook: object(
    {
      webhook_id: uuid,
      endpoint: { type: 'string', format: 'uri' },
      type: { type: 'string', enum: [...WEBHOOK_TYPES] },
      kind: {
        type: 'string',
        enum: [...WEBHOOK_KINDS],
        description:
          "alerts: alert messages; roster-events: the roster change feed of the app's deployments, in batches",
      },
      filter: {
        ...nullable(
          object(
            {
              objects: { type: 'array', items: { type: 'string', enum: [...ROSTER_EVENT_OBJECTS] } },
              types: { type: 'array', items: { type: 'string', enum: [...ROSTER_EVENT_TYPES] } },
            },
            ['objects', 'types'],
          ),
        ),
        description: 'roster-events webhooks: which events they receive (null: every event the deployment sees)',
      },
      signing_secret_set: {
        type: 'boolean',
        description:
          'Deliveries carry a Standard Webhooks webhook-signature (false for a webhook registered before secrets existed, until its secret is rotated)',
      },
      previous_secret_expires_at: {
        ...nullable(time),
        description: "While a rotation's overlap lasts: when the previous secret stops signing",
      },
      status: {
        type: 'string',
        enum: [...WEBHOOK_STATUSES],
        description: 'disabled: nothing is sent (deliveries are held) until updateWebhook sets status active',
      },
      disabled_reason: {
        ...nullable({ type: 'string', enum: [...WEBHOOK_DISABLED_REASONS] }),
        description:
          'endpoint_gone: it answered 410 Gone; failing: it failed continuously for the configured period; undeliverable: too many deliveries in a row became undeliverable',
      },
      disabled_at: nullable(time),
      failing_since: {
        ...nullable(time),
        description: 'The first failed attempt since the last delivered one: a webhook failing long enough is disabled',
      },
      rate_limit: {
        ...nullable({
          type: 'integer',
          minimum: WEBHOOK_RATE_LIMIT_BOUNDS.min,
          maximum: WEBHOOK_RATE_LIMIT_BOUNDS.max,
        }),
        description: 'Most deliveries a second it receives (null: no limit)',
      },
    },
    [],
    'Spec 2.11, with how its deliveries are signed and whether it is disabled',
  ),
  WebhookActionResult: object(
    {
      webhook_id: uuid,
      action: { type: 'string', enum: ['newWebhook', 'updateWebhook', 'deleteWebhook'] },
      success: { type: 'boolean' },
      updated_props: object(
        {
          endpoint: { type: 'string', format: 'uri' },
          type: { type: 'string', enum: [...WEBHOOK_TYPES] },
          status: { type: 'string', enum: ['active'], description: 'The webhook was disabled and is re-enabled' },
          rate_limit: nullable({ type: 'integer' }),
        },
        ['endpoint', 'type', 'status', 'rate_limit'],
      ),
      secret: {
        type: 'string',
        pattern: '^whsec_',
        description: 'newWebhook only: the Standard Webhooks secret of the webhook, shown this once',
      },
    },
    ['updated_props', 'secret'],
    'Spec 2.12; updated_props on updateWebhook only, secret on newWebhook only',
  ),
  RotatedSecret: object({
    webhook_id: uuid,
    secret: { type: 'string', pattern: '^whsec_', description: 'The new secret, shown this once' },
    previous_secret_expires_at: {
      ...nullable(time),
      description: 'When the replaced secret stops signing (null: no overlap, or there was none)',
    },
  }),
  RotateSecret: object(
    { overlap_seconds: { type: 'integer', minimum: 0, maximum: 604_800, default: 86_400 } },
    ['overlap_seconds'],
    'Optional body',
  ),
  Delivery: object(DELIVERY),
  DeliveryAttempt: object({
    attempt_number: { type: 'integer', minimum: 1 },
    started_at: time,
    duration_ms: { type: 'integer', minimum: 0 },
    url: str,
    resolved_ip: nullable(str),
    response_status: nullable({ type: 'integer' }),
    error_code: nullable(str),
    error_message: nullable(str),
    response_excerpt: nullable(str),
    request_bytes: nullable({ type: 'integer' }),
    kid: nullable(str),
  }),
  DeliveryPage: object({ deliveries: { type: 'array', items: ref('Delivery') }, next_cursor: nullable(str) }),
  DeliveryWithAttempts: object({ ...DELIVERY, attempts: { type: 'array', items: ref('DeliveryAttempt') } }),
  TestDeliveryResult: object({
    delivery_id: uuid,
    success: { type: 'boolean', description: 'The endpoint answered 2xx in time' },
    status: { type: 'string', enum: [...DELIVERY_STATUSES] },
    attempt: { nullable: true, allOf: [ref('DeliveryAttempt')] },
  }),
  DeliverySettings: object({
    tenant_id: uuid,
    delivery_payload_retention_days: {
      type: 'integer',
      minimum: PAYLOAD_RETENTION_DAYS.min,
      maximum: PAYLOAD_RETENTION_DAYS.max,
      description: `Days payloads of messages and event deliveries are kept (default ${PAYLOAD_RETENTION_DAYS.default})`,
    },
    customised: { type: 'boolean', description: 'False while the tenant has the default' },
  }),
  UpdateDeliverySettings: object({
    delivery_payload_retention_days: {
      type: 'integer',
      minimum: PAYLOAD_RETENTION_DAYS.min,
      maximum: PAYLOAD_RETENTION_DAYS.max,
    },
  }),
  ExpungedPayload: object({
    message_id: uuid,
    payload_purged_at: time,
    deliveries_expired: {
      type: 'integer',
      minimum: 0,
      description: 'Its deliveries that had not finished sending and never will now (status expired)',
    },
  }),
  PortalSession: object({
    url: {
      type: 'string',
      format: 'uri',
      description: 'The signed link (/v2/alerts/portal/open?token=...): it opens one session in a browser',
    },
    expires_at: { ...time, description: 'The link, and the session it opens, end then' },
  }),
  CreatePortalSession: object(
    {
      expires_in: {
        type: 'integer',
        minimum: PORTAL_SESSION_SECONDS.min,
        maximum: PORTAL_SESSION_SECONDS.max,
        default: PORTAL_SESSION_SECONDS.default,
      },
    },
    ['expires_in'],
    'Optional body',
  ),
  Recipient: recipient([]),
  AlertGroup: alertGroup([]),
  SharedRecipient: recipient(WITHHOLDABLE_RECIPIENT, SHARED_NOTE),
  SharedAlertGroup: alertGroup(WITHHOLDABLE_ENTITY),
  NewAlertMessage: object({
    transaction_id: { type: 'string', minLength: 1, maxLength: 200 },
    recipient: ref('Recipient'),
    alerts: { type: 'array', minItems: 1, items: ref('AlertGroup') },
  }),
  SubmitMessages: object({
    tenant_id: uuid,
    messages: { type: 'array', minItems: 1, maxItems: MAX_MESSAGES_PER_BATCH, items: ref('NewAlertMessage') },
  }),
  SubmittedMessages: object({
    messages: {
      type: 'array',
      description:
        'In request order; deliveries counts the deliveries to send (withheld ones not counted); a transaction id seen before answers the first message again',
      items: object({ message_id: uuid, transaction_id: str, deliveries: { type: 'integer', minimum: 0 } }),
    },
  }),
  AlertMessage: object(
    {
      message_id: uuid,
      method: str,
      queued_alert_count: { type: 'integer', minimum: 0 },
      fetched_alert_count: { type: 'integer', minimum: 0 },
      sent_alert_count: { type: 'integer', minimum: 0 },
      transaction_id: str,
      recipient: ref('SharedRecipient'),
      alerts: { type: 'array', items: ref('SharedAlertGroup') },
    },
    [],
    "Spec 2.10; fields the school's data sharing withholds from the app are absent",
  ),
};

interface OperationDoc {
  /** Success answers: status → description and schema. */
  ok: Record<number, [string, SchemaObject | { $ref: string }]>;
  /** Errors beyond the ones every operation of its kind has. */
  errors?: number[];
  /** Replaces the request body schema. */
  body?: SchemaObject | { $ref: string };
  /** The body may be left out. */
  bodyOptional?: boolean;
}

/** What each operation answers, by `METHOD path`; a route missing here fails the OpenAPI test. */
export const ALERTS_OPERATIONS: Record<string, OperationDoc> = {
  'POST /v2/alerts/messages': {
    ok: { 201: ['Stored and fanned out', ref('SubmittedMessages')] },
    body: ref('SubmitMessages'),
    errors: [403],
  },
  'GET /v2/alerts/message/{id}': {
    ok: { 200: ['The message with its counters', ref('AlertMessage')] },
    errors: [409],
  },
  'GET /v2/alerts/tenants/{tenant_id}/settings': {
    ok: { 200: ["The tenant's delivery settings", ref('DeliverySettings')] },
  },
  'PATCH /v2/alerts/tenants/{tenant_id}/settings': {
    ok: { 200: ['The settings as they now are', ref('DeliverySettings')] },
    body: ref('UpdateDeliverySettings'),
  },
  'DELETE /v2/alerts/tenants/{tenant_id}/messages/{message_id}/payload': {
    ok: { 200: ['The payload is purged (again: the first purge time)', ref('ExpungedPayload')] },
  },
  'POST /v2/alerts/portal-sessions': {
    ok: { 201: ['A link to the delivery portal: open it once, in a browser, before it expires', ref('PortalSession')] },
    body: ref('CreatePortalSession'),
    bodyOptional: true,
  },
  'GET /v2/alerts/webhook': {
    ok: { 200: ["The calling app's webhooks at the token's tenant", { type: 'array', items: ref('Webhook') }] },
  },
  'POST /v2/alerts/webhook': { ok: { 200: ['Registered', ref('WebhookActionResult')] } },
  'GET /v2/alerts/webhook/{id}': { ok: { 200: ['The webhook', ref('Webhook')] } },
  'PATCH /v2/alerts/webhook/{id}': {
    ok: { 200: ['Updated; updated_props lists what changed', ref('WebhookActionResult')] },
  },
  'POST /v2/alerts/webhook/{id}/secret/rotate': {
    ok: { 200: ['The new secret (shown once) and the end of the overlap', ref('RotatedSecret')] },
    body: ref('RotateSecret'),
    bodyOptional: true,
  },
  'DELETE /v2/alerts/webhook/{id}': {
    ok: { 200: ['Deleted; its open deliveries are cancelled', ref('WebhookActionResult')] },
  },
  'GET /v2/alerts/webhook/{id}/deliveries': {
    ok: { 200: ['A page of deliveries, newest first', ref('DeliveryPage')] },
  },
  'GET /v2/alerts/webhook/{id}/deliveries/{deliveryId}': {
    ok: { 200: ['The delivery with every attempt', ref('DeliveryWithAttempts')] },
  },
  'POST /v2/alerts/webhook/{id}/deliveries/{deliveryId}/redeliver': {
    ok: { 201: ['The new delivery', ref('Delivery')] },
    errors: [409],
  },
  'POST /v2/alerts/webhook/{id}/test': {
    ok: {
      200: ['The attempt finished: its result', ref('TestDeliveryResult')],
      202: ['Not finished in time (pending or awaiting a retry)', ref('TestDeliveryResult')],
    },
  },
};

const ERROR_TEXT: Record<number, string> = {
  400: 'validation_failed (fields named) or invalid_request',
  401: 'invalid_token: missing, invalid or expired token (WWW-Authenticate: Bearer)',
  403: 'insufficient_scope, licence_required (no deployment of the app at the tenant) or wrong_region',
  404: 'not_found: unknown, malformed or another tenant\u2019s or app\u2019s id',
  409: "conflict: the delivery has not finished yet, (reason not_shared) the school's data sharing does not share a person the message names, (reason webhook_disabled) the webhook is disabled, or (reason payload_purged) the message's payload was purged",
  413: 'payload_too_large',
  415: 'unsupported_media_type: the body must be application/json',
  503: 'service_unavailable: PostgreSQL, Redis or the JWKS did not answer (Retry-After: 5)',
};

/** Errors an operation can answer, from its shape: every one 401/403/503, ids 404, inputs 400, bodies 413/415. */
function errorStatuses(op: DocumentedOperation, extra: number[] = []): number[] {
  const statuses = new Set<number>([401, 403, 503, ...extra]);
  const params = op.operation.parameters ?? [];
  if (op.path.includes('{')) statuses.add(404).add(400);
  if (params.some((p) => 'in' in p && p.in === 'query')) statuses.add(400);
  if (op.operation.requestBody) [400, 413, 415].forEach((s) => statuses.add(s));
  return [...statuses].sort((a, b) => a - b);
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const env = app.get(AlertsEnv);
  const config = new DocumentBuilder()
    .setTitle('Alerts API')
    .setDescription(
      'Alert messages (getMessage; submission by the platform operator), webhook management and the delivery log of an app\u2019s own webhooks. ' +
        'Tokens come from the identity service (POST /oauth/token). Errors are {"error", "message"}; validation errors add "fields". ' +
        'Deliveries are ES256 JWTs (application/jwt) verified against the identity service\u2019s JWKS.',
    )
    .setVersion('2')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'bearer')
    .build();
  const doc = SwaggerModule.createDocument(app, config);
  doc.components = { ...doc.components, schemas: { ...doc.components?.schemas, ...ALERTS_SCHEMAS } };
  const ops = documentedOperations(app, doc);
  addRouteScopes(app, doc, ops, `${env.TOKEN_ISSUER.replace(/\/+$/, '')}/oauth/token`);
  declarePathParameters(ops, () => ({ type: 'string', format: 'uuid' }));
  for (const op of ops) {
    const spec = ALERTS_OPERATIONS[`${op.method.toUpperCase()} ${op.path}`];
    if (!spec) continue;
    const responses = (op.operation.responses ??= {});
    // Swagger's default status guesses (201 for every POST) give way to what the route answers.
    for (const status of Object.keys(responses))
      if (/^2/.test(status) && !spec.ok[Number(status)]) delete responses[status];
    for (const [status, [description, schema]] of Object.entries(spec.ok))
      responses[status] = jsonResponse(description, schema);
    if (spec.body)
      op.operation.requestBody = {
        required: !spec.bodyOptional,
        content: { 'application/json': { schema: spec.body } },
      };
    for (const status of errorStatuses(op, spec.errors)) {
      const retryAfter =
        status === 503 ? { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } } : undefined;
      addResponse(op, status, jsonResponse(ERROR_TEXT[status] ?? 'Error', ref('Error'), retryAfter));
    }
  }
  return doc;
}

/** OpenAPI document at /docs-json and the UI at /docs. Call before `app.init()` / `listen()`. */
export function setupOpenApi(app: INestApplication): void {
  serveOpenApi(app, () => buildOpenApiDocument(app));
}
