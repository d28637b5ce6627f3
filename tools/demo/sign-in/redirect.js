// Makes sure the demo partner app's redirect URI is one of the app's `redirect_uris` (the
// identity service accepts exactly those): demo.json registers the default port's; when
// DEMO_PARTNER_PORT moves it, the operator adds the new one over the Identity API. Idempotent.
'use strict';
const { clientToken, jsonCall, describe, PlatformError } = require('../alerts/http');

async function ensureRedirectUri({ identityUrl, appId, redirectUri, operator }) {
  const token = await clientToken(identityUrl, operator);
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const got = await jsonCall('identity', `${identityUrl}/apps/${appId}`, { headers });
  // The read answers a one-element array (the spec's shape for reads by id).
  const app = Array.isArray(got.body) ? got.body[0] : got.body;
  if (got.status !== 200 || !app || !app.oauth2)
    throw new PlatformError(`cannot read app ${appId} (HTTP ${got.status}: ${describe(got.body)})`);
  const uris = app.oauth2.redirect_uris || [];
  if (uris.includes(redirectUri)) return 'kept';
  const body = JSON.stringify({ oauth2: { ...app.oauth2, redirect_uris: [...uris, redirectUri] } });
  const res = await jsonCall('identity', `${identityUrl}/apps/${appId}`, { method: 'PATCH', headers, body });
  if (res.status !== 200)
    throw new PlatformError(`cannot add ${redirectUri} to app ${appId} (HTTP ${res.status}: ${describe(res.body)})`);
  return 'added';
}

module.exports = { ensureRedirectUri };
