#!/usr/bin/env node
// The demo webhook receiver: what a partner app's webhook endpoint does (alert deliveries and
// roster change feed batches), on this machine.
// It verifies every delivery (ES256 JWT against the platform's JWKS, `typ`, `iss`, `aud` one of
// the demo apps, `exp`), drops repeats of a delivery by `jti`, answers at once, and prints one
// line per request. `npm start` runs it; alone: `node tools/demo/alerts/receiver.js`
// (DEMO_RECEIVER_PORT, JWKS_URL, TOKEN_ISSUER as for npm start).
'use strict';
const http = require('node:http');
const { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify, errors } = require('jose');
const { listenOn, mainListenTarget } = require('../listen');

const TOKEN_TYPE = 'alert-webhook+jwt';
const MAX_BODY_BYTES = 32 * 1024 * 1024; // full-payload deliveries can be several megabytes
const REMEMBERED_JTIS = 50_000;

/** `k=v` with the value quoted when it holds spaces or quotes. */
const field = (k, v) =>
  v === undefined || v === null || v === '' ? '' : ` ${k}=${/[\s"]/.test(String(v)) ? JSON.stringify(String(v)) : v}`;

/** A batch of the roster change feed, for the log line: how many events, and the first and last. */
function rosterEventsSummary(batch) {
  const events = batch && Array.isArray(batch.events) ? batch.events : [];
  const say = (e) => (e ? `${e.type} ${e.sourcedId}` : undefined);
  return (
    field('events', events.length) +
    field('first', say(events[0])) +
    field('last', events.length > 1 ? say(events[events.length - 1]) : undefined)
  );
}

/** What a delivery is about, for the log line: message id and recipient name or alert count. */
function summary(claims) {
  const notice = claims.notice && typeof claims.notice === 'object' ? claims.notice : undefined;
  const message = claims.message && typeof claims.message === 'object' ? claims.message : undefined;
  if (claims.type === 'test') return field('webhook', notice && notice.webhook_id);
  if (claims.type === 'roster.events') return rosterEventsSummary(claims.event);
  const body = message || notice || {};
  const recipient = body.recipient && typeof body.recipient === 'object' ? body.recipient.name : undefined;
  let alerts = notice ? notice.alert_count : undefined;
  if (message && Array.isArray(message.alerts))
    alerts = message.alerts.reduce((n, g) => n + (Array.isArray(g && g.alerts) ? g.alerts.length : 0), 0);
  const students =
    message && Array.isArray(message.alerts) ? message.alerts.length : notice ? notice.alert_group_count : undefined;
  return (
    field('message', body.message_id || claims.sub) +
    field('recipient', recipient) +
    field('alerts', alerts) +
    field('students', students)
  );
}

/** Why a token was refused, in a few words. */
function reasonOf(err) {
  if (err instanceof errors.JWTExpired) return 'expired (exp in the past)';
  if (err instanceof errors.JWKSNoMatchingKey) return 'kid is not in the platform JWKS';
  if (err instanceof errors.JWSSignatureVerificationFailed) return 'signature does not verify';
  if (err instanceof errors.JOSEAlgNotAllowed) return 'algorithm is not ES256';
  if (err instanceof errors.JWTClaimValidationFailed)
    return `claim ${err.claim}: ${err.reason === 'check_failed' ? 'unexpected value' : err.reason}${err.claim === 'aud' ? ' (not a demo app)' : ''}`;
  if (err instanceof errors.JWSInvalid || err instanceof errors.JWTInvalid) return `not a valid JWT (${err.message})`;
  if (err instanceof errors.JWKSTimeout || (err && err.code === 'ERR_JOSE_GENERIC'))
    return `cannot fetch the JWKS (${err.message})`;
  return err && err.message ? err.message : String(err);
}

/** Header and claims read without verification, only to say what a refused request claimed to be. */
function unverified(token) {
  try {
    return { header: decodeProtectedHeader(token), claims: decodeJwt(token) };
  } catch {
    return { header: {}, claims: {} };
  }
}

