import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { VanityDomainEntity } from '@edu/persistence';

@Injectable()
export class VanityDomainRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private repo(m?: EntityManager) {
    return (m ?? this.ds.manager).getRepository(VanityDomainEntity);
  }

  list(tenantId: string, m?: EntityManager): Promise<VanityDomainEntity[]> {
    return this.repo(m).find({ where: { tenantId }, order: { domain: 'ASC' } });
  }

  find(tenantId: string, domain: string, m?: EntityManager): Promise<VanityDomainEntity | null> {
    return this.repo(m).findOne({ where: { tenantId, domain } });
  }

  /** Domains are one global namespace. */
  exists(domain: string, m?: EntityManager): Promise<boolean> {
    return this.repo(m).exists({ where: { domain } });
  }

  save(d: Partial<VanityDomainEntity>, m: EntityManager): Promise<VanityDomainEntity> {
    return this.repo(m).save(d as VanityDomainEntity);
  }

  async delete(tenantId: string, domain: string, m: EntityManager): Promise<void> {
    await this.repo(m).delete({ tenantId, domain });
  }
}
