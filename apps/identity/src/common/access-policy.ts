import { Inject, Injectable } from '@nestjs/common';
import { insufficientScope, SCOPE_CATALOG } from '@edu/auth';
import { ApiError, isUuid, ScopeCatalog, type Principal, type ScopeKey } from '@edu/domain';
import { uuidOr404 } from './ids';

/** Scope groups of the identity API (spec §5). */
export const TENANT_READ: ScopeKey[] = ['id.tenant-core.readonly', 'id.tenant-core.write'];
export const TENANT_WRITE: ScopeKey[] = ['id.tenant-core.write'];
export const APPS_READ: ScopeKey[] = ['id.apps.readonly', 'id.apps.write'];
export const APPS_WRITE: ScopeKey[] = ['id.apps.write'];
export const OPERATOR: ScopeKey[] = ['platform.admin'];

export type AccessMode = 'read' | 'write';

/** Who owns an app: the tenant of a tenant-context token or the developer of a developer-context token. */
export interface OwnerRef {
  type: 'tenant' | 'developer';
  id: string;
}

/** Whose apps a request may see or change: one owner's, or (the operator) every app. */
export type AppAccess = { by: 'owner'; owner: OwnerRef } | { by: 'operator' };

/** The tenant a `/tenants/:id/...` request acts on, and whether the operator or the tenant itself acts. */
export interface TenantActor {
  by: 'tenant' | 'operator';
  tenantId: string;
}

/**
 * Turns a verified principal into the tenant or developer a request may act for (spec 5.3).
 * The guard has already checked that the token holds one of the route's scopes; this checks that
 * the scope fits the token's context (tenant-core.* with a tenant, apps.* with a developer).
 */
@Injectable()
export class AccessPolicy {
  constructor(@Inject(SCOPE_CATALOG) private readonly catalog: ScopeCatalog) {}

  holds(who: Principal, keys: readonly ScopeKey[]): boolean {
    return keys.some((k) => who.scopes.has(this.catalog.uri(k)));
  }

  /** The token's tenant; 403 unless it is a tenant-context token holding one of `keys`. */
  tenant(who: Principal, mode: AccessMode): string {
    const keys = mode === 'read' ? TENANT_READ : TENANT_WRITE;
    if (who.kind !== 'tenant' || !this.holds(who, keys)) throw insufficientScope(this.catalog.uris(keys));
    return who.tenantId.toLowerCase();
  }

  /**
   * The tenant named in a `/tenants/:id/...` path, which must be the token's own tenant. Another
   * tenant's id, an unknown id and a malformed id all answer 404 (design §4, §7).
   */
  pathTenant(who: Principal, mode: AccessMode, rawId: string): string {
    const own = this.tenant(who, mode);
    if (!isUuid(rawId) || rawId.toLowerCase() !== own) throw ApiError.notFound('Tenant');
    return own;
  }

  /** The owner whose apps a request sees or changes. */
  appOwner(who: Principal, mode: AccessMode): OwnerRef {
    if (who.kind === 'tenant') return { type: 'tenant', id: this.tenant(who, mode) };
    const keys = mode === 'read' ? APPS_READ : APPS_WRITE;
    if (who.kind === 'developer' && this.holds(who, keys))
      return { type: 'developer', id: who.developerId.toLowerCase() };
    throw insufficientScope(
      this.catalog.uris(mode === 'read' ? [...TENANT_READ, ...APPS_READ] : [...TENANT_WRITE, ...APPS_WRITE]),
    );
  }

  /** 403 unless the operator's platform.admin token. */
  operator(who: Principal): void {
    if (!this.isOperator(who)) throw insufficientScope(this.catalog.uris(OPERATOR));
  }

  /**
   * For `/tenants/:id/...` routes the operator may also use: a tenant-context token acts on its
   * own tenant only (any other id is 404, as in pathTenant); the operator's platform.admin token on
   * any tenant, named by a well-formed id (whether it exists is the caller's check, also 404).
   */
  pathTenantOrOperator(who: Principal, mode: AccessMode, rawId: string): TenantActor {
    if (this.isOperator(who)) return { by: 'operator', tenantId: uuidOr404(rawId, 'Tenant') };
    if (who.kind !== 'tenant')
      throw insufficientScope(this.catalog.uris([...(mode === 'read' ? TENANT_READ : TENANT_WRITE), ...OPERATOR]));
    return { by: 'tenant', tenantId: this.pathTenant(who, mode, rawId) };
  }

  /** For app routes the operator may also use: the token's own apps, or (platform.admin) every app. */
  apps(who: Principal, mode: AccessMode): AppAccess {
    if (this.isOperator(who)) return { by: 'operator' };
    if (who.kind === 'operator') throw insufficientScope(this.catalog.uris(OPERATOR));
    return { by: 'owner', owner: this.appOwner(who, mode) };
  }

  private isOperator(who: Principal): boolean {
    return who.kind === 'operator' && this.holds(who, OPERATOR);
  }
}
