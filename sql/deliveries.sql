-- Hand-written SQL of libs/persistence/src/deliveries (node tools/sql/hand-written-sql.js --write)

-- libs/persistence/src/deliveries/delivery-replay.ts: planReplay.groups
SELECT d.webhook_id, w.app_id, d.tenant_id, w.endpoint, count(*)::int AS deliveries
 FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
WHERE ${WINDOW} AND ${NOT_PURGED} AND ${NOT_REPLAYED} AND ${NOT_SKIPPED}
GROUP BY d.webhook_id, w.app_id, d.tenant_id, w.endpoint
ORDER BY count(*) DESC, d.webhook_id, d.tenant_id;

-- libs/persistence/src/deliveries/delivery-replay.ts: planReplay
SELECT count(*) FILTER (WHERE ${NOT_PURGED} AND NOT ${NOT_REPLAYED})::int AS replayed,
     count(*) FILTER (WHERE ${NOT_PURGED} AND ${NOT_REPLAYED} AND NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id))::int AS deleted,
     count(*) FILTER (WHERE NOT ${NOT_PURGED} AND ${NOT_REPLAYED})::int AS purged
FROM webhook_deliveries d WHERE ${WINDOW};

-- libs/persistence/src/deliveries/delivery-replay.ts: sharingLimitedDeliveries
SELECT d.id, d.tenant_id, d.app_id, d.message_id
 FROM webhook_deliveries d
 JOIN webhooks w ON w.id = d.webhook_id
 JOIN tenant_app_deployments dep ON dep.tenant_id = d.tenant_id AND dep.app_id = d.app_id
 JOIN deployment_sharing s ON s.deployment_id = dep.id
WHERE ${WINDOW} AND ${NOT_PURGED} AND ${NOT_REPLAYED} AND s.active->>'mode' <> 'all';

-- libs/persistence/src/deliveries/delivery-replay.ts: replayUndeliverable
SELECT pg_advisory_xact_lock($1);

-- libs/persistence/src/deliveries/delivery-replay.ts: replayUndeliverable.rows
INSERT INTO webhook_deliveries (id, tenant_id, app_id, webhook_id, message_id, kind, trigger, redelivery_of, status, due_at)
SELECT gen_random_uuid(), d.tenant_id, w.app_id, d.webhook_id, d.message_id, w.type, 'redeliver', d.id, 'pending', now()
  FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
 WHERE ${WINDOW} AND ${NOT_PURGED} AND ${NOT_REPLAYED} AND ${NOT_SKIPPED}
 ORDER BY d.finished_at, d.id
RETURNING id;

-- libs/persistence/src/deliveries/delivery-sql.ts: cancelOpenDeliveriesSql
UPDATE webhook_deliveries d SET status = 'cancelled', reason = NULL, finished_at = now(), due_at = NULL
WHERE (${where}) AND d.status IN ${UNSENT_DELIVERY_STATUSES_SQL}
RETURNING d.id;

-- libs/persistence/src/deliveries/delivery-sql.ts: holdOpenDeliveriesSql
UPDATE webhook_deliveries d SET status = 'held', reason = 'webhook_disabled', due_at = NULL
WHERE (${where}) AND d.status IN ${OPEN_DELIVERY_STATUSES_SQL} AND d.trigger <> 'test'
RETURNING d.id;

-- libs/persistence/src/deliveries/delivery-sql.ts: MARK_ENQUEUED_SQL
UPDATE webhook_deliveries SET enqueued_at = now() WHERE id = ANY($1::uuid[]) AND enqueued_at IS NULL;

-- libs/persistence/src/deliveries/delivery-sql.ts: messageCountsSql
SELECT count(*) FILTER (WHERE x.status IN ${UNSENT_DELIVERY_STATUSES_SQL})::int AS open_deliveries,
     count(*) FILTER (WHERE x.status = 'delivered')::int AS delivered_deliveries,
     (SELECT count(*)::int FROM alert_message_fetches f WHERE f.message_id = ${messageId}) AS fetching_apps
