import { Injectable } from '@nestjs/common';
import { isUuid } from '@edu/domain';
import type { AppEntity, UserIdpIdentifier } from '@edu/persistence';
import { forgetReads, memoRead, primeRead } from './reads/request-reads';
import { READ_KEYS } from './reads/read-keys';
import { SignInSql } from './sign-in-sql';

export interface SignInApp {
  id: string;
  name: string;
  clientId: string;
  clientSecretHash: string;
  redirectUris: string[];
  /** `saml` apps sign people in through the same authorization, ending at the SAML identity provider. */
  authType: 'oauth2' | 'saml';
}

export interface SignInTenant {
  id: string;
  name: string;
}

export interface TenantMember {
  userId: string;
  email: string;
  name: string;
  nickname: string;
  picture: string;
  constituencies: string[];
  idpIdentifiers: UserIdpIdentifier[];
}

export interface GrantRecord {
  grantId: string;
  tenantId: string;
  userId: string;
  appId: string;
  providerId: string;
  expiresAt: Date;
}

type AppRow = Pick<AppEntity, 'id' | 'name' | 'clientId' | 'clientSecretHash' | 'oauth2' | 'authType'>;
type VanityRow = { tenant_id: string; tenants: string[] };
/** A member as read, with the providers their constituencies allow (read in the same statement). */
export type MemberRow = TenantMember & { allowedProviders: string[] | null };

/** The columns of a sign-in app (`FROM apps`), shared with the batched reads. */
export const APP_SELECT = `SELECT id, name, client_id AS "clientId", client_secret_hash AS "clientSecretHash", oauth2, auth_type AS "authType" FROM apps`;
export const APP_KINDS = `auth_type IN ('oauth2', 'saml')`;
export const GRANT_SELECT = `SELECT grant_id AS "grantId", tenant_id AS "tenantId", user_id AS "userId", app_id AS "appId", provider_id AS "providerId", expires_at AS "expiresAt" FROM sign_in_grants`;
/** A member at a tenant (`tu`), with the providers their constituencies allow. */
export const MEMBER_SELECT = `SELECT tu.user_id AS "userId", u.email, tu.name, tu.nickname, tu.picture, tu.constituencies, tu.idp_identifiers AS "idpIdentifiers",
  (SELECT array_agg(DISTINCT p) FROM constituencies c, unnest(c.allowed_identity_providers) p
    WHERE c.tenant_id = tu.tenant_id AND c.id = ANY(tu.constituencies)) AS "allowedProviders"
  FROM tenant_users tu JOIN users u ON u.id = tu.user_id`;

export function toSignInApp(row: AppRow): SignInApp {
  return {
    id: row.id,
    name: row.name,
    clientId: row.clientId,
    clientSecretHash: row.clientSecretHash,
    redirectUris: row.oauth2?.redirect_uris ?? [],
    authType: row.authType,
  };
}

export const vanityTenants = (row: VanityRow): string[] => [
  row.tenant_id,
  ...row.tenants.filter((t) => t !== row.tenant_id),
];

/** The member without the allowed providers, which prime `allowedProviders` and the lookup by id. */
export function primeMember(tenantId: string, row: MemberRow): TenantMember {
  const { allowedProviders, ...member } = row;
  primeRead(READ_KEYS.member(tenantId, member.userId), member);
  primeRead(READ_KEYS.allowedProviders(tenantId, member.constituencies), allowedProviders ?? []);
  return member;
}

/** The identity data a sign-in reads (and the identifier it records), in SQL. */
@Injectable()
export class SignInRepository {
  constructor(private readonly sql: SignInSql) {}

  private async rows<T>(text: string, values: unknown[]): Promise<T[]> {
    return (await this.sql.query(text, values)).rows as T[];
  }

  appByClientId(clientId: string): Promise<SignInApp | null> {
    return memoRead(READ_KEYS.app(clientId), async () => {
      const rows = await this.rows<AppRow>(`${APP_SELECT} WHERE client_id = $1 AND ${APP_KINDS}`, [clientId]);
      return rows[0] ? toSignInApp(rows[0]) : null;
    });
  }

  async isDeployed(appId: string, tenantId: string): Promise<boolean> {
    return (await this.deploymentId(appId, tenantId)) !== null;
  }

  /** The id of the app's deployment at the tenant (its sharing is keyed by it); null when not deployed. */
  deploymentId(appId: string, tenantId: string): Promise<string | null> {
    return memoRead(READ_KEYS.deployment(appId, tenantId), async () => {
      const rows = await this.rows<{ id: string }>(
        `SELECT id FROM tenant_app_deployments WHERE app_id = $1 AND tenant_id = $2`,
        [appId, tenantId],
      );
      return rows[0]?.id ?? null;
    });
  }

  async tenant(id: string): Promise<SignInTenant | null> {
    if (!isUuid(id)) return null;
    return memoRead(READ_KEYS.tenant(id), async () => {
      const rows = await this.rows<SignInTenant>(`SELECT id, name FROM tenants WHERE id = $1`, [id]);
      return rows[0] ?? null;
    });
  }

