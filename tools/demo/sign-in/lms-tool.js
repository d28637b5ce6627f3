// Connects the demo LMS to Lion City at npm start, as the school's admin would (the guide
// docs/operators/connecting-your-lms.md does the same with curl): the school's `lti1.3` identity
// provider for the LMS (added once, moved when DEMO_LMS_PORT moves), allowed to its students and
// staff, and the tool registered at the LMS (the login initiation URL and the partner app's launch URL).
'use strict';
const { clientToken, jsonCall, describe, PlatformError } = require('../alerts/http');
const { ltiSettingsFor, demoLmsConfig } = require('./lms');

const BUTTON =
  '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="40"><rect width="240" height="40" rx="4" fill="#2d5f2e"/><text x="120" y="25" font-family="sans-serif" font-size="14" text-anchor="middle" fill="#ffffff">Demo LMS</text></svg>';
const CONSTITUENCIES = ['student', 'staff'];

async function ltiProvider(call, lmsUrl, lms) {
  const wanted = ltiSettingsFor(lmsUrl, lms);
  const list = await call('GET', '/identity-providers');
  const found = (list.body || []).find((p) => p.type === 'lti1.3' && p.lti && p.lti.client_id === lms.client_id);
  if (found && Object.keys(wanted).every((k) => found.lti[k] === wanted[k])) return found.id;
  const res = found
    ? await call('PATCH', `/identity-providers/${found.id}`, { lti: wanted })
    : await call('POST', '/identity-providers', {
        type: 'lti1.3',
        provision_just_in_time: false,
        button_graphic: BUTTON,
        lti: wanted,
      });
  if (res.status !== 200 && res.status !== 201)
    throw new PlatformError(`cannot set up the LMS's identity provider (HTTP ${res.status}: ${describe(res.body)})`);
  return found ? found.id : res.body.id;
}

async function allow(call, tenantId, providerId) {
  const list = await call('GET', `/tenants/${tenantId}/constituencies`);
  for (const c of (list.body || []).filter(
    (x) => CONSTITUENCIES.includes(x.id) && !x.allowed_identity_providers.includes(providerId),
  )) {
    const res = await call('PATCH', `/tenants/${tenantId}/constituencies/${c.id}`, {
      allowed_identity_providers: [...c.allowed_identity_providers, providerId],
    });
    if (res.status !== 200)
      throw new PlatformError(`cannot allow the LMS to ${c.id} (HTTP ${res.status}: ${describe(res.body)})`);
  }
}

/** Returns the launch page of the demo LMS once the school and the LMS know each other. */
async function connectDemoLms({ identityUrl, lmsUrl, partnerUrl, config }) {
  const lms = demoLmsConfig();
  const token = await clientToken(identityUrl, config.schoolProvider.admin, { tenant_id: config.tenant.id });
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  const call = (method, path, body) =>
    jsonCall('identity', `${identityUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const providerId = await ltiProvider(call, lmsUrl, lms);
  await allow(call, config.tenant.id, providerId);
  const tool = { login_url: `${identityUrl}/signin/lti/${providerId}/login`, target_link_uri: `${partnerUrl}/login` };
  const res = await jsonCall('demo LMS', `${lmsUrl}/tool`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(tool),
  });
  if (res.status !== 200)
    throw new PlatformError(`cannot register the tool at the demo LMS (HTTP ${res.status}: ${describe(res.body)})`);
  return { providerId, launchPage: `${lmsUrl}/` };
}

module.exports = { connectDemoLms };