FROM webhook_deliveries x WHERE x.message_id = ${messageId};

-- libs/persistence/src/deliveries/dispatch.repository.ts: DispatchRepository.loadForSending
SELECT d.id, d.tenant_id, d.app_id, d.webhook_id, d.message_id, d.kind, d.trigger, d.status, d.event_type, d.event::text AS event_json,
      (m.payload_purged_at IS NOT NULL OR (d.trigger = 'event' AND d.event IS NULL)) AS payload_purged,
      w.endpoint, w.status AS webhook_status, w.rate_limit, w.signing_secret, w.previous_signing_secret, w.previous_secret_expires_at, m.transaction_id, m.method, m.alert_count, m.created_at AS message_created_at,
      CASE WHEN d.kind <> 'full-payload' THEN json_array_length(m.alerts::json) END AS group_count,
      CASE WHEN d.kind <> 'full-payload' THEN m.recipient::text END AS recipient_json,
      c.open_deliveries, c.delivered_deliveries, c.fetching_apps,
      (SELECT s.active->'withhold' FROM tenant_app_deployments dep JOIN deployment_sharing s ON s.deployment_id = dep.id
        WHERE dep.tenant_id = d.tenant_id AND dep.app_id = d.app_id) AS withhold
 FROM webhook_deliveries d
 LEFT JOIN webhooks w ON w.id = d.webhook_id
 LEFT JOIN alert_messages m ON m.id = d.message_id
 LEFT JOIN LATERAL (
   ${messageCountsSql('d.message_id')}
 ) c ON d.kind = 'full-payload' AND d.message_id IS NOT NULL
WHERE d.id = ANY($1::uuid[]);

-- libs/persistence/src/deliveries/dispatch.repository.ts: DispatchRepository.loadMessageBodies
SELECT id, recipient::text AS recipient_json, alerts::text AS alerts_json FROM alert_messages WHERE id = ANY($1::uuid[]);

-- libs/persistence/src/deliveries/dispatch.repository.ts: DispatchRepository.expire
UPDATE webhook_deliveries SET status = 'expired', reason = 'payload_purged', due_at = NULL, finished_at = now()
WHERE id = ANY($1::uuid[]) AND status IN ${UNSENT_DELIVERY_STATUSES_SQL};

-- libs/persistence/src/deliveries/dispatch.repository.ts: DispatchRepository.relayUnqueued.rows
SELECT id FROM webhook_deliveries
WHERE enqueued_at IS NULL AND status = 'pending' AND created_at < now() - ($2::int * interval '1 millisecond')
ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED;

-- libs/persistence/src/deliveries/dispatch.repository.ts: DispatchRepository.overdue
SELECT id, attempt_count, due_at FROM webhook_deliveries
WHERE status IN ${OPEN_DELIVERY_STATUSES_SQL} AND enqueued_at IS NOT NULL
  AND due_at < now() - ($1::int * interval '1 millisecond')
  AND ($2::timestamptz IS NULL OR (due_at, id) > ($2::timestamptz, $3::uuid))
ORDER BY due_at, id LIMIT $4;

-- libs/persistence/src/deliveries/outcome-sql.ts: insertAttempts
INSERT INTO webhook_delivery_attempts (delivery_id, attempt_number, started_at, duration_ms, url, resolved_ip, kid, request_bytes, response_status, error_code, error_message, response_excerpt, worker_id)
SELECT * FROM unnest($1::uuid[], $2::smallint[], $3::timestamptz[], $4::int[], $5::text[], $6::text[], $7::text[], $8::int[], $9::smallint[], $10::text[], $11::text[], $12::text[], $13::text[])
ON CONFLICT (delivery_id, attempt_number) DO UPDATE SET
  started_at = EXCLUDED.started_at, duration_ms = EXCLUDED.duration_ms, url = EXCLUDED.url, resolved_ip = EXCLUDED.resolved_ip,
  kid = EXCLUDED.kid, request_bytes = EXCLUDED.request_bytes, response_status = EXCLUDED.response_status, error_code = EXCLUDED.error_code,
  error_message = EXCLUDED.error_message, response_excerpt = EXCLUDED.response_excerpt, worker_id = EXCLUDED.worker_id;

