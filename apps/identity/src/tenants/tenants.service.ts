import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiError, isUuid, type Principal } from '@edu/domain';
import { AppRepository } from '../directory/app.repository';
import { AccessPolicy } from '../common/access-policy';
import { conflict, fieldError, uniqueOr409 } from '../common/api-errors';
import { uuidOr404 } from '../common/ids';
import { TenantUserRepository, UserRepository } from '../directory/user.repository';
import type { CreateTenantDto, UpdateTenantDto } from './dto/tenant.dto';
import { TenantRepository, type TenantWithRegion } from '../directory/tenant.repository';
import { toTenantAdminView, toTenantView, type TenantAdminView, type TenantView } from './tenant.view';

const CUSTOMER_ID_TAKEN = 'Another tenant already has this customer_id';

/**
 * Tenants (spec 2.3). A tenant-context token sees its own tenant; the operator (platform.admin)
 * sees and provisions every tenant, with licences and root org.
 */
@Injectable()
export class TenantsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly tenants: TenantRepository,
    private readonly apps: AppRepository,
    private readonly users: UserRepository,
    private readonly links: TenantUserRepository,
    private readonly policy: AccessPolicy,
  ) {}

  async list(who: Principal, rawId?: string): Promise<TenantView[]> {
    if (who.kind === 'operator') {
      this.policy.operator(who);
      if (rawId === undefined) return (await this.tenants.listAll()).map(toTenantAdminView);
      return [toTenantAdminView(await this.found(uuidOr404(rawId, 'Tenant')))];
    }
    const own = this.policy.tenant(who, 'read');
    if (rawId === undefined) {
      const tenant = await this.tenants.find(own);
      return tenant ? [toTenantView(tenant)] : [];
    }
    if (!isUuid(rawId) || rawId.toLowerCase() !== own) throw ApiError.notFound('Tenant');
    return [toTenantView(await this.found(own))];
  }

  async create(who: Principal, dto: CreateTenantDto): Promise<TenantAdminView> {
    this.policy.operator(who);
    return uniqueOr409(
      () =>
        this.ds.transaction(async (m) => {
          await this.checkRegion(dto.region, m);
          if (await this.tenants.findByCustomerId(dto.customer_id, m)) throw conflict(CUSTOMER_ID_TAKEN);
          const saved = await this.tenants.save(
            {
              name: dto.name,
              customerId: dto.customer_id,
              govtId: dto.govt_id,
              regionId: dto.region,
              licences: [...dto.licences],
              rootOrgSourcedId: dto.root_org_sourced_id ?? null,
            },
            m,
          );
          return toTenantAdminView(await this.found(saved.id, m));
        }),
      CUSTOMER_ID_TAKEN,
    );
  }

  async update(who: Principal, rawId: string, dto: UpdateTenantDto): Promise<TenantAdminView> {
    this.policy.operator(who);
    const id = uuidOr404(rawId, 'Tenant');
    return uniqueOr409(
      () =>
        this.ds.transaction(async (m) => {
          const tenant = await this.found(id, m);
          if (dto.region !== undefined) await this.checkRegion(dto.region, m);
          if (
            dto.customer_id !== undefined &&
            dto.customer_id !== tenant.customerId &&
            (await this.tenants.findByCustomerId(dto.customer_id, m))
          )
            throw conflict(CUSTOMER_ID_TAKEN);
          await this.tenants.save(
            {
              id,
              name: dto.name ?? tenant.name,
              customerId: dto.customer_id ?? tenant.customerId,
              govtId: dto.govt_id ?? tenant.govtId,
              regionId: dto.region ?? tenant.regionId,
              licences: dto.licences ? [...dto.licences] : tenant.licences,
              rootOrgSourcedId:
                dto.root_org_sourced_id === undefined ? tenant.rootOrgSourcedId : dto.root_org_sourced_id,
            },
            m,
          );
          return toTenantAdminView(await this.found(id, m));
        }),
      CUSTOMER_ID_TAKEN,
    );
  }

  /**
   * Deletes the tenant with everything it owns: its apps (and their deployments), deployments at
   * it, identity providers, constituencies, tenant-user links and vanity domains; users left
   * without any tenant are deleted too.
   */
  async remove(who: Principal, rawId: string): Promise<void> {
    this.policy.operator(who);
    const id = uuidOr404(rawId, 'Tenant');
    await this.ds.transaction(async (m) => {
      await this.found(id, m);
      const userIds = await this.links.userIds(id, m);
      await this.apps.deleteOwnedByTenant(id, m);
      await this.tenants.delete(id, m);
      await this.users.deleteOrphans(userIds, m);
    });
  }

  private async found(id: string, m?: EntityManager): Promise<TenantWithRegion> {
    const tenant = await this.tenants.find(id, m);
    if (!tenant) throw ApiError.notFound('Tenant');
    return tenant;
  }

  private async checkRegion(region: string, m: EntityManager): Promise<void> {
    if (!(await this.tenants.regionExists(region, m)))
      throw fieldError('region', 'must be a known region id (AU-NSW, SG)');
  }
}
