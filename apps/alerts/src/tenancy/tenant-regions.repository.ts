import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import { DataSource } from 'typeorm';
import { TenantEntity } from '@edu/persistence';

/**
 * A tenant's region (null when the tenant is unknown), cached per replica for a few seconds. An
 * unknown tenant is not cached: on a regional database it may arrive by replication any moment.
 */
@Injectable()
export class TenantRegionsRepository {
  private readonly cache = new LRUCache<string, string>({ max: 10_000, ttl: 5_000 });

  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async regionOf(tenantId: string): Promise<string | null> {
    const hit = this.cache.get(tenantId);
    if (hit !== undefined) return hit;
    const tenant = await this.ds
      .getRepository(TenantEntity)
      .findOne({ select: { regionId: true }, where: { id: tenantId } });
    const region = tenant?.regionId ?? null;
    if (region !== null) this.cache.set(tenantId, region);
    return region;
  }
}