-- libs/persistence/src/deliveries/outcome-sql.ts: applyOutcomes
UPDATE webhook_deliveries d SET
   status = CASE WHEN d.status = 'cancelled' THEN d.status ELSE o.status END,
   reason = CASE WHEN d.status = 'cancelled' THEN d.reason END,
   attempt_count = GREATEST(d.attempt_count, o.attempt_number),
   due_at = CASE WHEN d.status = 'cancelled' THEN NULL ELSE o.due_at END,
   last_status_code = o.response_status,
   last_error_code = o.error_code,
   first_attempt_at = COALESCE(d.first_attempt_at, o.started_at),
   finished_at = CASE WHEN o.status = 'awaiting_retry' AND d.status <> 'cancelled' THEN NULL ELSE COALESCE(d.finished_at, now()) END
 FROM unnest($1::uuid[], $2::text[], $3::smallint[], $4::timestamptz[], $5::smallint[], $6::text[], $7::timestamptz[])
      AS o(id, status, attempt_number, due_at, response_status, error_code, started_at)
WHERE d.id = o.id;

-- libs/persistence/src/deliveries/outcome-sql.ts: flagUndeliverableMessages
UPDATE alert_messages SET undeliverable_at = now() WHERE id = ANY($1::uuid[]) AND undeliverable_at IS NULL;

-- libs/persistence/src/deliveries/payload-retention.ts: EXPIRE_UNSENT_OF_MESSAGES
UPDATE webhook_deliveries SET status = 'expired', reason = 'payload_purged', due_at = NULL, finished_at = now()
WHERE message_id = ANY($1::uuid[]) AND tenant_id = $2 AND status IN ${UNSENT_DELIVERY_STATUSES_SQL} RETURNING id;

-- libs/persistence/src/deliveries/payload-retention.ts: FORGET_ANSWERS_OF_MESSAGES
UPDATE webhook_delivery_attempts a SET response_excerpt = NULL
FROM webhook_deliveries d WHERE a.delivery_id = d.id AND d.message_id = ANY($1::uuid[]) AND d.tenant_id = $2 AND a.response_excerpt IS NOT NULL;

-- libs/persistence/src/deliveries/payload-retention.ts: tenantRetentions
SELECT t.id AS tenant_id, COALESCE(s.delivery_payload_retention_days, $1)::int AS days
FROM tenants t LEFT JOIN tenant_delivery_settings s ON s.tenant_id = t.id ORDER BY t.id;

-- libs/persistence/src/deliveries/payload-retention.ts: purgeMessages
UPDATE alert_messages SET recipient = '{}'::jsonb, alerts = '[]'::json, payload_purged_at = now()
WHERE id = ANY($1::uuid[]) AND tenant_id = $2 AND payload_purged_at IS NULL RETURNING id;

-- libs/persistence/src/deliveries/payload-retention.ts: purgeTenantBatch.due
SELECT id FROM alert_messages WHERE tenant_id = $1 AND payload_purged_at IS NULL
  AND created_at < now() - $2::int * interval '1 day'
ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED;

-- libs/persistence/src/deliveries/payload-retention.ts: purgeTenantBatch
UPDATE webhook_deliveries d SET event = NULL,
      status = CASE WHEN d.status IN ${UNSENT_DELIVERY_STATUSES_SQL} THEN 'expired' ELSE d.status END,
      reason = CASE WHEN d.status IN ${UNSENT_DELIVERY_STATUSES_SQL} THEN 'payload_purged' ELSE d.reason END,
      due_at = CASE WHEN d.status IN ${UNSENT_DELIVERY_STATUSES_SQL} THEN NULL ELSE d.due_at END,
      finished_at = COALESCE(d.finished_at, now())
