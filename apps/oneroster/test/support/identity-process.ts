import * as path from 'node:path';
import { listeningSocket, startServerProcess } from '@edu/testing';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');

/** Operator credentials the identity process is started with. */
export const OPERATOR = { id: 'operator-test', secret: 'operator-secret-for-grade-sync-tests' } as const;
/** `iss` of the tokens it issues (its TOKEN_ISSUER). */
export const IDENTITY_ISSUER = 'http://identity.test';

export interface IdentityProcess {
  readonly url: string;
  readonly jwksUrl: string;
  stop(): Promise<void>;
}

/**
 * The real identity service (OAuth token endpoint, JWKS, identity API) as its own process on
 * `databaseUrl`, run from its TypeScript sources (`ts-register.js`), so OneRoster tests can get
 * tokens the way a stock client does: client credentials against `/oauth/token`.
 */
export async function startIdentity(databaseUrl: string): Promise<IdentityProcess> {
  const socket = await listeningSocket();
  const identity = await startServerProcess({
    name: 'identity',
    args: ['-r', path.join(__dirname, 'ts-register.js'), path.join(ROOT, 'apps/identity/src/main.ts')],
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrl,
      DB_POOL_SIZE: '3',
      PORT: String(socket.port),
      TOKEN_ISSUER: IDENTITY_ISSUER,
      OPERATOR_CLIENT_ID: OPERATOR.id,
      OPERATOR_CLIENT_SECRET: OPERATOR.secret,
      // Not what these tests are about (e2e/test/rate-limits.int-spec.ts is).
      RATE_LIMIT_ENABLED: 'false',
      SHED_EVENT_LOOP_LAG_MS: '0',
    },
    socket,
    readyPath: '/health/ready',
    timeoutMs: 60_000,
  });
  return {
    url: identity.url,
    jwksUrl: `${identity.url}/.well-known/jwks.json`,
    stop: async () => {
      await identity.stop();
    },
  };
}

/** An OAuth 2.0 client-credentials grant (RFC 6749 §4.4) with HTTP Basic client authentication. */
export async function clientCredentialsToken(
  identityUrl: string,
  clientId: string,
  clientSecret: string,
  scope?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${identityUrl}/oauth/token`, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
