// Points the demo tenant's own identity provider (Lion City's SSO in tools/provision/demo.json,
// whose real URLs do not exist) at the demo upstream provider, as the school's admin would: with
// the school's admin app over the Identity API. Idempotent; follows a moved DEMO_UPSTREAM_PORT.
'use strict';
const { clientToken, jsonCall, describe, PlatformError } = require('../alerts/http');

function settingsFor(upstreamUrl, clientId) {
  return {
    client_id: clientId,
    authorization_url: `${upstreamUrl}/auth`,
    token_url: `${upstreamUrl}/token`,
    jwks_url: `${upstreamUrl}/jwks`,
    oidc_discovery: `${upstreamUrl}/.well-known/openid-configuration`,
    scope: ['openid', 'email', 'profile'],
  };
}

async function pointSchoolProviderAt({ identityUrl, upstreamUrl, config }) {
  const { id, clientId, admin } = config.schoolProvider;
  const token = await clientToken(identityUrl, admin, { tenant_id: config.tenant.id });
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const got = await jsonCall('identity', `${identityUrl}/identity-providers/${id}`, { headers });
  const current = Array.isArray(got.body) && got.body[0] && got.body[0].oauth2;
  if (got.status !== 200 || !current)
    throw new PlatformError(`cannot read identity provider ${id} (HTTP ${got.status}: ${describe(got.body)})`);
  const wanted = settingsFor(upstreamUrl, clientId);
  if (Object.keys(wanted).every((k) => JSON.stringify(current[k]) === JSON.stringify(wanted[k]))) return 'kept';
  const res = await jsonCall('identity', `${identityUrl}/identity-providers/${id}`, {
    method: 'PATCH',
    headers,
    body: JSON.stringify({ oauth2: wanted }),
  });
  if (res.status !== 200)
    throw new PlatformError(
      `cannot point identity provider ${id} at ${upstreamUrl} (HTTP ${res.status}: ${describe(res.body)})`,
    );
  return 'moved';
}

module.exports = { pointSchoolProviderAt };
