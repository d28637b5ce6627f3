#!/usr/bin/env node
// The demo upstream provider: a real OpenID Connect provider (oidc-provider) standing in for a
// school's Google and Microsoft, with the demo people of demo-sign-in.json. Its login page lists
// them; picking one signs them in (no password: a demo). `npm start` runs it; alone:
// `node tools/demo/sign-in/upstream.js` (DEMO_UPSTREAM_PORT, IDENTITY_PORT as for npm start).
'use strict';
const { generateKeyPairSync } = require('node:crypto');
const http = require('node:http');
const { memoryAdapterFactory } = require('./memory-adapter');
const { escapeHtml, page, send, readForm } = require('./html');
const { DEFAULT_PORTS, demoSignInConfig } = require('./config');
const { listenOn, mainListenTarget } = require('../listen');

const LABELS = { google: 'Google', microsoft: 'Microsoft' };

function providerOptions({ clients, people, identityUrl }) {
  const jwk = {
    ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }),
    kid: 'demo-upstream-1',
    alg: 'ES256',
    use: 'sig',
  };
  const bySub = new Map(people.map((p) => [p.sub, p]));
  return {
    adapter: memoryAdapterFactory(),
    clients: clients.map((c) => ({
      client_id: c.client_id,
      // A client without a secret is public: PKCE only (as a school's provider may register the platform).
      ...(c.client_secret ? { client_secret: c.client_secret } : { token_endpoint_auth_method: 'none' }),
      redirect_uris: [`${identityUrl}/signin/callback`],
      id_token_signed_response_alg: 'ES256',
    })),
    jwks: { keys: [jwk] },
    // Local demo value: signs this provider's own cookies.
    cookies: { keys: ['demo-upstream-cookie-key-not-for-production'] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // The claims go into the ID token, as Google and Microsoft do.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    pkce: { required: () => true },
    findAccount: async (_ctx, sub) => {
      const p = bySub.get(sub);
      return (
        p && {
          accountId: sub,
          claims: async () => ({ sub, email: p.email, email_verified: p.email_verified, name: p.name }),
        }
      );
    },
    interactions: { url: (_ctx, i) => `/interaction/${i.uid}` },
  };
}

/** The login page: one button per demo person. */
function loginPage({ uid, provider, people }) {
  const items = people.map(
    (
      p,
    ) => `<li><form method="post" action="/interaction/${escapeHtml(uid)}/login"><input type="hidden" name="sub" value="${escapeHtml(p.sub)}">
<button type="submit">Sign in as ${escapeHtml(p.name)}</button> <small>${escapeHtml(p.email)}: ${escapeHtml(p.note || '')}</small></form></li>`,
  );
  return page(
    `Demo ${provider} sign-in`,
    `<h1>Demo ${escapeHtml(provider)} sign-in</h1>
<p class="note">A demo provider on this machine, standing in for a school's Google or Microsoft account. No passwords: pick a demo person.</p>
<ul class="people">${items.join('\n')}</ul>
<form method="post" action="/interaction/${escapeHtml(uid)}/abort"><button type="submit">Cancel</button></form>`,
  );
}

async function interaction(provider, people, req, res) {
  const details = await provider.interactionDetails(req, res);
  const m = /^\/interaction\/[^/]+\/(login|abort)$/.exec(req.url);
  if (req.method === 'POST' && m && m[1] === 'abort') {
    return provider.interactionFinished(
      req,
      res,
      { error: 'access_denied', error_description: 'the person cancelled' },
      { mergeWithLastSubmission: false },
    );
  }
  if (details.prompt.name === 'login' && req.method === 'POST' && m) {
    const sub = (await readForm(req)).get('sub');
    if (!people.some((p) => p.sub === sub))
      return send(res, 400, page('Unknown person', '<p class="error">No such demo person.</p>'));
    return provider.interactionFinished(req, res, { login: { accountId: sub } }, { mergeWithLastSubmission: false });
  }
  if (details.prompt.name === 'login') {
    const clientId = String(details.params.client_id);
    return send(
      res,
      200,
      loginPage({ uid: details.uid, provider: LABELS[clientId.replace(/^demo-/, '')] || 'school', people }),
    );
  }
  // Consent: the school's provider trusts the platform; grant what it asked for.
  const grant = new provider.Grant({
    accountId: String(details.session.accountId),
    clientId: String(details.params.client_id),
  });
  grant.addOIDCScope(String(details.params.scope));
  await provider.interactionFinished(
    req,
    res,
    { consent: { grantId: await grant.save() } },
    { mergeWithLastSubmission: true },
  );
}

/**
 * Starts the demo provider. `issuer` is the URL people's browsers reach it on; `identityUrl` the
 * identity service whose `/signin/callback` is the one redirect URI of its clients; `port` a
 * number or a socket handed over (see ../listen.js).
 */
async function startDemoUpstream({ port, host = '127.0.0.1', issuer, identityUrl, config = demoSignInConfig() }) {
  const { default: Provider } = require('oidc-provider');
  const school = [config.schoolClient, config.schoolProvider && { client_id: config.schoolProvider.clientId }].filter(
    Boolean,
  );
  const clients = [...Object.values(config.upstreamClients), ...school];
  const provider = new Provider(issuer, providerOptions({ clients, people: config.people, identityUrl }));
  const callback = provider.callback();
  const server = http.createServer((req, res) => {
    const run =
      req.url === '/health'
        ? Promise.resolve(send(res, 200, 'ok'))
        : req.url.startsWith('/interaction/')
          ? interaction(provider, config.people, req, res)
          : callback(req, res);
    Promise.resolve(run).catch((err) => {
      if (!res.headersSent)
        send(
          res,
          400,
          page(
            'Demo sign-in failed',
            `<p class="error">${escapeHtml(err.message)}</p><p>Go back to the app and start again.</p>`,
          ),
        );
    });
  });
  const served = await listenOn(server, port, host);
  const close = () => new Promise((resolve) => server.close(() => resolve()));
  return { issuer, port: served, close };
}

if (require.main === module) {
  const port = Number(process.env.DEMO_UPSTREAM_PORT || DEFAULT_PORTS.upstream);
  const identityUrl =
    process.env.IDENTITY_URL || `http://localhost:${process.env.IDENTITY_PORT || DEFAULT_PORTS.identity}`;
  const issuer = process.env.DEMO_UPSTREAM_URL || `http://localhost:${port}`;
  startDemoUpstream({ port: mainListenTarget(port), host: process.env.HOST || '0.0.0.0', issuer, identityUrl }).then(
    (u) => console.log(`demo upstream provider (Google and Microsoft stand-in) at ${u.issuer}`),
    (err) => {
      console.error(`demo upstream provider failed to start: ${err.message}`);
      process.exit(1);
    },
  );
  process.on('SIGTERM', () => process.exit(0));
}

module.exports = { startDemoUpstream };
