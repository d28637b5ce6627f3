import { Inject, Injectable } from '@nestjs/common';
import { insufficientScope, SCOPE_CATALOG } from '@edu/auth';
import { ApiError, type Principal, type ScopeCatalog } from '@edu/domain';
import { AlertsAccess } from '../tenancy/alerts-access';

/**
 * Who may manage a tenant's delivery settings and expunge its messages: the operator, for any
 * tenant this host serves, and the school's admins (a tenant-context token with
 * `id/tenant-core.write`) for their own tenant. Another tenant's or an unknown id: 404.
 */
@Injectable()
export class TenantAdminAccess {
  constructor(
    private readonly access: AlertsAccess,
    @Inject(SCOPE_CATALOG) private readonly catalog: ScopeCatalog,
  ) {}

  /** The path's tenant, lower case, once `who` may act for it. */
  async tenant(who: Principal, tenantId: string): Promise<string> {
    const id = tenantId.toLowerCase();
    if (who.kind === 'tenant') {
      if (!who.scopes.has(this.catalog.uri('id.tenant-core.write')))
        throw insufficientScope(this.catalog.uris(['id.tenant-core.write', 'platform.admin']));
      if ((await this.access.partnerTenant(who)) !== id) throw ApiError.notFound('Tenant');
      return id;
    }
    if (who.kind !== 'operator') throw insufficientScope(this.catalog.uris(['id.tenant-core.write', 'platform.admin']));
    await this.access.assertKnown(id);
    return id;
  }
}