WHERE d.id IN (SELECT id FROM webhook_deliveries WHERE tenant_id = $1 AND event IS NOT NULL
                  AND created_at < now() - $2::int * interval '1 day'
                ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED)
RETURNING d.id, d.status;

-- libs/persistence/src/deliveries/payload-retention.ts: purgeTenantBatch
UPDATE webhook_delivery_attempts a SET response_excerpt = NULL
FROM webhook_deliveries d WHERE a.delivery_id = d.id AND d.id = ANY($1::uuid[]) AND d.tenant_id = $2 AND a.response_excerpt IS NOT NULL;

-- libs/persistence/src/deliveries/payload-retention.ts: expungeMessagePayload
SELECT payload_purged_at FROM alert_messages WHERE id = $1 AND tenant_id = $2 FOR UPDATE;

-- libs/persistence/src/deliveries/payload-retention.ts: expungeMessagePayload
SELECT payload_purged_at FROM alert_messages WHERE id = $1 AND tenant_id = $2;

-- libs/persistence/src/deliveries/payload-retention.ts: purgedMessageState
SELECT m.payload_purged_at IS NOT NULL AS purged,
     EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.message_id = m.id AND d.app_id::text = $3 AND d.status <> 'withheld') AS delivered_to_app
FROM alert_messages m WHERE m.id = $1 AND m.tenant_id = $2;

-- libs/persistence/src/deliveries/roster-event-deliveries.ts: INSERT_ROSTER_EVENTS_DELIVERY_SQL
INSERT INTO webhook_deliveries (id, tenant_id, app_id, webhook_id, message_id, kind, trigger, status, due_at, event_type, event)
SELECT gen_random_uuid(), $1::uuid, w.app_id, w.id, NULL, w.type, 'event', 'pending', now(), '${ROSTER_EVENTS_DELIVERY_TYPE}', $3::jsonb
  FROM webhooks w WHERE w.id = $2::uuid AND w.kind = 'roster-events' AND w.status = 'active'
RETURNING id;

-- libs/persistence/src/deliveries/webhook-deliveries.repository.ts: WebhookDeliveriesRepository.list
SELECT ${COLUMNS}, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_at FROM webhook_deliveries
WHERE tenant_id = $1 AND webhook_id = $2
  AND ($3::text IS NULL OR status = $3)
  AND ($4::timestamptz IS NULL OR (created_at, id) < ($4::timestamptz, $5::uuid))
ORDER BY created_at DESC, id DESC
LIMIT $6;

-- libs/persistence/src/deliveries/webhook-deliveries.repository.ts: WebhookDeliveriesRepository.find.rows
SELECT ${COLUMNS} FROM webhook_deliveries WHERE id = $1 AND tenant_id = $2 AND webhook_id = $3;

-- libs/persistence/src/deliveries/webhook-deliveries.repository.ts: WebhookDeliveriesRepository.createRedelivery.rows
INSERT INTO webhook_deliveries (id, tenant_id, app_id, webhook_id, message_id, kind, trigger, redelivery_of, status, due_at)
VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, 'redeliver', $6, 'pending', now())
RETURNING ${COLUMNS};

-- libs/persistence/src/deliveries/webhook-deliveries.repository.ts: WebhookDeliveriesRepository.createTest.rows
INSERT INTO webhook_deliveries (id, tenant_id, app_id, webhook_id, message_id, kind, trigger, status, due_at)
VALUES (gen_random_uuid(), $1, $2, $3, NULL, $4, 'test', 'pending', now())
RETURNING ${COLUMNS};