  /** The tenants a vanity domain serves (its owner first). */
  vanityDomainTenants(domain: string): Promise<string[] | null> {
    const host = domain.toLowerCase();
    return memoRead(READ_KEYS.vanity(host), async () => {
      const rows = await this.rows<VanityRow>(`SELECT tenant_id, tenants FROM vanity_domains WHERE domain = $1`, [
        host,
      ]);
      return rows[0] ? vanityTenants(rows[0]) : null;
    });
  }

  /** Tenants where the app is deployed whose name contains `query` (case-insensitive), by name. */
  searchTenants(appId: string, query: string, limit = 20): Promise<SignInTenant[]> {
    const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return this.rows(
      `SELECT t.id, t.name FROM tenants t JOIN tenant_app_deployments d ON d.tenant_id = t.id
       WHERE d.app_id = $1 AND t.name ILIKE $2 ORDER BY t.name LIMIT $3`,
      [appId, pattern, limit],
    );
  }

  /** Provider ids any constituency of the tenant allows (core names and the tenant's own uuids). */
  providersInUse(tenantId: string): Promise<string[]> {
    return memoRead(READ_KEYS.providersInUse(tenantId), async () => {
      const rows = await this.rows<{ id: string }>(
        `SELECT DISTINCT unnest(allowed_identity_providers) AS id FROM constituencies WHERE tenant_id = $1 ORDER BY 1`,
        [tenantId],
      );
      return rows.map((r) => r.id);
    });
  }

  // Members found by identifier or e-mail are not remembered (provisioning may add them in the
  // same request); what they read primes the lookups by id that follow.
  async memberByIdentifier(tenantId: string, identifier: UserIdpIdentifier): Promise<TenantMember | null> {
    return this.member(`tu.tenant_id = $1 AND tu.idp_identifiers @> $2::jsonb`, [
      tenantId,
      JSON.stringify([identifier]),
    ]);
  }

  async memberByEmail(tenantId: string, email: string): Promise<TenantMember | null> {
    return this.member(`tu.tenant_id = $1 AND u.email = $2`, [tenantId, email.toLowerCase()]);
  }

  async memberById(tenantId: string, userId: string): Promise<TenantMember | null> {
    if (!isUuid(userId)) return null;
    return memoRead(READ_KEYS.member(tenantId, userId), () =>
      this.member(`tu.tenant_id = $1 AND tu.user_id = $2`, [tenantId, userId]),
    );
  }

  /** Records an identifier on the tenant's record of the person (once). */
  async addIdentifier(tenantId: string, userId: string, identifier: UserIdpIdentifier): Promise<void> {
    forgetReads(READ_KEYS.member(tenantId, userId));
    await this.sql.query(
      `UPDATE tenant_users SET idp_identifiers = idp_identifiers || $3::jsonb, updated_at = now()
       WHERE tenant_id = $1 AND user_id = $2 AND NOT idp_identifiers @> $3::jsonb`,
      [tenantId, userId, JSON.stringify([identifier])],
    );
  }

  /** Names of the tenant's constituencies, by id. */
  async constituencyNames(tenantId: string, ids: string[]): Promise<{ id: string; name: string }[]> {
    if (ids.length === 0) return [];
    return this.rows(`SELECT id, name FROM constituencies WHERE tenant_id = $1 AND id = ANY($2) ORDER BY id`, [
      tenantId,
      ids,
    ]);
  }

  async allowedProviders(tenantId: string, constituencies: string[]): Promise<Set<string>> {
    if (constituencies.length === 0) return new Set();
    const ids = await memoRead(READ_KEYS.allowedProviders(tenantId, constituencies), async () => {
      const rows = await this.rows<{ id: string }>(
        `SELECT DISTINCT unnest(allowed_identity_providers) AS id FROM constituencies WHERE tenant_id = $1 AND id = ANY($2)`,
        [tenantId, constituencies],
      );
      return rows.map((r) => r.id);
    });
    return new Set(ids);
  }

  async recordGrant(g: GrantRecord): Promise<void> {
    forgetReads(READ_KEYS.grant(g.grantId));
    await this.sql.query(
      `INSERT INTO sign_in_grants (grant_id, tenant_id, user_id, app_id, provider_id, expires_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (grant_id) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
      [g.grantId, g.tenantId, g.userId, g.appId, g.providerId, g.expiresAt],
    );
  }

  grant(grantId: string): Promise<GrantRecord | null> {
    return memoRead(READ_KEYS.grant(grantId), async () => {
      const rows = await this.rows<GrantRecord>(`${GRANT_SELECT} WHERE grant_id = $1`, [grantId]);
      return rows[0] ?? null;
    });
  }

  /** A provider's button graphic: a core provider by name, a tenant's provider by uuid. */
  async buttonGraphic(id: string): Promise<string | null> {
    const rows = isUuid(id)
      ? await this.rows<{ svg: string }>(`SELECT button_graphic AS svg FROM identity_providers WHERE id = $1`, [id])
      : await this.rows<{ svg: string }>(`SELECT button_graphic AS svg FROM core_identity_providers WHERE id = $1`, [
          id,
        ]);
    return rows[0]?.svg ?? null;
  }

  private async member(where: string, params: unknown[]): Promise<TenantMember | null> {
    const rows = await this.rows<MemberRow>(`${MEMBER_SELECT} WHERE ${where} LIMIT 1`, params);
    return rows[0] ? primeMember(params[0] as string, rows[0]) : null;
  }
}
