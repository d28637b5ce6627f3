import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { DeveloperEntity } from '@edu/persistence';

@Injectable()
export class DeveloperRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private repo(m?: EntityManager) {
    return (m ?? this.ds.manager).getRepository(DeveloperEntity);
  }

  listAll(m?: EntityManager): Promise<DeveloperEntity[]> {
    return this.repo(m).find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }

  find(id: string, m?: EntityManager): Promise<DeveloperEntity | null> {
    return this.repo(m).findOne({ where: { id } });
  }

  exists(id: string, m?: EntityManager): Promise<boolean> {
    return this.repo(m).exists({ where: { id } });
  }

  findByEmail(email: string, m?: EntityManager): Promise<DeveloperEntity | null> {
    return this.repo(m).findOne({ where: { email } });
  }

  save(d: Partial<DeveloperEntity>, m: EntityManager): Promise<DeveloperEntity> {
    return this.repo(m).save(d as DeveloperEntity);
  }
}
