// Registers the demo partner app's webhooks at the demo receiver through the alerts API, as a
// partner would (a tenant-context token of the app, `POST /v2/alerts/webhook`). Idempotent:
// a demo webhook already there is kept, or moved when the receiver's port changed.
'use strict';
const { clientToken, jsonCall, describe, PlatformError } = require('./http');

/** Same webhook when it points at the same path on this machine and has the same type. */
function isDemoWebhook(hook, wanted) {
  try {
    const u = new URL(hook.endpoint);
    return (
      hook.type === wanted.type &&
      u.pathname === wanted.path &&
      ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname)
    );
  } catch {
    return false;
  }
}

/**
 * Makes sure the demo app has one webhook per entry of `config.webhooks` at `receiverUrl`.
 * Resolves [{ webhook_id, type, endpoint, action: 'kept' | 'created' | 'moved' }].
 */
async function registerDemoWebhooks({ identityUrl, alertsUrl, receiverUrl, config }) {
  const token = await clientToken(
    identityUrl,
    { id: config.app.clientId, secret: config.app.clientSecret },
    { tenant_id: config.tenant.id },
  );
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const listed = await jsonCall('alerts', `${alertsUrl}/v2/alerts/webhook`, { headers });
  if (listed.status !== 200 || !Array.isArray(listed.body))
    throw new PlatformError(
      `cannot list the webhooks of ${config.app.name} (HTTP ${listed.status}: ${describe(listed.body)})`,
    );
  const results = [];
  for (const wanted of config.webhooks) {
    const endpoint = `${receiverUrl.replace(/\/+$/, '')}${wanted.path}`;
    const existing = listed.body.find((h) => isDemoWebhook(h, wanted));
    if (existing && existing.endpoint === endpoint) {
      results.push({ webhook_id: existing.webhook_id, type: wanted.type, endpoint, action: 'kept' });
      continue;
    }
    const res = existing
      ? await jsonCall('alerts', `${alertsUrl}/v2/alerts/webhook/${existing.webhook_id}`, {
          method: 'PATCH',
          headers,
          body: JSON.stringify({ endpoint }),
        })
      : await jsonCall('alerts', `${alertsUrl}/v2/alerts/webhook`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ endpoint, type: wanted.type }),
        });
    if (res.status !== 200 || !res.body || !res.body.success) {
      throw new PlatformError(
        `cannot register the ${wanted.type} webhook ${endpoint} for ${config.app.name} (HTTP ${res.status}: ${describe(res.body)})`,
      );
    }
    results.push({
      webhook_id: res.body.webhook_id,
      type: wanted.type,
      endpoint,
      action: existing ? 'moved' : 'created',
    });
  }
  return results;
}

module.exports = { registerDemoWebhooks };
