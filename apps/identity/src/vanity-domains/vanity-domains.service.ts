import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiError, ApiErrorCode, type Principal } from '@edu/domain';
import type { VanityDomainEntity } from '@edu/persistence';
import { AccessPolicy, type AccessMode } from '../common/access-policy';
import { conflict, uniqueOr409 } from '../common/api-errors';
import { domainOr404, normalizeDomain } from '../common/ids';
import { TenantRepository } from '../directory/tenant.repository';
import type { CreateVanityDomainDto, UpdateVanityDomainDto } from './dto/vanity-domain.dto';
import { VanityDomainRepository } from '../directory/vanity-domain.repository';
import { brandConfiguration, toVanityDomainView, type VanityDomainView } from './vanity-domain.view';

const TAKEN = 'This domain is already registered';

/** Vanity domains of the token's tenant (spec 2.8); every operation needs the `advanced` licence. */
@Injectable()
export class VanityDomainsService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly domains: VanityDomainRepository,
    private readonly tenants: TenantRepository,
    private readonly policy: AccessPolicy,
  ) {}

  async list(who: Principal, rawDomain?: string): Promise<VanityDomainView[]> {
    const tenantId = await this.licensedTenant(who, 'read');
    if (rawDomain === undefined) return (await this.domains.list(tenantId)).map(toVanityDomainView);
    return [toVanityDomainView(await this.found(tenantId, rawDomain))];
  }

  /** A new domain starts PENDING_DNS, owned by and serving the token's tenant. */
  async create(who: Principal, dto: CreateVanityDomainDto): Promise<VanityDomainView> {
    const tenantId = await this.licensedTenant(who, 'write');
    const domain = normalizeDomain(dto.domain);
    return uniqueOr409(
      () =>
        this.ds.transaction(async (m) => {
          if (await this.domains.exists(domain, m)) throw conflict(TAKEN);
          const saved = await this.domains.save(
            {
              domain,
              tenantId,
              tenants: [tenantId],
              status: 'PENDING_DNS',
              brandConfiguration: brandConfiguration(dto.brand_configuration),
            },
            m,
          );
          return toVanityDomainView(saved);
        }),
      TAKEN,
    );
  }

  async update(who: Principal, rawDomain: string, dto: UpdateVanityDomainDto): Promise<VanityDomainView> {
    const tenantId = await this.licensedTenant(who, 'write');
    return this.ds.transaction(async (m) => {
      const current = await this.found(tenantId, rawDomain, m);
      current.brandConfiguration = brandConfiguration(dto.brand_configuration);
      return toVanityDomainView(await this.domains.save(current, m));
    });
  }

  async remove(who: Principal, rawDomain: string): Promise<void> {
    const tenantId = await this.licensedTenant(who, 'write');
    await this.ds.transaction(async (m) => {
      const current = await this.found(tenantId, rawDomain, m);
      await this.domains.delete(tenantId, current.domain, m);
    });
  }

  private async licensedTenant(who: Principal, mode: AccessMode): Promise<string> {
    const tenantId = this.policy.tenant(who, mode);
    if (!(await this.tenants.hasLicence(tenantId, 'advanced'))) {
      throw new ApiError(ApiErrorCode.LicenceRequired, 'Vanity domains need the tenant\u2019s advanced licence');
    }
    return tenantId;
  }

  private async found(tenantId: string, rawDomain: string, m?: EntityManager): Promise<VanityDomainEntity> {
    const d = await this.domains.find(tenantId, domainOr404(rawDomain), m);
    if (!d) throw ApiError.notFound('Vanity domain');
    return d;
  }
}
