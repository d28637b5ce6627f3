#!/usr/bin/env node
// The demo learning platform (an LTI 1.3 platform, as Moodle, Canvas or Schoology would be) for
// the LTI demo: its own RS256 key pair and JWKS (/jwks), an authentication endpoint (/auth) that
// answers the tool's authentication request with the id_token form post for the person who
// launched, and a course page whose activity launches into a partner app through the identity
// service. The tool is registered at it (its login initiation URL and the app's launch URL) with
// POST /tool, as an LMS administrator would in the LMS's settings. People, client id and
// deployment id: demo-lms.json. `npm start` runs it; alone: `node tools/demo/sign-in/lms.js`
// (DEMO_LMS_PORT; DEMO_LMS_URL, its issuer, defaults to http://localhost:<port>).
'use strict';
const { generateKeyPairSync, sign } = require('node:crypto');
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');
const { escapeHtml, page, send } = require('./html');
const { DEFAULT_PORTS } = require('./config');
const { listenOn, mainListenTarget } = require('../listen');

const LIS = 'http://purl.imsglobal.org/vocab/lis/v2/membership#';
const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim';

function demoLmsConfig() {
  return JSON.parse(fs.readFileSync(path.join(__dirname, 'demo-lms.json'), 'utf8'));
}

/** The settings of the school's `lti1.3` identity provider for this platform. */
function ltiSettingsFor(lmsUrl, config = demoLmsConfig()) {
  return {
    client_id: config.client_id,
    oidc_authentication_url: `${lmsUrl}/auth`,
    oauth_access_token_url: `${lmsUrl}/token`,
    jwks_url: `${lmsUrl}/jwks`,
    issuer: lmsUrl,
    validate_lti_tokens_at_oidc_login: false,
    deployment_id: config.deployment_id,
  };
}

const b64url = (v) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

/** An RS256 JWT signed with the platform's key (node:crypto: the demo has no build step). */
function signJwt(payload, key) {
  const input = `${b64url({ alg: 'RS256', typ: 'JWT', kid: key.kid })}.${b64url(payload)}`;
  return `${input}.${sign('sha256', Buffer.from(input), key.privateKey).toString('base64url')}`;
}

function launchClaims({ issuer, config, person, nonce, target }) {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: issuer,
    aud: config.client_id,
    azp: config.client_id,
    sub: person.sub,
    nonce,
    iat: now,
    exp: now + 300,
    email: person.email,
    name: person.name,
    [`${CLAIM}/message_type`]: 'LtiResourceLinkRequest',
    [`${CLAIM}/version`]: '1.3.0',
    [`${CLAIM}/deployment_id`]: config.deployment_id,
    [`${CLAIM}/target_link_uri`]: target,
    [`${CLAIM}/resource_link`]: { id: 'activity-1', title: config.activity },
    [`${CLAIM}/context`]: { id: 'course-1', title: config.course },
    [`${CLAIM}/roles`]: [`${LIS}${person.role}`],
  };
}

function coursePage(ctx) {
  if (!ctx.tool)
    return page('Demo LMS', '<h1>Demo LMS</h1><p class="note">No tool is registered yet (npm start registers it).</p>');
  const people = ctx.config.people
    .map(
      (p, i) =>
        `<li><a class="button" href="/launch?person=${i}">Open as ${escapeHtml(p.name)} (${escapeHtml(p.role)})</a> <small>${escapeHtml(p.note)}</small></li>`,
    )
    .join('');
  return page(
    `Demo LMS: ${ctx.config.course}`,
    `<h1>${escapeHtml(ctx.config.course)}</h1><p>Demo learning platform. The activity <strong>${escapeHtml(ctx.config.activity)}</strong> opens the partner app through the school's sign-in (LTI 1.3 launch): choose who you are.</p><ul class="people">${people}</ul>`,
  );
}

/** The login initiation: the browser goes to the tool with the person as login_hint. */
function launch(ctx, url, res) {
  const person = ctx.config.people[Number(url.searchParams.get('person'))];
  if (!ctx.tool || !person) return send(res, 404, page('Demo LMS', '<h1>No such activity</h1>'));
  const q = new URLSearchParams({
    iss: ctx.issuer,
    login_hint: person.sub,
    target_link_uri: ctx.tool.target_link_uri,
    lti_message_hint: 'activity-1',
    client_id: ctx.config.client_id,
    lti_deployment_id: ctx.config.deployment_id,
  });
  res.writeHead(302, { Location: `${ctx.tool.login_url}?${q}`, 'Cache-Control': 'no-store' }).end();
}

