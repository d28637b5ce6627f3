// The demo's data sharing: Lion City shares only its three Mathematics classes with the demo app
// Maths Quest and withholds contact details, set through the Identity API by the school's admin
// console app, as a school would (a draft, then its activation). Idempotent: a sharing already
// in force as wanted is kept.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { clientToken, jsonCall, describe, PlatformError } = require('../alerts/http');

const CONFIG_FILE = path.join(__dirname, 'demo-sharing.json');

function demoSharingConfig() {
  return JSON.parse(fs.readFileSync(CONFIG_FILE, 'utf8'));
}

/** The same sharing, whatever the order of its lists. */
function sameSharing(active, wanted) {
  const norm = (s) =>
    JSON.stringify({
      mode: s.mode,
      classes: [...(s.classes ?? [])].sort(),
      schools: [...(s.schools ?? [])].sort(),
      withhold: [...(s.withhold ?? [])].sort(),
    });
  return (active.rules ?? []).length === 0 && norm(active) === norm(wanted);
}

/** Makes the demo sharing the one in force; resolves 'kept' or 'activated'. */
async function shareDemoData({ identityUrl, config = demoSharingConfig() }) {
  const token = await clientToken(
    identityUrl,
    { id: config.admin.client_id, secret: config.admin.client_secret },
    { tenant_id: config.tenant_id },
  );
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const url = `${identityUrl}/tenants/${config.tenant_id}/apps/${config.app.id}/sharing`;
  const current = await jsonCall('identity', url, { headers });
  if (current.status !== 200)
    throw new PlatformError(`cannot read the sharing (HTTP ${current.status}: ${describe(current.body)})`);
  if (sameSharing(current.body.active, config.sharing)) return 'kept';
  const draft = await jsonCall('identity', url, { method: 'PUT', headers, body: JSON.stringify(config.sharing) });
  if (draft.status !== 200)
    throw new PlatformError(`cannot save the draft (HTTP ${draft.status}: ${describe(draft.body)})`);
  const active = await jsonCall('identity', `${url}/activate`, { method: 'POST', headers });
  if (active.status !== 200)
    throw new PlatformError(`cannot activate it (HTTP ${active.status}: ${describe(active.body)})`);
  return 'activated';
}

module.exports = { shareDemoData, demoSharingConfig };
