import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { AppEntity, DeploymentEntity } from '@edu/persistence';

export type DeploymentWithApp = DeploymentEntity & { app: AppEntity };

@Injectable()
export class DeploymentRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private repo(m?: EntityManager) {
    return (m ?? this.ds.manager).getRepository(DeploymentEntity);
  }

  list(tenantId: string, m?: EntityManager): Promise<DeploymentWithApp[]> {
    return this.repo(m).find({
      where: { tenantId },
      relations: { app: true },
      order: { createdAt: 'ASC', id: 'ASC' },
    }) as Promise<DeploymentWithApp[]>;
  }

  find(tenantId: string, appId: string, m?: EntityManager): Promise<DeploymentWithApp | null> {
    return this.repo(m).findOne({
      where: { tenantId, appId },
      relations: { app: true },
    }) as Promise<DeploymentWithApp | null>;
  }

  save(d: Partial<DeploymentEntity>, m: EntityManager): Promise<DeploymentEntity> {
    return this.repo(m).save(d as DeploymentEntity);
  }

  async delete(tenantId: string, appId: string, m: EntityManager): Promise<void> {
    await this.repo(m).delete({ tenantId, appId });
  }
}
