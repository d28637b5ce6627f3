import { Inject, Injectable } from '@nestjs/common';
import { assertServedRegion, insufficientScope, SCOPE_CATALOG } from '@edu/auth';
import { ApiError, ApiErrorCode, isUuid, type Principal, type ScopeCatalog, type ScopeKey } from '@edu/domain';
import { AlertsEnv } from '../config/alerts.env';
import { TenantRegionsRepository } from './tenant-regions.repository';

/** Scopes that make a deployment an alerts partner (spec §5): its webhooks receive deliveries. */
export const ALERTS_SCOPES: readonly ScopeKey[] = ['alerts.messages.read', 'alerts.webhooks.write'];

/**
 * Who may act for which tenant on this host. Partners act for the tenant of their token; a regional
 * host (`SERVICE_REGION`) serves only tenants of its region, like the rostering API (design §4).
 */
@Injectable()
export class AlertsAccess {
  constructor(
    private readonly env: AlertsEnv,
    private readonly regions: TenantRegionsRepository,
    @Inject(SCOPE_CATALOG) private readonly catalog: ScopeCatalog,
  ) {}

  /** The token's tenant, once this host serves it; 403 for a token without a tenant or of another region. */
  async partnerTenant(who: Principal): Promise<string> {
    if (who.kind !== 'tenant' || !isUuid(who.tenantId))
      throw insufficientScope(this.catalog.uris(ALERTS_SCOPES as ScopeKey[]));
    const tenantId = who.tenantId.toLowerCase();
    const region = await this.regions.regionOf(tenantId);
    // A valid token for a tenant this database does not have yet: the identity data is still on
    // its way (replication to a regional database). Not the caller's fault; it will be there soon.
    if (region === null && this.env.SERVICE_REGION && who.region === this.env.SERVICE_REGION) {
      throw new ApiError(
        ApiErrorCode.ServiceUnavailable,
        'The tenant is not available on this host yet; retry shortly',
      );
    }
    this.assertRegion(region);
    return tenantId;
  }

  /** A tenant named in a body (the operator's submission): it must exist (400 naming `tenant_id`) and be served here. */
  async assertServed(tenantId: string): Promise<void> {
    const region = await this.regions.regionOf(tenantId);
    if (region === null) {
      throw new ApiError(ApiErrorCode.ValidationFailed, 'tenant_id: no such tenant', {
        fields: [{ field: 'tenant_id', problems: ['no such tenant'] }],
      });
    }
    this.assertRegion(region);
  }

  /** A tenant named in a path by the operator: 404 when this database does not know it, 403 of another region. */
  async assertKnown(tenantId: string): Promise<void> {
    const region = await this.regions.regionOf(tenantId);
    if (region === null) throw ApiError.notFound('Tenant');
    this.assertRegion(region);
  }

  /** 403 on a regional host for a tenant of another region (or unknown there). */
  private assertRegion(region: string | null): void {
    assertServedRegion(this.env.SERVICE_REGION, region);
  }

  /** Full URIs of the alerts scopes, as deployments store them. */
  alertsScopeUris(): string[] {
    return this.catalog.uris(ALERTS_SCOPES as ScopeKey[]);
  }
}
