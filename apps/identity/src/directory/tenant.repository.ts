import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { RegionEntity, TenantEntity } from '@edu/persistence';

export type TenantWithRegion = TenantEntity & { region: RegionEntity };

@Injectable()
export class TenantRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private repo(m?: EntityManager) {
    return (m ?? this.ds.manager).getRepository(TenantEntity);
  }

  find(id: string, m?: EntityManager): Promise<TenantWithRegion | null> {
    return this.repo(m).findOne({ where: { id }, relations: { region: true } }) as Promise<TenantWithRegion | null>;
  }

  exists(id: string, m?: EntityManager): Promise<boolean> {
    return this.repo(m).exists({ where: { id } });
  }

  listAll(m?: EntityManager): Promise<TenantWithRegion[]> {
    return this.repo(m).find({ relations: { region: true }, order: { name: 'ASC', id: 'ASC' } }) as Promise<
      TenantWithRegion[]
    >;
  }

  findByCustomerId(customerId: number, m?: EntityManager): Promise<TenantEntity | null> {
    return this.repo(m).findOne({ where: { customerId } });
  }

  regionExists(id: string, m?: EntityManager): Promise<boolean> {
    return (m ?? this.ds.manager).getRepository(RegionEntity).exists({ where: { id } });
  }

  async hasLicence(tenantId: string, licence: string, m?: EntityManager): Promise<boolean> {
    const t = await this.repo(m).findOne({ where: { id: tenantId }, select: { id: true, licences: true } });
    return !!t && t.licences.includes(licence as TenantEntity['licences'][number]);
  }

  save(t: Partial<TenantEntity>, m: EntityManager): Promise<TenantEntity> {
    return this.repo(m).save(t as TenantEntity);
  }

  async delete(id: string, m: EntityManager): Promise<void> {
    await this.repo(m).delete({ id });
  }
}
