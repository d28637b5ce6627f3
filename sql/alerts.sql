-- Hand-written SQL of apps/alerts/src (node tools/sql/hand-written-sql.js --write)

-- apps/alerts/src/alerts.module.ts: AlertsModule.forRoot
SELECT 1;

-- apps/alerts/src/messages/alert-message.repository.ts: AlertMessageRepository.insertNew.inserted
INSERT INTO alert_messages (id, tenant_id, transaction_id, recipient, alerts, alert_count)
SELECT t.id, $1, t.transaction_id, t.recipient, t.alerts, t.alert_count
  FROM unnest($2::uuid[], $3::text[], $4::jsonb[], $5::json[], $6::int[]) AS t(id, transaction_id, recipient, alerts, alert_count)
ON CONFLICT (tenant_id, transaction_id) DO NOTHING
RETURNING id, transaction_id;

-- apps/alerts/src/messages/alert-message.repository.ts: AlertMessageRepository.recordFetch
INSERT INTO alert_message_fetches (message_id, app_id)
SELECT m.id, $3 FROM alert_messages m WHERE m.id = $1 AND m.tenant_id = $2
ON CONFLICT DO NOTHING;

-- apps/alerts/src/messages/alert-message.repository.ts: AlertMessageRepository.findWithCounts.rows
SELECT m.id, m.transaction_id, m.method, m.recipient, m.alerts, m.alert_count, c.open_deliveries, c.delivered_deliveries, c.fetching_apps
 FROM alert_messages m
CROSS JOIN LATERAL (${messageCountsSql('m.id')}) c
WHERE m.id = $1 AND m.tenant_id = $2;

-- apps/alerts/src/portal/portal-sessions.ts: PortalSessions.open
UPDATE alert_portal_sessions SET opened_at = now(), session_hash = $2
WHERE id = $1 AND opened_at IS NULL AND expires_at > now() RETURNING expires_at;

-- apps/alerts/src/sharing/alert-sharing.repository.ts: AlertSharingRepository.receivingDeployments
SELECT d.id, d.app_id FROM tenant_app_deployments d
WHERE d.tenant_id = $1 AND d.scope && $2::text[] AND EXISTS (SELECT 1 FROM webhooks w WHERE w.app_id = d.app_id AND w.kind = 'alerts');

-- apps/alerts/src/sharing/alert-sharing.repository.ts: AlertSharingRepository.deploymentOf.rows
SELECT id FROM tenant_app_deployments WHERE tenant_id = $1 AND app_id = $2;

-- apps/alerts/src/sharing/alert-sharing.repository.ts: AlertSharingRepository.peopleOf.rows
SELECT ARRAY(SELECT COALESCE(m.recipient->>'ext_id', '')
           UNION SELECT COALESCE(a->'entity'->>'ext_id', '')
             FROM json_array_elements(m.alerts) AS g, json_array_elements(g->'alerts') AS a) AS people
FROM alert_messages m WHERE m.id = $1 AND m.tenant_id = $2;

-- apps/alerts/src/webhooks/webhook.repository.ts: WebhookRepository.rotateSecret
UPDATE webhooks SET
  previous_signing_secret = CASE WHEN $4::int > 0 THEN signing_secret END,
  previous_secret_expires_at = CASE WHEN $4::int > 0 AND signing_secret IS NOT NULL THEN now() + $4::int * interval '1 second' END,
  signing_secret = $3, updated_at = now()
WHERE id = $1 AND app_id = $2
RETURNING previous_secret_expires_at;

-- apps/alerts/src/webhooks/webhook.repository.ts: WebhookRepository.enable
UPDATE webhooks SET status = 'active', disabled_reason = NULL, disabled_at = NULL,
      failing_since = NULL, consecutive_undeliverable = 0, updated_at = now()
WHERE id = $1 AND app_id = $2 AND status = 'disabled' RETURNING id;
