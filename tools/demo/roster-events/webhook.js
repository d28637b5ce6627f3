// The roster change feed pushed in the demo: Class Roster Sync (demo-roster-sync, Lion City) keeps a
// roster-events webhook at the demo receiver, registered through the alerts API as a partner would.
// Idempotent: a webhook already there is kept, or moved when the receiver's port changed.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { clientToken, jsonCall, describe, PlatformError } = require('../alerts/http');

const DEMO_FILE = path.resolve(__dirname, '..', '..', 'provision', 'demo.json');
const CLIENT_ID = 'demo-roster-sync';
const TENANT_ID = '9b8e7d6c-5a4f-4321-8fed-cba987654302';
/** Where the demo receiver takes this app's roster events. */
const RECEIVER_PATH = '/webhooks/class-roster-sync/roster-events';

/** The demo app whose changes are pushed, from the demo data set. */
function demoRosterEventsConfig() {
  const demo = JSON.parse(fs.readFileSync(DEMO_FILE, 'utf8'));
  const app = (demo.apps || []).find((a) => a.client_id === CLIENT_ID);
  const tenant = (demo.tenants || []).find((t) => t.id === TENANT_ID);
  if (!app || !tenant) throw new Error(`the demo data set has no ${CLIENT_ID} app or tenant ${TENANT_ID}`);
  return {
    app: { id: app.id, name: app.name, clientId: app.client_id, clientSecret: app.client_secret },
    tenant: { id: tenant.id, name: tenant.name },
    path: RECEIVER_PATH,
  };
}

const onThisMachine = (endpoint) => {
  try {
    const u = new URL(endpoint);
    return u.pathname === RECEIVER_PATH && ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname);
  } catch {
    return false;
  }
};

/** Makes sure the demo app has its roster-events webhook at `receiverUrl`; resolves { webhook_id, endpoint, action }. */
async function registerRosterEventsWebhook({ identityUrl, alertsUrl, receiverUrl, config = demoRosterEventsConfig() }) {
  const token = await clientToken(
    identityUrl,
    { id: config.app.clientId, secret: config.app.clientSecret },
    { tenant_id: config.tenant.id },
  );
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const endpoint = `${receiverUrl.replace(/\/+$/, '')}${config.path}`;
  const listed = await jsonCall('alerts', `${alertsUrl}/v2/alerts/webhook`, { headers });
  if (listed.status !== 200 || !Array.isArray(listed.body))
    throw new PlatformError(
      `cannot list the webhooks of ${config.app.name} (HTTP ${listed.status}: ${describe(listed.body)})`,
    );
  const existing = listed.body.find((h) => h.kind === 'roster-events' && onThisMachine(h.endpoint));
  if (existing && existing.endpoint === endpoint) return { webhook_id: existing.webhook_id, endpoint, action: 'kept' };
  const res = existing
    ? await jsonCall('alerts', `${alertsUrl}/v2/alerts/webhook/${existing.webhook_id}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ endpoint }),
      })
    : await jsonCall('alerts', `${alertsUrl}/v2/alerts/webhook`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ endpoint, kind: 'roster-events' }),
      });
  if (res.status !== 200 || !res.body || !res.body.success)
    throw new PlatformError(
      `cannot register the roster-events webhook ${endpoint} for ${config.app.name} (HTTP ${res.status}: ${describe(res.body)})`,
    );
  return { webhook_id: res.body.webhook_id, endpoint, action: existing ? 'moved' : 'created' };
}

module.exports = { demoRosterEventsConfig, registerRosterEventsWebhook };
