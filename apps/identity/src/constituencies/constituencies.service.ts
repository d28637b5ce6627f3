import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiError, isUuid, type Principal } from '@edu/domain';
import { AccessPolicy } from '../common/access-policy';
import { conflict, fieldError, uniqueOr409 } from '../common/api-errors';
import { IdentityProviderRepository } from '../directory/identity-provider.repository';
import { ProviderRefs } from '../directory/provider-refs';
import { TenantUserRepository } from '../directory/user.repository';
import { ConstituencyRepository } from '../directory/constituency.repository';
import { toConstituencyView, type ConstituencyView } from './constituency.view';
import { CONSTITUENCY_ID, type CreateConstituencyDto, type UpdateConstituencyDto } from './dto/constituency.dto';

const TAKEN = 'The tenant already has a constituency with this id';

/** Constituencies of the tenant named in the path, which must be the token's tenant (spec 2.5). */
@Injectable()
export class ConstituenciesService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly constituencies: ConstituencyRepository,
    private readonly providers: IdentityProviderRepository,
    private readonly links: TenantUserRepository,
    private readonly policy: AccessPolicy,
  ) {}

  async list(who: Principal, rawTenantId: string): Promise<ConstituencyView[]> {
    const tenantId = this.policy.pathTenant(who, 'read', rawTenantId);
    return (await this.constituencies.list(tenantId)).map(toConstituencyView);
  }

  async create(who: Principal, rawTenantId: string, dto: CreateConstituencyDto): Promise<ConstituencyView> {
    const tenantId = this.policy.pathTenant(who, 'write', rawTenantId);
    return uniqueOr409(
      () =>
        this.ds.transaction(async (m) => {
          if (await this.constituencies.find(tenantId, dto.id, m)) throw conflict(TAKEN);
          const allowed = await this.checkProviders(tenantId, dto.allowed_identity_providers, m);
          const saved = await this.constituencies.save(
            {
              tenantId,
              id: dto.id,
              name: dto.name,
              enableSelfServiceProvisioning: dto.enable_self_service_provisioning,
              allowedIdentityProviders: allowed,
            },
            m,
          );
          return toConstituencyView(saved);
        }),
      TAKEN,
    );
  }

  async update(who: Principal, rawTenantId: string, id: string, dto: UpdateConstituencyDto): Promise<ConstituencyView> {
    const tenantId = this.policy.pathTenant(who, 'write', rawTenantId);
    return this.ds.transaction(async (m) => {
      const current = await this.found(tenantId, id, m);
      if (dto.name !== undefined) current.name = dto.name;
      if (dto.enable_self_service_provisioning !== undefined)
        current.enableSelfServiceProvisioning = dto.enable_self_service_provisioning;
      if (dto.allowed_identity_providers !== undefined)
        current.allowedIdentityProviders = await this.checkProviders(tenantId, dto.allowed_identity_providers, m);
      return toConstituencyView(await this.constituencies.save(current, m));
    });
  }

  /** Deletes the constituency and drops it from its members' lists. */
  async remove(who: Principal, rawTenantId: string, id: string): Promise<void> {
    const tenantId = this.policy.pathTenant(who, 'write', rawTenantId);
    await this.ds.transaction(async (m) => {
      await this.found(tenantId, id, m);
      await this.links.removeConstituency(tenantId, id, m);
      await this.constituencies.delete(tenantId, id, m);
    });
  }

  private async found(tenantId: string, id: string, m: EntityManager) {
    const c = CONSTITUENCY_ID.test(id) ? await this.constituencies.find(tenantId, id, m) : null;
    if (!c) throw ApiError.notFound('Constituency');
    return c;
  }

  /** Tenant provider uuids are stored lower-case; unknown ids are a 400 naming the entry. */
  private async checkProviders(tenantId: string, ids: string[], m: EntityManager): Promise<string[]> {
    const normalized = ids.map((id) => (isUuid(id) ? id.toLowerCase() : id));
    const problem = (await ProviderRefs.load(this.providers, tenantId, m)).firstUnknown(normalized);
    if (problem) throw fieldError('allowed_identity_providers', problem);
    return normalized;
  }
}
