#!/usr/bin/env node
// The demo SAML app: a service provider on @node-saml/node-saml, as a partner would run one.
// /login sends an AuthnRequest (HTTP-Redirect) to the school's SAML identity provider; /saml/acs
// receives the HTTP-POST response, validates it (signature against the certificate in the IdP's
// metadata, audience, recipient, NotOnOrAfter, InResponseTo) and shows the assertion.
// `npm start` runs it; alone: `node tools/demo/sign-in/saml-sp.js` (DEMO_SAML_SP_PORT, IDENTITY_PORT).
'use strict';
const { randomBytes } = require('node:crypto');
const http = require('node:http');
const { DEFAULT_PORTS, demoSignInConfig } = require('./config');
const { listenOn, mainListenTarget } = require('../listen');
const { escapeHtml, page, send, readForm } = require('./html');

const ACS_PATH = '/saml/acs';
const LOGOUT_PATH = '/saml/logout';
const COOKIE = 'demo_saml_session';
const METADATA_RELOAD_MS = 5 * 60_000;

/** Where this SP is known to the platform: its entity id, reply URL, sign-on and sign-out URLs, metadata. */
function spSettings(baseUrl) {
  return {
    entity_id: `${baseUrl}/saml`,
    reply_url: `${baseUrl}${ACS_PATH}`,
    sign_on_url: `${baseUrl}/login`,
    sign_out_url: `${baseUrl}${LOGOUT_PATH}`,
    metadata_url: `${baseUrl}/saml/metadata`,
  };
}

/** The SP's metadata (entity id, AssertionConsumerService), what the platform's app holds as metadata_xml. */
function spMetadata(baseUrl) {
  const { SAML } = require('@node-saml/node-saml');
  const sp = spSettings(baseUrl);
  return new SAML({
    issuer: sp.entity_id,
    callbackUrl: sp.reply_url,
    idpCert: 'unused',
    identifierFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
  }).generateServiceProviderMetadata(null, null);
}

/** node-saml configured with the IdP's certificates, read from its metadata (reloaded every few minutes: keys rotate). */
function samlClient({ identityUrl, tenantId, baseUrl }) {
  const { SAML } = require('@node-saml/node-saml');
  const sp = spSettings(baseUrl);
  const idpEntityId = `${identityUrl}/saml/${tenantId}`;
  let cached;
  const options = (idpCert) => ({
    entryPoint: `${idpEntityId}/sso`,
    logoutUrl: `${idpEntityId}/slo`,
    logoutCallbackUrl: sp.sign_out_url,
    issuer: sp.entity_id,
    callbackUrl: sp.reply_url,
    idpCert,
    idpIssuer: idpEntityId,
    audience: sp.entity_id,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: true,
    // InResponseTo is checked whenever present; a response without it is a sign-in the school started (its link to the app).
    validateInResponseTo: 'ifPresent',
    identifierFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
    disableRequestedAuthnContext: true,
  });
  return {
    async get() {
      if (cached && Date.now() - cached.at < METADATA_RELOAD_MS) return cached.saml;
      const res = await fetch(`${idpEntityId}/metadata`);
      if (!res.ok) throw new Error(`the IdP metadata answered HTTP ${res.status}`);
      const certs = [...(await res.text()).matchAll(/<(?:ds:)?X509Certificate>([^<]+)</g)].map((m) => m[1].trim());
      // One node-saml instance keeps the InResponseTo cache: kept across reloads of the certificates.
      if (cached) cached.saml.options.idpCert = certs;
      cached = { at: Date.now(), saml: cached ? cached.saml : new SAML(options(certs)) };
      return cached.saml;
    },
  };
}

function homePage(appName) {
  return page(
    `${appName} (demo SAML app)`,
    `<h1>${escapeHtml(appName)}</h1>
<p class="note">A demo SAML service provider on this machine (<code>@node-saml/node-saml</code>): it signs people in through their school's SAML identity provider.</p>
<p><a class="button" href="/login">Sign in with your school (SAML)</a></p>`,
  );
}

const row = (k, v) =>
  `<tr><th scope="row">${escapeHtml(k)}</th><td>${escapeHtml(Array.isArray(v) ? v.join(', ') : v)}</td></tr>`;

/** The validated assertion: NameID, its format, the session index and every attribute. */
function assertionPage(appName, profile, relayState) {
  const attributes = profile.attributes || {};
  return page(
    `${appName}: signed in`,
    `<h1>Signed in to ${escapeHtml(appName)}</h1>
<p>Validated by <code>@node-saml/node-saml</code> against the school's IdP metadata: the response's and the assertion's signatures, issuer, audience, recipient, NotOnOrAfter and InResponseTo.</p>
<table>${row('NameID', profile.nameID)}${row('NameID format', profile.nameIDFormat)}${row('Issuer', profile.issuer)}${row('SessionIndex', profile.sessionIndex || '')}${row('RelayState', relayState || '')}</table>
<h2>Attributes</h2>
<table>${Object.entries(attributes)
      .map(([k, v]) => row(k, v))
      .join('')}</table>
<pre id="assertion">${escapeHtml(JSON.stringify({ nameID: profile.nameID, nameIDFormat: profile.nameIDFormat, attributes }, null, 2))}</pre>
<p><a class="button" href="/logout">Sign out</a> <a href="/login">Sign in again</a></p>`,
  );
}

