import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, type EntityManager } from 'typeorm';
import { CoreIdentityProviderEntity, IdentityProviderEntity } from '@edu/persistence';

/** Tenant-specific providers (by tenant) and the service-managed core providers. */
@Injectable()
export class IdentityProviderRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private repo(m?: EntityManager) {
    return (m ?? this.ds.manager).getRepository(IdentityProviderEntity);
  }

  list(tenantId: string, m?: EntityManager): Promise<IdentityProviderEntity[]> {
    return this.repo(m).find({ where: { tenantId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  find(tenantId: string, id: string, m?: EntityManager): Promise<IdentityProviderEntity | null> {
    return this.repo(m).findOne({ where: { tenantId, id } });
  }

  async idsOf(tenantId: string, m?: EntityManager): Promise<Set<string>> {
    const rows = await this.repo(m).find({ where: { tenantId }, select: { id: true } });
    return new Set(rows.map((r) => r.id));
  }

  save(p: Partial<IdentityProviderEntity>, m: EntityManager): Promise<IdentityProviderEntity> {
    return this.repo(m).save(p as IdentityProviderEntity);
  }

  async delete(tenantId: string, id: string, m: EntityManager): Promise<void> {
    await this.repo(m).delete({ tenantId, id });
  }

  coreByIds(ids: string[], m?: EntityManager): Promise<CoreIdentityProviderEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return (m ?? this.ds.manager)
      .getRepository(CoreIdentityProviderEntity)
      .find({ where: { id: In(ids) }, order: { id: 'ASC' } });
  }

  async coreIds(m?: EntityManager): Promise<Set<string>> {
    const rows = await (m ?? this.ds.manager).getRepository(CoreIdentityProviderEntity).find({ select: { id: true } });
    return new Set(rows.map((r) => r.id));
  }
}