const answer = (res, status, text) => {
  if (!res.headersSent) res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${text}\n`);
};

/** The request's body, or undefined (after answering 413) once it exceeds MAX_BODY_BYTES. */
async function readBody(req, res, refuse) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      refuse(`refused reason="body over ${MAX_BODY_BYTES} bytes" path=${req.url}`);
      res.setHeader('connection', 'close');
      answer(res, 413, 'too large');
      return undefined;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8').trim();
}

/** Remembers the last REMEMBERED_JTIS deliveries' jti; true when this one was seen before. */
function repeatDetector() {
  const seen = new Map(); // jti -> first arrival, oldest first
  return (jti) => {
    if (seen.has(jti)) return true;
    seen.set(jti, Date.now());
    if (seen.size > REMEMBERED_JTIS) seen.delete(seen.keys().next().value);
    return false;
  };
}

/** Verifies, deduplicates and logs one delivery. */
function deliveryHandler({ jwksUrl, issuer, apps, log, stats }) {
  const jwks = createRemoteJWKSet(new URL(jwksUrl), { cooldownDuration: 5_000, timeoutDuration: 5_000 });
  const audiences = [...apps.keys()];
  const isRepeat = repeatDetector();
  const refuse = (line) => {
    stats.refused++;
    log(line);
  };
  return async function handleDelivery(req, res) {
    const type = String(req.headers['content-type'] || '')
      .split(';')[0]
      .trim()
      .toLowerCase();
    const token = await readBody(req, res, refuse);
    if (token === undefined) return undefined;
    const attempt = req.headers['webhook-attempt'];
    if (type !== 'application/jwt') {
      refuse(`refused reason="Content-Type ${type || '(none)'}, expected application/jwt" path=${req.url}`);
      return answer(res, 415, 'expected application/jwt');
    }
    let header;
    let claims;
    try {
      ({ payload: claims, protectedHeader: header } = await jwtVerify(token, jwks, {
        algorithms: ['ES256'],
        typ: TOKEN_TYPE,
        issuer,
        audience: audiences,
        requiredClaims: ['iss', 'aud', 'sub', 'jti', 'iat', 'exp', 'type', 'tenant_id'],
        clockTolerance: 5,
      }));
    } catch (err) {
      const u = unverified(token);
      refuse(
        `refused reason=${JSON.stringify(reasonOf(err))}${field('kid', u.header.kid)}${field('jti', u.claims.jti)}${field('type', u.claims.type)}${field('aud', u.claims.aud)} path=${req.url}`,
      );
      return answer(res, 401, 'refused');
    }
    const appName = apps.get(String(claims.aud));
    if (isRepeat(claims.jti)) {
      stats.duplicates++;
      log(
        `duplicate ${claims.type} jti=${claims.jti} (already received; dropped, answered 200)${field('attempt', attempt)}${summary(claims)}`,
      );
      return answer(res, 200, 'duplicate');
    }
    stats.verified++;
    log(
      `verified ${claims.type}${summary(claims)}${field('app', appName)} tenant=${claims.tenant_id} jti=${claims.jti} kid=${header.kid}${field('attempt', attempt)}`,
    );
    return answer(res, 200, 'ok');
  };
}

/**
 * Starts the receiver. Options: port (0 = any, or a socket handed over: ../listen.js), host,
 * jwksUrl, issuer, apps (Map of accepted `aud` app ids to names), log (one line per request).
 * Resolves { url, port, close(), stats }.
 */
async function startReceiver({
  port = 3010,
  host = '0.0.0.0',
  jwksUrl,
  issuer,
  apps,
  log = (line) => console.log(line),
}) {
  const stats = { verified: 0, duplicates: 0, refused: 0 };
  const handleDelivery = deliveryHandler({ jwksUrl, issuer, apps, log, stats });
  const server = http.createServer((req, res) => {
    const path = (req.url || '/').split('?')[0];
    if (req.method === 'GET' && (path === '/' || path === '/health'))
      return answer(res, 200, 'demo webhook receiver: POST deliveries to any path');
    if (req.method !== 'POST') return answer(res, 405, 'POST deliveries');
    handleDelivery(req, res).catch((err) => {
      stats.refused++;
      log(`refused reason=${JSON.stringify(`receiver error: ${err && err.message}`)} path=${req.url}`);
      answer(res, 500, 'error');
    });
  });
  server.keepAliveTimeout = 35_000;
  const actualPort = await listenOn(server, port, host);
  const close = () =>
    new Promise((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { url: `http://localhost:${actualPort}`, port: actualPort, close, stats };
}

async function main() {
  const { demoAlertsConfig, DEFAULT_PORTS } = require('./config');
  const port = Number(process.env.DEMO_RECEIVER_PORT || process.env.PORT || DEFAULT_PORTS.receiver);
  const identity = `http://localhost:${process.env.IDENTITY_PORT || DEFAULT_PORTS.identity}`;
  const jwksUrl = process.env.JWKS_URL || `${identity}/.well-known/jwks.json`;
  const issuer = process.env.TOKEN_ISSUER || identity;
  const { knownApps } = demoAlertsConfig();
  const receiver = await startReceiver({
    port: mainListenTarget(port),
    host: process.env.HOST || '0.0.0.0',
    jwksUrl,
    issuer,
    apps: knownApps,
  });
  console.log(
    `listening on ${receiver.url}; verifying against ${jwksUrl} (iss ${issuer}, aud: ${knownApps.size} demo apps)`,
  );
  const stop = () => void receiver.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (require.main === module) {
  main().catch((err) => {
    console.error(
      err && err.code === 'EADDRINUSE'
        ? `port ${err.port} is already in use: set DEMO_RECEIVER_PORT`
        : String(err && err.stack ? err.stack : err),
    );
    process.exit(1);
  });
}

module.exports = { startReceiver, TOKEN_TYPE };
