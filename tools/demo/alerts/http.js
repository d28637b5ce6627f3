// Small HTTP helpers for the alerts demo tools: JSON calls with errors that say what to do.
'use strict';

class PlatformError extends Error {}

/** `fetch` that turns "nothing listens there" into an error naming the service and the fix. */
async function call(service, url, init = {}) {
  try {
    return await fetch(url, { ...init, signal: init.signal ?? AbortSignal.timeout(30_000) });
  } catch (err) {
    const cause =
      err && err.cause && err.cause.code
        ? err.cause.code
        : err && err.name === 'TimeoutError'
          ? 'no answer within 30 s'
          : String(err && err.message);
    throw new PlatformError(
      `the ${service} service does not answer at ${new URL(url).origin} (${cause}): is \`npm start\` running? (ports move with IDENTITY_PORT / ALERTS_PORT)`,
    );
  }
}

async function jsonCall(service, url, init = {}) {
  const res = await call(service, url, init);
  const text = await res.text();
  let body;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: res.status, body };
}

function describe(body) {
  if (body && typeof body === 'object')
    return [body.error, body.error_description || body.message].filter(Boolean).join(': ') || JSON.stringify(body);
  return String(body).slice(0, 300);
}

/** OAuth 2.0 client-credentials token (HTTP Basic), with `params` such as tenant_id or scope. */
async function clientToken(identityUrl, client, params = {}) {
  const { status, body } = await jsonCall('identity', `${identityUrl}/oauth/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.id)}:${encodeURIComponent(client.secret)}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', ...params }),
  });
  if (status !== 200 || !body || typeof body.access_token !== 'string') {
    throw new PlatformError(
      `no token for client ${client.id} from ${identityUrl}/oauth/token (HTTP ${status}: ${describe(body)})`,
    );
  }
  return body.access_token;
}

/** Resolves when `{url}/health/ready` answers 200; throws a PlatformError naming the service otherwise. */
async function assertReady(service, baseUrl) {
  const res = await call(service, `${baseUrl}/health/ready`, { signal: AbortSignal.timeout(5_000) });
  if (res.status !== 200)
    throw new PlatformError(`the ${service} service at ${baseUrl} is not ready (HTTP ${res.status} on /health/ready)`);
}

module.exports = { PlatformError, call, jsonCall, clientToken, assertReady, describe };
