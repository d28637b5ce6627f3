// Points the demo SAML app of demo.json (Lion City Digital Library) at the demo SAML service
// provider on this machine: the operator writes its entity id, reply URL, sign-on and sign-out
// URLs and metadata over the Identity API (demo.json holds the library's real addresses, which
// do not exist here). Idempotent: an app already pointing there is kept.
'use strict';
const { clientToken, jsonCall, describe, PlatformError } = require('../alerts/http');
const { spMetadata, spSettings } = require('./saml-sp');

const DEMO_SAML_APP_ID = 'd4e5f6a7-b8c9-4d0e-9f2a-3b4c5d6e7f08';

async function pointSamlAppAt({ identityUrl, spUrl, operator, appId = DEMO_SAML_APP_ID }) {
  const token = await clientToken(identityUrl, operator);
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const got = await jsonCall('identity', `${identityUrl}/apps/${appId}`, { headers });
  const app = Array.isArray(got.body) ? got.body[0] : got.body;
  if (got.status !== 200 || !app || !app.saml)
    throw new PlatformError(`cannot read SAML app ${appId} (HTTP ${got.status}: ${describe(got.body)})`);
  const wanted = { ...app.saml, ...spSettings(spUrl), metadata_xml: spMetadata(spUrl) };
  const same = ['entity_id', 'reply_url', 'sign_out_url', 'metadata_url'].every((k) => app.saml[k] === wanted[k]);
  if (same) return { action: 'kept', name: app.name };
  const res = await jsonCall('identity', `${identityUrl}/apps/${appId}`, {
    method: 'PATCH',
    headers,
    body: JSON.stringify({ saml: wanted }),
  });
  if (res.status !== 200)
    throw new PlatformError(`cannot point SAML app ${appId} at ${spUrl} (HTTP ${res.status}: ${describe(res.body)})`);
  return { action: 'moved', name: app.name };
}

module.exports = { pointSamlAppAt, DEMO_SAML_APP_ID };