function signedOutPage(appName) {
  return page(
    `${appName}: signed out`,
    `<h1>Signed out of ${escapeHtml(appName)}</h1>
<p>The school's identity provider answered the logout request with a signed LogoutResponse, validated by <code>@node-saml/node-saml</code>.</p>
<p><a class="button" href="/login">Sign in again</a></p>`,
  );
}

/** Who is signed in, by a random cookie (HttpOnly, SameSite=Lax); memory only: a demo. */
function sessions() {
  const all = new Map();
  return {
    of(req) {
      const m = new RegExp(`(?:^|;\\s*)${COOKIE}=([\\w-]+)`).exec(req.headers.cookie || '');
      return m ? all.get(m[1]) : undefined;
    },
    start(res, profile) {
      const id = randomBytes(24).toString('base64url');
      all.set(id, profile);
      if (all.size > 10_000) all.delete(all.keys().next().value);
      res.setHeader('Set-Cookie', `${COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax`);
    },
  };
}

function problemPage(appName, title, detail) {
  return page(
    `${appName}: ${title}`,
    `<h1>${escapeHtml(title)}</h1><p class="error" role="alert">${escapeHtml(detail)}</p><p><a class="button" href="/login">Try again</a></p>`,
  );
}

function sendJson(res, status, body) {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function route(ctx, req, res) {
  const path = req.url.split('?')[0];
  if (path === '/health') return send(res, 200, 'ok');
  if (path === '/') return send(res, 200, homePage(ctx.appName));
  if (path === '/saml/metadata')
    return send(res, 200, spMetadata(ctx.baseUrl), { 'Content-Type': 'application/samlmetadata+xml' });
  if (path === '/login') return redirect(res, await (await ctx.client.get()).getAuthorizeUrlAsync('/', undefined, {}));
  if (path === ACS_PATH && req.method === 'POST') {
    const form = await readForm(req, 256 * 1024);
    try {
      const { profile } = await (
        await ctx.client.get()
      ).validatePostResponseAsync({ SAMLResponse: form.get('SAMLResponse') || '' });
      ctx.sessions.start(res, profile);
      // For scripts (the partners' guide): the same, as JSON.
      if ((req.headers.accept || '').includes('application/json'))
        return sendJson(res, 200, {
          nameID: profile.nameID,
          nameIDFormat: profile.nameIDFormat,
          attributes: profile.attributes || {},
          relayState: form.get('RelayState'),
        });
      return send(res, 200, assertionPage(ctx.appName, profile, form.get('RelayState')));
    } catch (err) {
      if ((req.headers.accept || '').includes('application/json')) return sendJson(res, 403, { error: err.message });
      return send(res, 403, problemPage(ctx.appName, 'Not signed in', `The SAML response was refused: ${err.message}`));
    }
  }
  if (path === '/logout') {
    const profile = ctx.sessions.of(req);
    if (!profile) return redirect(res, '/');
    return redirect(res, await (await ctx.client.get()).getLogoutUrlAsync(profile, '/', {}));
  }
  if (path === LOGOUT_PATH && req.method === 'POST') {
    const form = await readForm(req, 64 * 1024);
    try {
      const { loggedOut } = await (
        await ctx.client.get()
      ).validatePostResponseAsync({ SAMLResponse: form.get('SAMLResponse') || '' });
      if (!loggedOut) throw new Error('not a LogoutResponse');
      res.setHeader('Set-Cookie', `${COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`);
      return send(res, 200, signedOutPage(ctx.appName));
    } catch (err) {
      return send(
        res,
        403,
        problemPage(ctx.appName, 'Not signed out', `The logout response was refused: ${err.message}`),
      );
    }
  }
  send(res, 404, problemPage(ctx.appName, 'Not found', 'No such page.'));
}

function redirect(res, url) {
  res.writeHead(302, { Location: url, 'Cache-Control': 'no-store' });
  res.end();
}

/**
 * Starts the demo SAML app for the demo tenant's identity provider; `baseUrl` is where browsers
 * reach it; `port` a number or a socket handed over (../listen.js).
 */
async function startDemoSamlSp({
  port,
  host = '127.0.0.1',
  baseUrl,
  identityUrl,
  tenantId = demoSignInConfig().tenant.id,
  appName = 'Lion City Digital Library',
}) {
  const ctx = { appName, baseUrl, client: samlClient({ identityUrl, tenantId, baseUrl }), sessions: sessions() };
  const server = http.createServer((req, res) => {
    route(ctx, req, res).catch((err) => {
      if (!res.headersSent) send(res, 502, problemPage(appName, 'Sign-in failed', err.message));
    });
  });
  await listenOn(server, port, host);
  const close = () => new Promise((resolve) => server.close(() => resolve()));
  return { url: baseUrl, close };
}

if (require.main === module) {
  const port = Number(process.env.DEMO_SAML_SP_PORT || DEFAULT_PORTS.samlSp);
  const identityUrl =
    process.env.IDENTITY_URL || `http://localhost:${process.env.IDENTITY_PORT || DEFAULT_PORTS.identity}`;
  startDemoSamlSp({
    port: mainListenTarget(port),
    host: process.env.HOST || '0.0.0.0',
    baseUrl: process.env.DEMO_SAML_SP_URL || `http://localhost:${port}`,
    identityUrl,
  }).then(
    (p) => console.log(`demo SAML app at ${p.url} (reply URL ${spSettings(p.url).reply_url})`),
    (err) => {
      console.error(`demo SAML app failed to start: ${err.message}`);
      process.exit(1);
    },
  );
  process.on('SIGTERM', () => process.exit(0));
}

module.exports = { startDemoSamlSp, spSettings, spMetadata };
