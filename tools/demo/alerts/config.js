// Where the alerts demo finds things: the demo partner app and tenant (demo-alerts.json, with
// names and credentials taken from tools/provision/demo.json) and the local URLs, which follow
// the same variables as `npm start` (IDENTITY_PORT, ALERTS_PORT, DEMO_RECEIVER_PORT, PG_PORT,
// DATABASE_URL).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const DEMO_FILE = path.join(ROOT, 'tools/provision/demo.json');

const DEFAULT_PORTS = { identity: 3000, alerts: 3002, receiver: 3010, postgres: 54329 };
const DATABASE_NAME = 'edu_platform';
const DEMO_OPERATOR = { id: 'operator', secret: 'demo-operator-secret-not-for-production' };

function portFrom(env, name, fallback) {
  const v = env[name];
  return v ? Number(v) : fallback;
}

/** The demo partner app (id, name, client credentials), its tenant and the webhooks it gets. */
function demoAlertsConfig() {
  const demo = JSON.parse(fs.readFileSync(DEMO_FILE, 'utf8'));
  const own = JSON.parse(fs.readFileSync(path.join(__dirname, 'demo-alerts.json'), 'utf8'));
  const app = (demo.apps || []).find((a) => a.id === own.app_id);
  const tenant = (demo.tenants || []).find((t) => t.id === own.tenant_id);
  if (!app || !tenant)
    throw new Error(
      `demo-alerts.json names app ${own.app_id} and tenant ${own.tenant_id}; ${path.relative(ROOT, DEMO_FILE)} must hold both`,
    );
  return {
    tenant: { id: tenant.id, name: tenant.name },
    app: { id: app.id, name: app.name, clientId: app.client_id, clientSecret: app.client_secret },
    webhooks: own.webhooks,
    /** Every app of the demo data set, by id: the audiences the demo receiver accepts. */
    knownApps: new Map((demo.apps || []).map((a) => [a.id, a.name])),
  };
}

/** URLs and credentials of the local platform, from the same variables `npm start` reads. */
function localPlatform(env = process.env) {
  const identity = env.IDENTITY_URL || `http://localhost:${portFrom(env, 'IDENTITY_PORT', DEFAULT_PORTS.identity)}`;
  const alerts = env.ALERTS_URL || `http://localhost:${portFrom(env, 'ALERTS_PORT', DEFAULT_PORTS.alerts)}`;
  const receiverPort = portFrom(env, 'DEMO_RECEIVER_PORT', DEFAULT_PORTS.receiver);
  return {
    identityUrl: identity.replace(/\/+$/, ''),
    alertsUrl: alerts.replace(/\/+$/, ''),
    receiverPort,
    receiverUrl: `http://localhost:${receiverPort}`,
    databaseUrl:
      env.DATABASE_URL ||
      `postgres://postgres@127.0.0.1:${portFrom(env, 'PG_PORT', DEFAULT_PORTS.postgres)}/${DATABASE_NAME}`,
    operator: {
      id: env.OPERATOR_CLIENT_ID || DEMO_OPERATOR.id,
      secret: env.OPERATOR_CLIENT_SECRET || DEMO_OPERATOR.secret,
    },
  };
}

module.exports = { demoAlertsConfig, localPlatform, DEFAULT_PORTS, DATABASE_NAME, DEMO_OPERATOR };
