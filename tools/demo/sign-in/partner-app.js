#!/usr/bin/env node
// The demo partner app: a server-rendered relying party on openid-client, as a partner would
// build one. /login sends the person to the platform (authorization code, PKCE S256, state,
// nonce; scopes openid profile email tenant); /auth/callback exchanges the code, verifies the
// ID token and shows its claims; "Sign out" is RP-initiated logout. `npm start` runs it; alone:
// `node tools/demo/sign-in/partner-app.js` (DEMO_PARTNER_PORT, IDENTITY_PORT as for npm start).
'use strict';
const { randomBytes } = require('node:crypto');
const http = require('node:http');
const { DEFAULT_PORTS, CALLBACK_PATH, demoSignInConfig } = require('./config');
const { listenOn, mainListenTarget } = require('../listen');
const { send } = require('./html');
const { homePage, signedInPage, problemPage } = require('./partner-pages');

const COOKIE = 'demo_partner_session';
const SCOPE = 'openid profile email tenant';

/** Discovery once it works (identity may start after this app). */
function lazyDiscovery(oidc, identityUrl, app) {
  let pending;
  return () => {
    pending =
      pending ||
      oidc
        .discovery(new URL(identityUrl), app.clientId, undefined, oidc.ClientSecretBasic(app.clientSecret), {
          execute: [oidc.allowInsecureRequests],
        })
        .catch((err) => {
          pending = undefined;
          throw err;
        });
    return pending;
  };
}

/** Server-side sessions by a random cookie (HttpOnly, SameSite=Lax); memory only: a demo. */
function sessions() {
  const all = new Map();
  return {
    of(req) {
      const m = new RegExp(`(?:^|;\\s*)${COOKIE}=([\\w-]+)`).exec(req.headers.cookie || '');
      return m && all.get(m[1]);
    },
    create(res) {
      const id = randomBytes(24).toString('base64url');
      const s = {};
      all.set(id, s);
      if (all.size > 10_000) all.delete(all.keys().next().value);
      res.setHeader('Set-Cookie', `${COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax`);
      return s;
    },
  };
}

function redirect(res, url) {
  res.writeHead(302, { Location: url, 'Cache-Control': 'no-store' });
  res.end();
}

async function login(ctx, req, res) {
  const config = await ctx.discover();
  const s = ctx.sessions.create(res);
  Object.assign(s, {
    state: ctx.oidc.randomState(),
    nonce: ctx.oidc.randomNonce(),
    verifier: ctx.oidc.randomPKCECodeVerifier(),
  });
  const hint = new URL(req.url, ctx.baseUrl).searchParams.get('tenant');
  const url = ctx.oidc.buildAuthorizationUrl(config, {
    redirect_uri: ctx.redirectUri,
    scope: SCOPE,
    state: s.state,
    nonce: s.nonce,
    code_challenge: await ctx.oidc.calculatePKCECodeChallenge(s.verifier),
    code_challenge_method: 'S256',
    ...(hint ? { tenant: hint } : {}),
  });
  redirect(res, url.href);
}

async function callback(ctx, req, res) {
  const s = ctx.sessions.of(req);
  const current = new URL(req.url, ctx.baseUrl);
  if (s && s.loggingOut && current.searchParams.get('state') === s.loggingOut) return redirect(res, '/');
  if (!s || !s.state)
    return send(
      res,
      400,
      problemPage(
        ctx.app.name,
        'Sign-in expired',
        'This browser did not start a sign-in here (or the app restarted). Start again.',
      ),
    );
  if (current.searchParams.get('error'))
    return send(
      res,
      403,
      problemPage(
        ctx.app.name,
        'Not signed in',
        `The platform answered ${current.searchParams.get('error')}: ${current.searchParams.get('error_description') || 'the sign-in did not complete'}.`,
      ),
    );
  const config = await ctx.discover();
  const tokens = await ctx.oidc.authorizationCodeGrant(config, current, {
    pkceCodeVerifier: s.verifier,
    expectedState: s.state,
    expectedNonce: s.nonce,
    idTokenExpected: true,
  });
  Object.assign(s, { state: undefined, claims: tokens.claims(), idToken: tokens.id_token });
  redirect(res, '/signed-in');
}

function signedIn(ctx, req, res) {
  const s = ctx.sessions.of(req);
  if (!s || !s.claims) return redirect(res, '/');
  s.loggingOut = ctx.oidc.randomState();
  return ctx.discover().then((config) => {
    const logout = ctx.oidc.buildEndSessionUrl(config, {
      id_token_hint: s.idToken,
      post_logout_redirect_uri: ctx.redirectUri,
      state: s.loggingOut,
    });
    send(res, 200, signedInPage(ctx.app.name, s.claims, logout.href));
  });
}

async function route(ctx, req, res) {
  const path = req.url.split('?')[0];
  if (path === '/health') return send(res, 200, 'ok');
  if (path === '/') return send(res, 200, homePage(ctx.app.name));
  if (path === '/login') return login(ctx, req, res);
  if (path === CALLBACK_PATH) return callback(ctx, req, res);
  if (path === '/signed-in') return signedIn(ctx, req, res);
  send(res, 404, problemPage(ctx.app.name, 'Not found', 'No such page.'));
}

/**
 * Starts the demo partner app; `baseUrl` is where browsers reach it (its redirect URI is under
 * it); `port` a number or a socket handed over (../listen.js).
 */
async function startDemoPartner({ port, host = '127.0.0.1', baseUrl, identityUrl, config = demoSignInConfig() }) {
  const oidc = require('openid-client');
  const ctx = {
    oidc,
    app: config.app,
    baseUrl,
    redirectUri: `${baseUrl}${CALLBACK_PATH}`,
    discover: lazyDiscovery(oidc, identityUrl, config.app),
    sessions: sessions(),
  };
  const server = http.createServer((req, res) => {
    route(ctx, req, res).catch((err) => {
      if (!res.headersSent)
        send(res, 502, problemPage(ctx.app.name, 'Sign-in failed', err.error_description || err.message));
    });
  });
  await listenOn(server, port, host);
  const close = () => new Promise((resolve) => server.close(() => resolve()));
  return { url: baseUrl, redirectUri: ctx.redirectUri, close };
}

if (require.main === module) {
  const port = Number(process.env.DEMO_PARTNER_PORT || DEFAULT_PORTS.partner);
  const identityUrl =
    process.env.IDENTITY_URL || `http://localhost:${process.env.IDENTITY_PORT || DEFAULT_PORTS.identity}`;
  startDemoPartner({
    port: mainListenTarget(port),
    host: process.env.HOST || '0.0.0.0',
    baseUrl: process.env.DEMO_PARTNER_URL || `http://localhost:${port}`,
    identityUrl,
  }).then(
    (p) => console.log(`demo partner app at ${p.url} (redirect URI ${p.redirectUri})`),
    (err) => {
      console.error(`demo partner app failed to start: ${err.message}`);
      process.exit(1);
    },
  );
  process.on('SIGTERM', () => process.exit(0));
}

module.exports = { startDemoPartner };
