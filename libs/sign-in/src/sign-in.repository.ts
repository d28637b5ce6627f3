import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isUuid } from '@edu/domain';
import type { AppEntity, UserIdpIdentifier } from '@edu/persistence';

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

/** The identity data a sign-in reads (and the identifier it records), in SQL. */
@Injectable()
export class SignInRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async appByClientId(clientId: string): Promise<SignInApp | null> {
    const rows: AppEntity[] = await this.ds.query(
      `SELECT id, name, client_id AS "clientId", client_secret_hash AS "clientSecretHash", oauth2, auth_type AS "authType" FROM apps WHERE client_id = $1 AND auth_type IN ('oauth2', 'saml')`,
      [clientId],
    );
    const row = rows[0];
    return row
      ? {
          id: row.id,
          name: row.name,
          clientId: row.clientId,
          clientSecretHash: row.clientSecretHash,
          redirectUris: row.oauth2?.redirect_uris ?? [],
          authType: row.authType,
        }
      : null;
  }

  async isDeployed(appId: string, tenantId: string): Promise<boolean> {
    const rows: unknown[] = await this.ds.query(
      `SELECT 1 FROM tenant_app_deployments WHERE app_id = $1 AND tenant_id = $2`,
      [appId, tenantId],
    );
    return rows.length > 0;
  }

  /** The id of the app's deployment at the tenant (its sharing is keyed by it); null when not deployed. */
  async deploymentId(appId: string, tenantId: string): Promise<string | null> {
    const rows: { id: string }[] = await this.ds.query(
      `SELECT id FROM tenant_app_deployments WHERE app_id = $1 AND tenant_id = $2`,
      [appId, tenantId],
    );
    return rows[0]?.id ?? null;
  }

  async tenant(id: string): Promise<SignInTenant | null> {
    if (!isUuid(id)) return null;
    const rows: SignInTenant[] = await this.ds.query(`SELECT id, name FROM tenants WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  /** The tenants a vanity domain serves (its owner first). */
  async vanityDomainTenants(domain: string): Promise<string[] | null> {
    const rows: { tenant_id: string; tenants: string[] }[] = await this.ds.query(
      `SELECT tenant_id, tenants FROM vanity_domains WHERE domain = $1`,
      [domain.toLowerCase()],
    );
    const row = rows[0];
    return row ? [row.tenant_id, ...row.tenants.filter((t) => t !== row.tenant_id)] : null;
  }

  /** Tenants where the app is deployed whose name contains `query` (case-insensitive), by name. */
  searchTenants(appId: string, query: string, limit = 20): Promise<SignInTenant[]> {
    const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return this.ds.query(
      `SELECT t.id, t.name FROM tenants t JOIN tenant_app_deployments d ON d.tenant_id = t.id
       WHERE d.app_id = $1 AND t.name ILIKE $2 ORDER BY t.name LIMIT $3`,
      [appId, pattern, limit],
    );
  }

  /** Provider ids any constituency of the tenant allows (core names and the tenant's own uuids). */
  async providersInUse(tenantId: string): Promise<string[]> {
    const rows: { id: string }[] = await this.ds.query(
      `SELECT DISTINCT unnest(allowed_identity_providers) AS id FROM constituencies WHERE tenant_id = $1 ORDER BY 1`,
      [tenantId],
    );
    return rows.map((r) => r.id);
  }

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
    return this.member(`tu.tenant_id = $1 AND tu.user_id = $2`, [tenantId, userId]);
  }

  /** Records an identifier on the tenant's record of the person (once). */
  async addIdentifier(tenantId: string, userId: string, identifier: UserIdpIdentifier): Promise<void> {
    await this.ds.query(
      `UPDATE tenant_users SET idp_identifiers = idp_identifiers || $3::jsonb, updated_at = now()
       WHERE tenant_id = $1 AND user_id = $2 AND NOT idp_identifiers @> $3::jsonb`,
      [tenantId, userId, JSON.stringify([identifier])],
    );
  }

  /** Names of the tenant's constituencies, by id. */
  async constituencyNames(tenantId: string, ids: string[]): Promise<{ id: string; name: string }[]> {
    if (ids.length === 0) return [];
    return this.ds.query(`SELECT id, name FROM constituencies WHERE tenant_id = $1 AND id = ANY($2) ORDER BY id`, [
      tenantId,
      ids,
    ]);
  }

  async allowedProviders(tenantId: string, constituencies: string[]): Promise<Set<string>> {
    if (constituencies.length === 0) return new Set();
    const rows: { id: string }[] = await this.ds.query(
      `SELECT DISTINCT unnest(allowed_identity_providers) AS id FROM constituencies WHERE tenant_id = $1 AND id = ANY($2)`,
      [tenantId, constituencies],
    );
    return new Set(rows.map((r) => r.id));
  }

  async recordGrant(g: GrantRecord): Promise<void> {
    await this.ds.query(
      `INSERT INTO sign_in_grants (grant_id, tenant_id, user_id, app_id, provider_id, expires_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (grant_id) DO UPDATE SET expires_at = EXCLUDED.expires_at`,
      [g.grantId, g.tenantId, g.userId, g.appId, g.providerId, g.expiresAt],
    );
  }

  async grant(grantId: string): Promise<GrantRecord | null> {
    const rows: GrantRecord[] = await this.ds.query(
      `SELECT grant_id AS "grantId", tenant_id AS "tenantId", user_id AS "userId", app_id AS "appId", provider_id AS "providerId", expires_at AS "expiresAt"
       FROM sign_in_grants WHERE grant_id = $1`,
      [grantId],
    );
    return rows[0] ?? null;
  }

  /** A provider's button graphic: a core provider by name, a tenant's provider by uuid. */
  async buttonGraphic(id: string): Promise<string | null> {
    const rows: { svg: string }[] = isUuid(id)
      ? await this.ds.query(`SELECT button_graphic AS svg FROM identity_providers WHERE id = $1`, [id])
      : await this.ds.query(`SELECT button_graphic AS svg FROM core_identity_providers WHERE id = $1`, [id]);
    return rows[0]?.svg ?? null;
  }

  private async member(where: string, params: unknown[]): Promise<TenantMember | null> {
    const rows: TenantMember[] = await this.ds.query(
      `SELECT tu.user_id AS "userId", u.email, tu.name, tu.nickname, tu.picture, tu.constituencies, tu.idp_identifiers AS "idpIdentifiers"
       FROM tenant_users tu JOIN users u ON u.id = tu.user_id WHERE ${where} LIMIT 1`,
      params,
    );
    return rows[0] ?? null;
  }
}