/** The authentication request (LTI 1.3 §5.1.1.2): the person already signed in here gets a signed launch. */
function authenticate(ctx, url, res) {
  const q = url.searchParams;
  const person = ctx.config.people.find((p) => p.sub === q.get('login_hint'));
  const redirectUri = q.get('redirect_uri') || '';
  const problem = !person
    ? 'unknown login_hint'
    : q.get('client_id') !== ctx.config.client_id
      ? 'unknown client_id'
      : !ctx.tool || !redirectUri.startsWith(new URL(ctx.tool.login_url).origin)
        ? 'redirect_uri not registered'
        : !q.get('nonce') || !q.get('state')
          ? 'no state or nonce'
          : undefined;
  if (problem)
    return send(res, 400, page('Demo LMS', `<h1>Launch refused</h1><p class="error">${escapeHtml(problem)}</p>`));
  const idToken = signJwt(
    launchClaims({
      issuer: ctx.issuer,
      config: ctx.config,
      person,
      nonce: q.get('nonce'),
      target: ctx.tool.target_link_uri,
    }),
    ctx.key,
  );
  // No script on the demo pages: the person presses Continue (a real LMS posts the form by itself).
  const form = `<form method="post" action="${escapeHtml(redirectUri)}"><input type="hidden" name="id_token" value="${escapeHtml(idToken)}"><input type="hidden" name="state" value="${escapeHtml(q.get('state'))}"><button type="submit">Continue to ${escapeHtml(ctx.config.activity)}</button></form>`;
  send(
    res,
    200,
    page(
      'Demo LMS: launching',
      `<h1>${escapeHtml(ctx.config.activity)}</h1><p>Signed in to the demo LMS as ${escapeHtml(person.name)}.</p>${form}`,
    ),
  );
}

/** POST /tool {login_url, target_link_uri}: the tool's registration (local demo administration). */
function register(ctx, req, res) {
  let body = '';
  req.on('data', (c) => (body += c.length + body.length > 8192 ? '' : c));
  req.on('end', () => {
    try {
      const { login_url, target_link_uri } = JSON.parse(body);
      ctx.tool = { login_url: String(new URL(login_url)), target_link_uri: String(new URL(target_link_uri)) };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ctx.tool));
    } catch {
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end('{"error":"login_url and target_link_uri must be URLs"}');
    }
  });
}

function route(ctx, req, res) {
  const url = new URL(req.url, ctx.issuer);
  if (url.pathname === '/health') return res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  if (url.pathname === '/jwks')
    return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [ctx.key.jwk] }));
  if (url.pathname === '/tool' && req.method === 'POST') return register(ctx, req, res);
  if (url.pathname === '/tool')
    return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(ctx.tool || null));
  if (url.pathname === '/auth') return authenticate(ctx, url, res);
  if (url.pathname === '/launch') return launch(ctx, url, res);
  if (url.pathname === '/') return send(res, 200, coursePage(ctx));
  send(res, 404, page('Demo LMS', '<h1>Not found</h1>'));
}

/** Starts the demo LMS; its issuer is its own base URL. `port`: a number or a socket handed over (../listen.js). */
async function startDemoLms({ port = DEFAULT_PORTS.lms, host = '127.0.0.1', issuer } = {}) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'demo-lms-1';
  const key = { privateKey, kid, jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' } };
  const ctx = { config: demoLmsConfig(), key, tool: undefined, issuer: '' };
  const server = http.createServer((req, res) => route(ctx, req, res));
  const served = await listenOn(server, port, host);
  ctx.issuer = issuer || `http://localhost:${served}`;
  return {
    issuer: ctx.issuer,
    port: served,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

module.exports = { startDemoLms, demoLmsConfig, ltiSettingsFor };

if (require.main === module) {
  const port = Number(process.env.DEMO_LMS_PORT || DEFAULT_PORTS.lms);
  const target = mainListenTarget(port);
  startDemoLms({ port: target, host: process.env.HOST || '127.0.0.1', issuer: process.env.DEMO_LMS_URL }).then(
    (lms) => console.log(`demo LMS at ${lms.issuer}`),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
