#!/usr/bin/env node
// A webhook endpoint for a partner app (alert deliveries and roster change feed batches) (Node.js 22 or later, one dependency: `npm install jose`).
//
//   PORT=8080 JWKS_URL=https://identity.edu.example/.well-known/jwks.json \
//   ISSUER=https://identity.edu.example APP_ID=<your app id> node webhook-receiver.mjs
//
// With WEBHOOK_SECRET (the whsec_ secret newWebhook answered), it also checks the Standard
// Webhooks signature (webhook-id, webhook-timestamp, webhook-signature) with the stock library
// (`npm install standardwebhooks`): the same check any Standard Webhooks receiver makes.
//
// For every POST it
//   1. checks the body is a JWT (Content-Type: application/jwt),
//   2. verifies it against the platform's JWKS: ES256 only, header typ alert-webhook+jwt, the
//      platform as issuer, your app as audience, not expired,
//   3. drops a delivery it has already received (same jti: the platform retries with the same
//      jti when it did not see your answer),
//   4. answers 200 at once and only then processes the delivery.
// It prints one line per request. Guide: docs/partners/webhooks.md.
import { createServer } from 'node:http';
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';

function setting(name, fallback) {
  const value = process.env[name] ?? fallback;
  if (value === undefined || value === '') {
    console.error(`${name} is not set (see the comment at the top of this file)`);
    process.exit(2);
  }
  return value;
}

const PORT = Number(setting('PORT', '8080'));
const JWKS_URL = setting('JWKS_URL');
const ISSUER = setting('ISSUER');
const APP_ID = setting('APP_ID');
const MAX_BODY_BYTES = 32 * 1024 * 1024; // full-payload deliveries can exceed 1 MB
// Optional: the webhook's Standard Webhooks secret. During a rotation's overlap the platform signs
// with the old and the new secret, so a receiver holding either keeps verifying.
const WEBHOOK_SECRET = process.env.WEBHOOK_SECRET;
const standard = WEBHOOK_SECRET ? new (await import('standardwebhooks')).Webhook(WEBHOOK_SECRET) : undefined;
// Longer than a delivery's whole retry schedule (about 1.5 hours); 24 hours to be safe.
const REMEMBER_JTI_MS = 24 * 60 * 60 * 1000;

// Fetched on first use and cached; fetched again when a token names a kid the cached copy does
// not hold (the platform rotated its key), at most once every 30 seconds.
const jwks = createRemoteJWKSet(new URL(JWKS_URL));

// jti -> when to forget it. One process only: with several instances behind a load balancer,
// keep this in a shared store instead (Redis `SET jti 1 NX EX 86400`, or a unique key in your
// database), so that a retry reaching another instance is still recognised.
const seen = new Map();
function firstTime(jti) {
  const now = Date.now();
  for (const [old, until] of seen) {
    if (until > now) break; // insertion order is expiry order
    seen.delete(old);
  }
  if (seen.has(jti)) return false;
  seen.set(jti, now + REMEMBER_JTI_MS);
  return true;
}

// Your work happens here, after the answer has gone out.
async function process_(claims) {
  if (claims.type === 'notification-only') {
    // claims.notice: message_id, tenant_id, recipient, alert_count, alert_group_count,
    // message_path / message_url. Fetch the message with getMessage when you need it.
  } else if (claims.type === 'full-payload') {
    // claims.message: the whole alert message, as getMessage returns it.
  } else if (claims.type === 'roster.events') {
    // claims.event: a batch of the roster change feed ({events, next_cursor, ...}); apply its
    // events in order, skipping an event id already applied. Guide: docs/partners/keeping-in-sync-events.md.
  }
}

function answer(res, status, text) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' }).end(`${text}\n`);
}

async function readBody(req) {
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8').trim();
}

async function handle(req, res) {
  const attempt = req.headers['webhook-attempt'];
  if ((req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase() !== 'application/jwt') {
    console.log(`refused status=415 reason="not application/jwt"`);
    return answer(res, 415, 'expected application/jwt');
  }
  const token = await readBody(req);
  if (token === undefined) {
    console.log(`refused status=413 reason="body over ${MAX_BODY_BYTES} bytes"`);
    res.setHeader('connection', 'close');
    return answer(res, 413, 'too large');
  }
  if (standard) {
    try {
      // The body exactly as received; the signature covers webhook-id, webhook-timestamp and the body.
      standard.verify(token, req.headers, { jsonParse: false });
    } catch (err) {
      console.log(`refused status=401 reason=${JSON.stringify(`webhook-signature: ${err.message}`)}`);
      return answer(res, 401, 'invalid signature');
    }
  }
  let claims;
  let header;
  try {
    ({ payload: claims, protectedHeader: header } = await jwtVerify(token, jwks, {
      algorithms: ['ES256'],
      typ: 'alert-webhook+jwt',
      issuer: ISSUER,
      audience: APP_ID,
      requiredClaims: ['jti', 'sub', 'iat', 'exp', 'type', 'tenant_id'],
      clockTolerance: 30, // seconds of clock skew between the platform and this host
    }));
  } catch (err) {
    // Forged, altered, expired, for another app, or signed with a key not (yet) in the JWKS.
    const reason = err instanceof errors.JOSEError ? `${err.code}: ${err.message}` : String(err);
    console.log(`refused status=401 reason=${JSON.stringify(reason)}`);
    return answer(res, 401, 'invalid token');
  }
  if (!firstTime(claims.jti)) {
    // Already received: answer 2xx so the platform stops retrying, and do nothing else.
    console.log(`duplicate type=${claims.type} jti=${claims.jti} attempt=${attempt}`);
    return answer(res, 200, 'duplicate');
  }
  console.log(
    `verified type=${claims.type} jti=${claims.jti} message=${claims.sub} tenant=${claims.tenant_id} kid=${header.kid}${standard ? ' webhook-signature=verified' : ''} attempt=${attempt}`,
  );
  answer(res, 200, 'ok');
  setImmediate(() => process_(claims).catch((err) => console.error(`processing ${claims.jti} failed:`, err)));
}

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/health') return answer(res, 200, 'ok');
  if (req.method !== 'POST') return answer(res, 405, 'POST deliveries here');
  handle(req, res).catch((err) => {
    console.error('receiver error:', err);
    if (!res.headersSent) answer(res, 500, 'error');
  });
});
// LISTEN_FD instead of PORT: serve a listening socket handed over by whatever starts this process
// (socket activation, as systemd does; this repository's docs test starts it that way).
const LISTEN_FD = process.env.LISTEN_FD;
server.listen(LISTEN_FD ? { fd: Number(LISTEN_FD) } : PORT, () =>
  console.log(`listening on port ${server.address().port}; issuer ${ISSUER}, audience ${APP_ID}`),
);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
process.on('SIGINT', () => server.close(() => process.exit(0)));
