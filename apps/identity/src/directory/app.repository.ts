import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { AppEntity } from '@edu/persistence';
import type { OwnerRef } from '../common/access-policy';

/** Apps, always looked up through their owner (tenant or developer). */
@Injectable()
export class AppRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private repo(m?: EntityManager) {
    return (m ?? this.ds.manager).getRepository(AppEntity);
  }

  listByOwner(owner: OwnerRef, m?: EntityManager): Promise<AppEntity[]> {
    return this.repo(m).find({
      where: { ownerType: owner.type, ownerId: owner.id },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  findByOwner(owner: OwnerRef, id: string, m?: EntityManager): Promise<AppEntity | null> {
    return this.repo(m).findOne({ where: { id, ownerType: owner.type, ownerId: owner.id } });
  }

  /** Every app (the operator's view). */
  listAll(m?: EntityManager): Promise<AppEntity[]> {
    return this.repo(m).find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  find(id: string, m?: EntityManager): Promise<AppEntity | null> {
    return this.repo(m).findOne({ where: { id } });
  }

  /** Apps a tenant may deploy: every developer app, and its own tenant-owned apps. */
  async findDeployable(tenantId: string, id: string, m?: EntityManager): Promise<AppEntity | null> {
    const app = await this.repo(m).findOne({ where: { id } });
    if (!app) return null;
    return app.ownerType === 'developer' || app.ownerId === tenantId ? app : null;
  }

  save(app: Partial<AppEntity>, m: EntityManager): Promise<AppEntity> {
    return this.repo(m).save(app as AppEntity);
  }

  async delete(id: string, m: EntityManager): Promise<void> {
    await this.repo(m).delete({ id });
  }

  async deleteOwnedByTenant(tenantId: string, m: EntityManager): Promise<void> {
    await this.repo(m).delete({ ownerType: 'tenant', ownerId: tenantId });
  }
}
