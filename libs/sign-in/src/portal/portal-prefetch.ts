import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { adapterPayload, LIVE_PAYLOAD, type PayloadRow } from '../oidc/postgres-adapter';
import { hasRequestReads, primeRead } from '../reads/request-reads';
import { READ_KEYS } from '../reads/read-keys';
import { APP_KINDS, APP_SELECT, toSignInApp, vanityTenants, type SignInApp } from '../sign-in.repository';
import { PAGE_BRAND_COLUMNS, pageBrandOf, type PageBrandRow } from '../ui/brand/brand-store';
import { SignInSql } from '../sign-in-sql';
import type { OwnProvider } from '../upstream/tenant-upstream';

interface TenantBundle {
  id: string;
  name: string;
  deploymentId: string | null;
  providers: string[];
  ownProviders: (Omit<OwnProvider, 'updatedAt'> & { updatedAt: string })[];
  sharingVersion: string;
}

interface PrefetchRow {
  interaction: PayloadRow | null;
  app: Parameters<typeof toSignInApp>[0] | null;
  vanity: (PageBrandRow & { tenant_id: string; tenants: string[] }) | null;
  candidates: string[] | null;
  tenants: TenantBundle[] | null;
}

const UUID = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';

// $1 interaction uid, $2 host, $3 the school the request names, $4 the upstream state it carries.
const SQL = `
WITH i AS (SELECT payload, consumed_at FROM oidc_payloads WHERE kind = 'Interaction' AND id = $1 AND ${LIVE_PAYLOAD} LIMIT 1),
  a AS (${APP_SELECT} WHERE client_id = (SELECT payload #>> '{params,client_id}' FROM i) AND ${APP_KINDS}),
  v AS (SELECT tenant_id, tenants, ${PAGE_BRAND_COLUMNS} FROM vanity_domains WHERE domain = $2),
  l AS (SELECT payload FROM oidc_payloads WHERE kind = 'UpstreamLogin' AND id = $4 AND expires_at > now()),
  c AS (SELECT DISTINCT lower(x) AS id FROM unnest(ARRAY[$3, (SELECT payload #>> '{params,tenant}' FROM i),
      (SELECT payload #>> '{params,login_hint}' FROM i), (SELECT payload ->> 'tenantId' FROM l),
      (SELECT tenant_id::text FROM v)]) x WHERE x ~* '${UUID}')
SELECT (SELECT row_to_json(i) FROM i) AS interaction, (SELECT row_to_json(a) FROM a) AS app,
  (SELECT row_to_json(v) FROM v) AS vanity, (SELECT json_agg(id) FROM c) AS candidates,
  (SELECT json_agg(json_build_object('id', t.id, 'name', t.name,
      'deploymentId', (SELECT d.id FROM tenant_app_deployments d WHERE d.app_id = (SELECT id FROM a) AND d.tenant_id = t.id),
      'providers', (SELECT coalesce(json_agg(p.id ORDER BY p.id), '[]') FROM
        (SELECT DISTINCT unnest(allowed_identity_providers) AS id FROM constituencies WHERE tenant_id = t.id) p),
      'ownProviders', (SELECT coalesce(json_agg(json_build_object('id', ip.id, 'type', ip.type,
          'displayName', ip.display_name, 'provisionJustInTime', ip.provision_just_in_time, 'oauth2', ip.oauth2,
          'clientSecretEncrypted', ip.client_secret_encrypted, 'updatedAt', ip.updated_at) ORDER BY ip.created_at, ip.id), '[]')
        FROM identity_providers ip WHERE ip.tenant_id = t.id),
      'sharingVersion', COALESCE((SELECT version FROM sharing_versions WHERE tenant_id = t.id), 0)::text))
    FROM tenants t WHERE t.id IN (SELECT id::uuid FROM c)) AS tenants`;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/**
 * One read at the start of a portal request for what its steps read one by one: the interaction,
 * its app, the host's vanity domain and brand, and each school the request may be for (named by
 * the request, the authorization or the upstream login) with the app's deployment there, the
 * providers its constituencies allow, its own providers and its sharing version. It primes the
 * request's memo only, so every check still sees the data as it is on this request.
 */
@Injectable()
export class PortalPrefetch {
  constructor(private readonly db: SignInSql) {}

  async load(req: Request, uid: string): Promise<void> {
    if (!hasRequestReads()) return;
    const host = req.hostname.toLowerCase();
    const chosen = str(req.query?.tenant) ?? str((req.body as Record<string, unknown> | undefined)?.tenant);
    const state = str(req.query?.state);
    const row = (await this.db.query<PrefetchRow>(SQL, [uid, host, chosen, state])).rows[0];
    primeRead(READ_KEYS.oidc('Interaction', uid), adapterPayload(row.interaction));
    primeRead(READ_KEYS.vanity(host), row.vanity ? vanityTenants(row.vanity) : null);
    primeRead(READ_KEYS.brand(host), pageBrandOf(row.vanity));
    const clientId = row.interaction?.payload.params as { client_id?: unknown } | undefined;
    const app = row.app ? toSignInApp(row.app) : null;
    if (typeof clientId?.client_id === 'string') primeRead(READ_KEYS.app(clientId.client_id), app);
    primeSchools(row, app);
  }
}

function primeSchools(row: PrefetchRow, app: SignInApp | null): void {
  const found = new Map((row.tenants ?? []).map((t) => [t.id, t]));
  for (const id of row.candidates ?? []) {
    const t = found.get(id);
    primeRead(READ_KEYS.tenant(id), t ? { id: t.id, name: t.name } : null);
    if (!t) continue;
    if (app) primeRead(READ_KEYS.deployment(app.id, t.id), t.deploymentId);
    primeRead(READ_KEYS.providersInUse(t.id), t.providers);
    primeRead(
      READ_KEYS.ownProviders(t.id),
      t.ownProviders.map((p) => ({ ...p, updatedAt: new Date(p.updatedAt) })),
    );
    primeRead(READ_KEYS.sharingVersion(t.id), t.sharingVersion);
  }
}
