// The sign-in demo of `npm start`: a demo upstream provider (standing in for a school's Google and
// Microsoft) and a demo partner app signing people in through the identity service.
// demo-sign-in.json names the partner app and tenant of tools/provision/demo.json, the demo
// provider's clients (the core providers' and one for a tenant's own provider; local demo
// secrets) and the demo people; names come from demo.json.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..', '..');
const DEMO_FILE = path.join(ROOT, 'tools/provision/demo.json');

/** Beside identity (3000-3003) and the demo webhook receiver (3010). */
const DEFAULT_PORTS = { identity: 3000, upstream: 3011, partner: 3012, lms: 3013, samlSp: 3014 };
/** Where the demo partner app receives the answer (registered on the app in demo.json). */
const CALLBACK_PATH = '/auth/callback';

/** Client credentials of the tenant's own admin app (it may change the tenant's providers). */
function adminOf(demo, appId) {
  const app = (demo.apps || []).find((a) => a.id === appId);
  if (!app)
    throw new Error(`demo-sign-in.json names admin app ${appId}; ${path.relative(ROOT, DEMO_FILE)} must hold it`);
  return { id: app.client_id, secret: app.client_secret };
}

function demoSignInConfig() {
  const demo = JSON.parse(fs.readFileSync(DEMO_FILE, 'utf8'));
  const own = JSON.parse(fs.readFileSync(path.join(__dirname, 'demo-sign-in.json'), 'utf8'));
  const app = (demo.apps || []).find((a) => a.id === own.app_id);
  const tenant = (demo.tenants || []).find((t) => t.id === own.tenant_id);
  if (!app || !tenant)
    throw new Error(
      `demo-sign-in.json names app ${own.app_id} and tenant ${own.tenant_id}; ${path.relative(ROOT, DEMO_FILE)} must hold both`,
    );
  const users = new Map((demo.users || []).map((u) => [u.email.toLowerCase(), u]));
  const people = own.people.map((p) => ({
    sub: p.sub,
    email: p.email,
    email_verified: true,
    name: p.name || (users.get(p.email.toLowerCase()) || {}).name || p.email,
    note: p.note,
  }));
  return {
    app: {
      id: app.id,
      name: app.name,
      clientId: app.client_id,
      clientSecret: app.client_secret,
      redirectUris: app.oauth2.redirect_uris,
    },
    tenant: { id: tenant.id, name: tenant.name },
    upstreamClients: own.upstream_clients,
    /** A client for a tenant's own provider pointing at the demo provider (the operator guide adds one). */
    schoolClient: own.school_client,
    /** The demo tenant's own provider, pointed at the demo provider at start (a public client: PKCE, no secret). */
    schoolProvider: {
      id: own.school_provider.id,
      clientId: own.school_provider.client_id,
      admin: adminOf(demo, own.school_provider.admin_app_id),
    },
    people,
  };
}

/**
 * The identity service's core providers (SIGNIN_GOOGLE_* and SIGNIN_MICROSOFT_*) pointing at the
 * demo upstream, except for a provider the caller configured already (theirs wins).
 */
function identitySignInEnv(upstreamUrl, env = process.env, config = demoSignInConfig()) {
  const out = {};
  for (const [id, client] of Object.entries(config.upstreamClients)) {
    const key = `SIGNIN_${id.toUpperCase()}`;
    if (env[`${key}_ISSUER`]) continue;
    Object.assign(out, {
      [`${key}_ISSUER`]: upstreamUrl,
      [`${key}_CLIENT_ID`]: client.client_id,
      [`${key}_CLIENT_SECRET`]: client.client_secret,
    });
  }
  return out;
}

module.exports = { DEFAULT_PORTS, CALLBACK_PATH, demoSignInConfig, identitySignInEnv };
