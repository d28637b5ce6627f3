import type { IncomingMessage } from 'node:http';
import { Injectable } from '@nestjs/common';
import { hasRequestReads, primeRead } from '../reads/request-reads';
import { READ_KEYS } from '../reads/read-keys';
import {
  APP_KINDS,
  APP_SELECT,
  GRANT_SELECT,
  MEMBER_SELECT,
  primeMember,
  toSignInApp,
  type GrantRecord,
  type MemberRow,
} from '../sign-in.repository';
import { adapterPayload, LIVE_PAYLOAD, type PayloadRow } from './postgres-adapter';
import { OIDC_ROUTES } from './provider-config';
import { SignInSql } from '../sign-in-sql';

type AppRow = Parameters<typeof toSignInApp>[0];

const payloadOf = (kind: string, idSql: string, by = 'id') =>
  `(SELECT row_to_json(r) FROM (SELECT payload, consumed_at FROM oidc_payloads WHERE kind = '${kind}' AND ${by} = ${idSql} AND ${LIVE_PAYLOAD} LIMIT 1) r)`;
const appOf = (clientIdSql: string) =>
  `(SELECT row_to_json(r) FROM (${APP_SELECT} WHERE client_id = ${clientIdSql} AND ${APP_KINDS}) r)`;

// $1 the interaction's uid: the interaction, its app and the grant the portal made.
const RESUME_SQL = `WITH i AS (SELECT payload FROM oidc_payloads WHERE kind = 'Interaction' AND id = $1)
SELECT ${payloadOf('Interaction', '$1')} AS interaction, ${appOf(`(SELECT payload #>> '{params,client_id}' FROM i)`)} AS app,
  ${payloadOf('Grant', `(SELECT payload #>> '{result,consent,grantId}' FROM i)`)} AS grant`;

// $1 the code, $2 the client id: the code, the app, the code's session and grant, and the account
// behind the grant (sign_in_grants, the member, the tenant, the deployment, the sharing version).
const TOKEN_SQL = `WITH code AS (SELECT payload FROM oidc_payloads WHERE kind = 'AuthorizationCode' AND id = $1),
  g AS (SELECT * FROM sign_in_grants WHERE grant_id = (SELECT payload ->> 'grantId' FROM code))
SELECT ${payloadOf('AuthorizationCode', '$1')} AS code, ${appOf('$2')} AS app,
  ${payloadOf('Session', `(SELECT payload ->> 'sessionUid' FROM code)`, 'uid')} AS session,
  ${payloadOf('Grant', `(SELECT payload ->> 'grantId' FROM code)`)} AS grant,
  (SELECT row_to_json(r) FROM (${GRANT_SELECT} WHERE grant_id = (SELECT grant_id FROM g)) r) AS "signInGrant",
  (SELECT row_to_json(r) FROM (${MEMBER_SELECT} WHERE tu.tenant_id = (SELECT tenant_id FROM g) AND tu.user_id = (SELECT user_id FROM g) LIMIT 1) r) AS member,
  (SELECT row_to_json(r) FROM (SELECT id, name FROM tenants WHERE id = (SELECT tenant_id FROM g)) r) AS tenant,
  (SELECT id FROM tenant_app_deployments WHERE app_id = (SELECT app_id FROM g) AND tenant_id = (SELECT tenant_id FROM g)) AS "deploymentId",
  COALESCE((SELECT version FROM sharing_versions WHERE tenant_id = (SELECT tenant_id FROM g)), 0)::text AS "sharingVersion"`;

interface TokenRow {
  code: PayloadRow | null;
  app: AppRow | null;
  session: PayloadRow | null;
  grant: PayloadRow | null;
  signInGrant: (Omit<GrantRecord, 'expiresAt'> & { expiresAt: string }) | null;
  member: MemberRow | null;
  tenant: { id: string; name: string } | null;
  deploymentId: string | null;
  sharingVersion: string;
}

const RESUME_PATH = new RegExp(`^${OIDC_ROUTES.authorization}/([^/?]+)(?:\\?|$)`);

/**
 * One read at the start of the provider's two busiest requests for what the provider and the
 * account lookup then read one by one: the resumed authorization (interaction, app, grant) and
 * the code exchange (code, app, session, grant, and the account's rows). It primes the request's
 * memo only: a row the provider asks for under another key is read as before.
 */
@Injectable()
export class ProviderPrefetch {
  constructor(private readonly db: SignInSql) {}

  async load(req: IncomingMessage & { body?: unknown }): Promise<void> {
    if (!hasRequestReads() || !req.url) return;
    const resumed = req.method === 'GET' ? RESUME_PATH.exec(req.url) : null;
    if (resumed) return this.resume(decodeURIComponent(resumed[1]));
    const body = (req.body ?? {}) as Record<string, unknown>;
    if (
      req.method === 'POST' &&
      req.url.split('?')[0] === OIDC_ROUTES.token &&
      body.grant_type === 'authorization_code'
    )
      return this.token(body, req.headers.authorization);
  }

  private async resume(uid: string): Promise<void> {
    const { rows } = await this.db.query<{
      interaction: PayloadRow | null;
      app: AppRow | null;
      grant: PayloadRow | null;
    }>(RESUME_SQL, [uid]);
    const row = rows[0];
    const interaction = adapterPayload(row.interaction);
    primeRead(READ_KEYS.oidc('Interaction', uid), interaction);
    const params = interaction?.params as { client_id?: unknown } | undefined;
    if (typeof params?.client_id === 'string')
      primeRead(READ_KEYS.app(params.client_id), row.app ? toSignInApp(row.app) : null);
    const grantId = (interaction?.result as { consent?: { grantId?: unknown } } | undefined)?.consent?.grantId;
    if (typeof grantId === 'string') primeRead(READ_KEYS.oidc('Grant', grantId), adapterPayload(row.grant));
  }

  private async token(body: Record<string, unknown>, authorization: string | undefined): Promise<void> {
    const clientId = basicClientId(authorization) ?? (typeof body.client_id === 'string' ? body.client_id : undefined);
    if (typeof body.code !== 'string' || !clientId) return;
    const row = (await this.db.query<TokenRow>(TOKEN_SQL, [body.code, clientId])).rows[0];
    const code = adapterPayload(row.code);
    primeRead(READ_KEYS.oidc('AuthorizationCode', body.code), code);
    primeRead(READ_KEYS.app(clientId), row.app ? toSignInApp(row.app) : null);
    if (typeof code?.sessionUid === 'string')
      primeRead(READ_KEYS.oidcByUid('Session', code.sessionUid), adapterPayload(row.session));
    if (typeof code?.grantId !== 'string') return;
    primeRead(READ_KEYS.oidc('Grant', code.grantId), adapterPayload(row.grant));
    const g = row.signInGrant;
    primeRead(READ_KEYS.grant(code.grantId), g ? { ...g, expiresAt: new Date(g.expiresAt) } : null);
    if (!g) return;
    if (row.member) primeMember(g.tenantId, row.member);
    primeRead(READ_KEYS.tenant(g.tenantId), row.tenant);
    primeRead(READ_KEYS.deployment(g.appId, g.tenantId), row.deploymentId);
    primeRead(READ_KEYS.sharingVersion(g.tenantId), row.sharingVersion);
  }
}

/** The client id of HTTP Basic client authentication (form-encoded, RFC 6749 §2.3.1). */
function basicClientId(authorization: string | undefined): string | undefined {
  const m = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(authorization ?? '');
  if (!m) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const i = decoded.indexOf(':');
  try {
    return i > 0 ? decodeURIComponent(decoded.slice(0, i).replace(/\+/g, '%20')) : undefined;
  } catch {
    return undefined;
  }
}