-- libs/persistence/src/deliveries/webhook-deliveries.repository.ts: WebhookDeliveriesRepository.fanOut.rows
WITH withheld AS (SELECT DISTINCT * FROM unnest($5::uuid[], $6::uuid[]) AS x(message_id, app_id))
INSERT INTO webhook_deliveries (id, tenant_id, app_id, webhook_id, message_id, kind, trigger, status, due_at, finished_at, reason)
SELECT gen_random_uuid(), $1, w.app_id, w.id, m.id, w.type, 'message',
       CASE WHEN h.app_id IS NULL THEN 'pending' ELSE 'withheld' END,
       CASE WHEN h.app_id IS NULL THEN now() END,
       CASE WHEN h.app_id IS NOT NULL THEN now() END,
       CASE WHEN h.app_id IS NOT NULL THEN 'not_shared' END
  FROM unnest($2::uuid[]) WITH ORDINALITY AS m(id, n)
 CROSS JOIN (
   SELECT w.id, w.app_id, w.type
     FROM webhooks w
     JOIN tenant_app_deployments d ON d.app_id = w.app_id AND d.tenant_id = $1
    WHERE d.scope && $3::text[] AND w.app_id = ANY($4::uuid[]) AND w.kind = 'alerts'
 ) w
  LEFT JOIN withheld h ON h.message_id = m.id AND h.app_id = w.app_id
 ORDER BY m.n, w.id
RETURNING id, message_id, status;

-- libs/persistence/src/deliveries/webhook-deliveries.repository.ts: WebhookDeliveriesRepository.fanOutSizes.rows
SELECT message_id, count(*)::int AS n FROM webhook_deliveries WHERE tenant_id = $1 AND message_id = ANY($2::uuid[]) AND trigger = 'message' AND status <> 'withheld' GROUP BY message_id;

-- libs/persistence/src/deliveries/webhook-deliveries.repository.ts: WebhookDeliveriesRepository.releaseHeld
UPDATE webhook_deliveries SET status = 'pending', reason = NULL, due_at = now()
WHERE webhook_id = $1 AND status = 'held'
RETURNING id, attempt_count;

-- libs/persistence/src/deliveries/webhook-events.ts: insertDisabledEvents.rows
INSERT INTO webhook_deliveries (id, tenant_id, app_id, webhook_id, message_id, kind, trigger, status, due_at, reason, event_type, event)
SELECT gen_random_uuid(), e.tenant_id, w.app_id, w.id, NULL, w.type, 'event',
       CASE WHEN w.status = 'disabled' THEN 'held' ELSE 'pending' END,
       CASE WHEN w.status = 'disabled' THEN NULL ELSE now() END,
       CASE WHEN w.status = 'disabled' THEN 'webhook_disabled' END,
       'endpoint.disabled', e.event
  FROM unnest($1::uuid[], $2::uuid[], $3::jsonb[]) WITH ORDINALITY AS e(app_id, tenant_id, event, n)
  JOIN webhooks w ON w.app_id = e.app_id
 ORDER BY e.n, w.id
RETURNING id;

-- libs/persistence/src/deliveries/webhook-health.ts: updateWebhookHealth
WITH h AS (SELECT * FROM unnest($1::uuid[], $2::bool[], $3::timestamptz[], $4::int[], $5::bool[], $6::uuid[])
             AS h(id, delivered, first_failure, undeliverable, gone, tenant_id)),
     locked AS (SELECT w.id FROM webhooks w JOIN h ON h.id = w.id
                 WHERE w.status = 'active' AND (NOT h.delivered OR w.failing_since IS NOT NULL OR w.consecutive_undeliverable > 0)
                 ORDER BY w.id FOR UPDATE OF w)
UPDATE webhooks w SET
  failing_since = CASE WHEN h.delivered THEN NULL ELSE COALESCE(w.failing_since, h.first_failure) END,
  consecutive_undeliverable = CASE WHEN h.delivered THEN 0 ELSE w.consecutive_undeliverable + h.undeliverable END
  FROM h JOIN locked l ON l.id = h.id WHERE w.id = h.id;

-- libs/persistence/src/deliveries/webhook-health.ts: disableDead
WITH h AS (SELECT * FROM unnest($1::uuid[], $2::bool[], $3::timestamptz[], $4::int[], $5::bool[], $6::uuid[])
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
 RETURNING w.id, w.app_id, w.endpoint, w.failing_since, w.consecutive_undeliverable, w.disabled_reason, w.disabled_at, h.tenant_id;
