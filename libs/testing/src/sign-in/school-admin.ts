import { TEST_SVG, type World } from '../world';

/** One row of the sign-in log (`GET /tenants/:id/sign-ins`). */
export interface SignInRow {
  id: string;
  time: string;
  tenant_id: string;
  app_id: string | null;
  provider_id: string | null;
  user_id: string | null;
  outcome: 'success' | 'refused';
  reason: string | null;
}

/** A tenant-user record as `GET /tenants/:id/users` shows it. */
export interface TenantUserRecord {
  user_email: string;
  tenant_id: string;
  constituencies: string[];
  user: { id: string; email: string; name: string; nickname: string; picture: string };
}

/** Where a tenant's own `oauth2` provider (a TestUpstream) is, as the Identity API stores it; `extra` overrides or adds fields. */
export function oauth2Settings(
  idp: { issuer: string },
  clientId: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    client_id: clientId,
    authorization_url: `${idp.issuer}/auth`,
    token_url: `${idp.issuer}/token`,
    scope: ['email', 'profile'],
    oidc_discovery: `${idp.issuer}/.well-known/openid-configuration`,
    jwks_url: `${idp.issuer}/jwks`,
    ...extra,
  };
}

/**
 * A school's administrator at the Identity API over real HTTP: tenant-context tokens minted by
 * `/oauth/token` for a console app deployed at the school, then the school's own providers,
 * constituencies, users and sign-in log.
 */
export class SchoolAdmin {
  private constructor(
    private readonly baseUrl: string,
    readonly tenantId: string,
    readonly tokens: { read: string; write: string },
  ) {}

  /** `scopes`: the URIs of `id.tenant-core.readonly` and `id.tenant-core.write`. */
  static async start(
    world: World,
    baseUrl: string,
    tenantId: string,
    scopes: { read: string; write: string },
  ): Promise<SchoolAdmin> {
    const read = await SchoolAdmin.tenantToken(world, baseUrl, tenantId, [scopes.read]);
    const write = await SchoolAdmin.tenantToken(world, baseUrl, tenantId, [scopes.write]);
    return new SchoolAdmin(baseUrl, tenantId, { read, write });
  }

  /** A tenant-context token with `scopeUris`, from a developer app deployed at the tenant with them. */
  static async tenantToken(world: World, baseUrl: string, tenantId: string, scopeUris: string[]): Promise<string> {
    const app = await world.app({ type: 'developer', id: (await world.developer()).id }, 'Console');
    await world.deploy(app.app.id, tenantId, scopeUris);
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: app.clientId,
      client_secret: app.clientSecret,
      tenant_id: tenantId,
    });
    const res = await fetch(`${baseUrl}/oauth/token`, { method: 'POST', body: form });
    expect(res.status).toBe(200);
    return ((await res.json()) as { access_token: string }).access_token;
  }

  /** An Identity API call with the read or write token: the status and the JSON body. */
  async call(
    method: string,
    path: string,
    body?: unknown,
    token: 'read' | 'write' = 'write',
  ): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.tokens[token]}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  /** Adds an `oauth2` provider with a write-only `client_secret` (checked absent from the answer); its id. */
  async addOauth2Provider(oauth2: Record<string, unknown>, o: { jit: boolean }): Promise<string> {
    const res = await this.call('POST', '/identity-providers', {
      button_graphic: TEST_SVG,
      provision_just_in_time: o.jit,
      type: 'oauth2',
      oauth2,
    });
    expect(res.status).toBe(201);
    expect(JSON.stringify(res.body)).not.toContain('client_secret');
    if (typeof oauth2.client_secret === 'string') expect(JSON.stringify(res.body)).not.toContain(oauth2.client_secret);
    return (res.body as { id: string }).id;
  }

  /** Adds a constituency of the school allowing `allowed` providers, with or without self-service provisioning. */
  async constituency(id: string, allowed: string[], selfService: boolean): Promise<void> {
    const body = { id, name: id, enable_self_service_provisioning: selfService, allowed_identity_providers: allowed };
    expect((await this.call('POST', `/tenants/${this.tenantId}/constituencies`, body)).status).toBe(201);
  }

  /** The school's sign-in log, newest first (read with the read-only token). */
  async signIns(query = 'limit=100'): Promise<SignInRow[]> {
    return this.list<SignInRow>(`/tenants/${this.tenantId}/sign-ins?${query}`);
  }

  /** The school's tenant-user records (read with the read-only token). */
  async users(): Promise<TenantUserRecord[]> {
    return this.list<TenantUserRecord>(`/tenants/${this.tenantId}/users`);
  }

  private async list<T>(path: string): Promise<T[]> {
    const res = await this.call('GET', path, undefined, 'read');
    expect(res.status).toBe(200);
    return res.body as T[];
  }
}
