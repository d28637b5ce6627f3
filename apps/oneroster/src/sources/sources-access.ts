import { Inject, Injectable } from '@nestjs/common';
import { ApiError, ApiErrorCode, isUuid, ScopeCatalog, scopeBasesOf, type Principal, type ScopeKey } from '@edu/domain';
import { RosterSourcesRepository } from './roster-sources.repository';
import { SOURCES_SETTINGS } from './sources-settings.token';

/**
 * What a caller may do with a tenant's sources and syncs:
 * - `configure` (create, change, delete sources; the guard settings): the operator only, since a
 *   source holds credentials and decides where the platform connects;
 * - `operate` (sync now, approve, reject): the operator, or the school's own admin app (a
 *   tenant-context token of that tenant with `tenant-core.write`): the school decides about its
 *   own roster, and a mass deletion is its call;
 * - `read` (sources without secrets, syncs and their reports): also `tenant-core.readonly`.
 */
export type SourceAction = 'read' | 'operate' | 'configure';

const SCHOOL_SCOPES: Record<SourceAction, ScopeKey[]> = {
  read: ['id.tenant-core.readonly', 'id.tenant-core.write'],
  operate: ['id.tenant-core.write'],
  configure: [],
};

@Injectable()
export class SourcesAccess {
  private readonly catalog: ScopeCatalog;

  constructor(
    private readonly sources: RosterSourcesRepository,
    @Inject(SOURCES_SETTINGS) env: { SCHEMA_BASE: string; ONEROSTER_SCOPE_BASE: string },
  ) {
    this.catalog = new ScopeCatalog(scopeBasesOf(env));
  }

  /** The path's tenant id, lower-cased, once the caller may act on it; another tenant's answers as unknown. */
  async tenant(who: Principal, rawTenantId: string, action: SourceAction): Promise<string> {
    const tenantId = rawTenantId.toLowerCase();
    if (who.kind === 'developer')
      throw new ApiError(ApiErrorCode.InsufficientScope, 'Roster sources belong to the operator and the school');
    if (who.kind === 'tenant') {
      if (who.tenantId !== tenantId) throw ApiError.notFound('Tenant');
      const allowed = this.catalog.uris(SCHOOL_SCOPES[action]);
      if (!allowed.some((s) => who.scopes.has(s)))
        throw new ApiError(
          ApiErrorCode.InsufficientScope,
          action === 'configure'
            ? 'Only the operator configures roster sources and the sync guard'
            : `This needs ${SCHOOL_SCOPES[action].join(' or ')}`,
        );
    }
    if (!isUuid(tenantId) || !(await this.sources.tenantExists(tenantId))) throw ApiError.notFound('Tenant');
    return tenantId;
  }

  /** Who decided (recorded on approve and reject). */
  static actor(who: Principal): string {
    return who.kind === 'operator' ? `operator:${who.clientId}` : `app:${who.appId}`;
  }
}
