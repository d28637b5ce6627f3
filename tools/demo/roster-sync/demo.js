// The roster sync demo of `npm start`: a second demo tenant whose roster comes from the first demo
// tenant's own OneRoster API (a SIS stand-in) on a schedule, and an SFTP drop for Lion City.
// Everything goes through the Identity API and the roster sources API as an operator would, and
// a second start keeps what the first one made (or points it at moved ports).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const OPERATOR_ID = process.env.OPERATOR_CLIENT_ID || 'operator';
const OPERATOR_SECRET = process.env.OPERATOR_CLIENT_SECRET || 'demo-operator-secret-not-for-production';

const MIRROR = {
  name: 'Harbour View Mirror (sync demo)',
  customer_id: 100090,
  govt_id: 'NSW-4521-SYNC',
  region: 'AU-NSW',
  licences: ['data-operations'],
  root_org_sourced_id: 'org-aunsw-school-1',
};
const SIS = {
  clientId: 'demo-harbourview-oneroster',
  clientSecret: 'demo-harbourview-oneroster-secret-not-for-production',
};
const LION_CITY = '9b8e7d6c-5a4f-4321-8fed-cba987654302';
const SFTP = { username: 'lioncity-sis', password: 'demo-sftp-password-not-for-production' };

async function json(res, what) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}

async function operatorToken(identityUrl) {
  const res = await fetch(`${identityUrl}/oauth/token`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`${OPERATOR_ID}:${OPERATOR_SECRET}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  return (await json(res, 'operator token')).access_token;
}

function api(base, token) {
  return async (method, url, body) =>
    json(
      await fetch(`${base}${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      }),
      `${method} ${url}`,
    );
}

/** The mirror tenant, created once. */
async function mirrorTenant(identity) {
  const tenants = await identity('GET', '/tenants');
  const found = tenants.find((t) => t.name === MIRROR.name);
  return found
    ? { id: found.id, action: 'kept' }
    : { id: (await identity('POST', '/tenants', MIRROR)).id, action: 'created' };
}

/** A source of the tenant like `wanted` (by type and name): created, or changed where it differs. */
async function ensureSource(roster, tenantId, wanted, compare) {
  const { sources } = await roster('GET', `/admin/tenants/${tenantId}/roster-sources`);
  const found = sources.find((s) => s.type === wanted.type && s.name === wanted.name);
  if (!found)
    return {
      source: (await roster('POST', `/admin/tenants/${tenantId}/roster-sources`, wanted)).source,
      action: 'created',
    };
  const changes = Object.fromEntries(compare.filter((k) => found[k] !== wanted[k]).map((k) => [k, wanted[k]]));
  if (Object.keys(changes).length === 0) return { source: found, action: 'kept' };
  const { client_secret, password } = wanted;
  const body = { ...changes, ...(client_secret ? { client_secret } : {}), ...(password ? { password } : {}) };
  return {
    source: (await roster('PATCH', `/admin/tenants/${tenantId}/roster-sources/${found.id}`, body)).source,
    action: 'updated',
  };
}

/**
 * Sets the demo up and returns the banner's lines. The API source's hourly schedule fires once at
 * creation, so the mirror is filled at the first start.
 */
async function prepareRosterSyncDemo({ identityUrl, onerosterUrl, sftpPort, log }) {
  const token = await operatorToken(identityUrl);
  const identity = api(identityUrl, token);
  const roster = api(onerosterUrl, token);
  const mirror = await mirrorTenant(identity);
  const rest = await ensureSource(
    roster,
    mirror.id,
    {
      type: 'oneroster-rest',
      name: 'Harbour View SIS (demo)',
      version: '1.1',
      base_url: `${onerosterUrl}/ims/oneroster/v1p1`,
      token_url: `${identityUrl}/oauth/token`,
      client_id: SIS.clientId,
      client_secret: SIS.clientSecret,
      schedule: { interval_minutes: 60 },
    },
    ['base_url', 'token_url'],
  );
  const sftp = await ensureSource(
    roster,
    LION_CITY,
    {
      type: 'sftp',
      name: 'Lion City SFTP drop (demo)',
      username: SFTP.username,
      password: SFTP.password,
      stable_seconds: 5,
    },
    [],
  );
  log(
    `roster sync demo: tenant ${MIRROR.name} ${mirror.action}, its API source ${rest.action}, Lion City's SFTP drop ${sftp.action}`,
  );
  return bannerLines({ onerosterUrl, identityUrl, sftpPort, mirrorId: mirror.id, sourceId: rest.source.id });
}

function bannerLines({ onerosterUrl, sftpPort, mirrorId, sourceId }) {
  const pkg = path.join('tools/demo/oneroster', LION_CITY);
  return [
    `# roster syncs: "${MIRROR.name}" pulls Harbour View's OneRoster API every hour (with an operator TOKEN from above):`,
    `curl -s -H "Authorization: Bearer $TOKEN" ${onerosterUrl}/admin/tenants/${mirrorId}/roster-syncs`,
    `curl -s -X POST -H "Authorization: Bearer $TOKEN" ${onerosterUrl}/admin/tenants/${mirrorId}/roster-sources/${sourceId}/sync`,
    `# and Lion City's SFTP drop: put a OneRoster CSV package there (password ${SFTP.password}); it is imported`,
    `# within a minute and archived with its report (ls archive); the syncs: .../admin/tenants/${LION_CITY}/roster-syncs`,
    `cd ${pkg} && sftp -P ${sftpPort} ${SFTP.username}@localhost   # then: put *.csv`,
  ];
}

/** The SFTP endpoint's host key, made once under `dir` (kept across starts, so clients know it). */
function demoHostKeyFile(dir) {
  const file = path.join(dir, 'sftp-host-key');
  if (!fs.existsSync(file)) {
    const { utils } = require('ssh2');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, utils.generateKeyPairSync('ed25519').private, { mode: 0o600 });
  }
  return file;
}

module.exports = { prepareRosterSyncDemo, demoHostKeyFile, SFTP, MIRROR };
