import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ConstituencyEntity } from '@edu/persistence';

@Injectable()
export class ConstituencyRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private repo(m?: EntityManager) {
    return (m ?? this.ds.manager).getRepository(ConstituencyEntity);
  }

  list(tenantId: string, m?: EntityManager): Promise<ConstituencyEntity[]> {
    return this.repo(m).find({ where: { tenantId }, order: { id: 'ASC' } });
  }

  find(tenantId: string, id: string, m?: EntityManager): Promise<ConstituencyEntity | null> {
    return this.repo(m).findOne({ where: { tenantId, id } });
  }

  async ids(tenantId: string, m?: EntityManager): Promise<Set<string>> {
    const rows = await this.repo(m).find({ where: { tenantId }, select: { id: true } });
    return new Set(rows.map((r) => r.id));
  }

  /** Every identity provider id the tenant's constituencies allow. */
  async allowedProviderIds(tenantId: string, m?: EntityManager): Promise<string[]> {
    const rows: { idp: string }[] = await (m ?? this.ds.manager).query(
      'SELECT DISTINCT unnest(allowed_identity_providers) AS idp FROM constituencies WHERE tenant_id = $1 ORDER BY 1',
      [tenantId],
    );
    return rows.map((r) => r.idp);
  }

  /** Constituencies of the tenant that allow the provider. */
  async referencing(tenantId: string, idpId: string, m?: EntityManager): Promise<string[]> {
    const rows = await this.repo(m)
      .createQueryBuilder('c')
      .select('c.id', 'id')
      .where('c.tenant_id = :tenantId AND :idpId = ANY(c.allowed_identity_providers)', { tenantId, idpId })
      .orderBy('c.id')
      .getRawMany<{ id: string }>();
    return rows.map((r) => r.id);
  }

  /** Constituencies of the tenant that allow the provider and self-service provisioning, by id (just-in-time sign-in). */
  async selfServiceFor(tenantId: string, idpId: string, m?: EntityManager): Promise<string[]> {
    const rows = await this.repo(m)
      .createQueryBuilder('c')
      .select('c.id', 'id')
      .where(
        'c.tenant_id = :tenantId AND c.enable_self_service_provisioning AND :idpId = ANY(c.allowed_identity_providers)',
        { tenantId, idpId },
      )
      .orderBy('c.id')
      .getRawMany<{ id: string }>();
    return rows.map((r) => r.id);
  }

  save(c: Partial<ConstituencyEntity>, m: EntityManager): Promise<ConstituencyEntity> {
    return this.repo(m).save(c as ConstituencyEntity);
  }

  async delete(tenantId: string, id: string, m: EntityManager): Promise<void> {
    await this.repo(m).delete({ tenantId, id });
  }
}
