import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { PeopleProvisioning, type ProvisionedPerson } from '@edu/sign-in';
import { ConstituencyRepository } from '../directory/constituency.repository';
import { TenantUserRecords } from '../users/tenant-user-records';

/** Sign-in's just-in-time provisioning on the identity service's own rules for a tenant's people. */
@Injectable()
export class IdentityPeopleProvisioning implements PeopleProvisioning {
  constructor(
    private readonly constituencies: ConstituencyRepository,
    private readonly records: TenantUserRecords,
  ) {}

  selfServiceConstituencies(tenantId: string, providerId: string, m: EntityManager): Promise<string[]> {
    return this.constituencies.selfServiceFor(tenantId, providerId, m);
  }

  async addToTenant(
    tenantId: string,
    email: string,
    person: ProvisionedPerson,
    m: EntityManager,
  ): Promise<{ userId: string }> {
    const link = await this.records.add(tenantId, email, person, m);
    return { userId: link.userId };
  }
}
