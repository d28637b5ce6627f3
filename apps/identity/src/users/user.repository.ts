import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, type EntityManager } from 'typeorm';
import { TenantUserEntity, UserEntity } from '@edu/persistence';

/** Users are global; tenants reach them only through tenant-user links. */
@Injectable()
export class UserRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private repo(m?: EntityManager) {
    return (m ?? this.ds.manager).getRepository(UserEntity);
  }

  findByEmail(email: string, m?: EntityManager): Promise<UserEntity | null> {
    return this.repo(m).findOne({ where: { email } });
  }

  /** Users linked to the tenant, by e-mail. */
  listLinked(tenantId: string, m?: EntityManager): Promise<UserEntity[]> {
    return this.repo(m)
      .createQueryBuilder('u')
      .innerJoin(TenantUserEntity, 'tu', 'tu.user_id = u.id AND tu.tenant_id = :tenantId', { tenantId })
      .orderBy('u.email', 'ASC')
      .getMany();
  }

  findLinked(tenantId: string, email: string, m?: EntityManager): Promise<UserEntity | null> {
    return this.repo(m)
      .createQueryBuilder('u')
      .innerJoin(TenantUserEntity, 'tu', 'tu.user_id = u.id AND tu.tenant_id = :tenantId', { tenantId })
      .where('u.email = :email', { email })
      .getOne();
  }

  save(user: Partial<UserEntity>, m: EntityManager): Promise<UserEntity> {
    return this.repo(m).save(user as UserEntity);
  }

  /** Deletes those of `ids` that no tenant links to any more. */
  async deleteOrphans(ids: string[], m: EntityManager): Promise<void> {
    if (ids.length === 0) return;
    await m
      .createQueryBuilder()
      .delete()
      .from(UserEntity)
      .where({ id: In(ids) })
      .andWhere('NOT EXISTS (SELECT 1 FROM tenant_users tu WHERE tu.user_id = users.id)')
      .execute();
  }

  /** Removes identifiers of a deleted tenant provider from every user. */
  async removeIdentifiersOf(idpId: string, m: EntityManager): Promise<void> {
    await m.query(
      `UPDATE users SET idp_identifiers = COALESCE((SELECT jsonb_agg(e) FROM jsonb_array_elements(idp_identifiers) e WHERE e->>'idp_id' <> $1), '[]'::jsonb), updated_at = now()
       WHERE idp_identifiers @> jsonb_build_array(jsonb_build_object('idp_id', $1::text))`,
      [idpId],
    );
  }
}

@Injectable()
export class TenantUserRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private repo(m?: EntityManager) {
    return (m ?? this.ds.manager).getRepository(TenantUserEntity);
  }

  list(tenantId: string, m?: EntityManager): Promise<(TenantUserEntity & { user: UserEntity })[]> {
    return this.repo(m)
      .createQueryBuilder('tu')
      .innerJoinAndSelect('tu.user', 'u')
      .where('tu.tenant_id = :tenantId', { tenantId })
      .orderBy('u.email', 'ASC')
      .getMany() as Promise<(TenantUserEntity & { user: UserEntity })[]>;
  }

  find(tenantId: string, userId: string, m?: EntityManager): Promise<TenantUserEntity | null> {
    return this.repo(m).findOne({ where: { tenantId, userId } });
  }

  async userIds(tenantId: string, m?: EntityManager): Promise<string[]> {
    const rows = await this.repo(m).find({ where: { tenantId }, select: { userId: true } });
    return rows.map((r) => r.userId);
  }

  save(link: Partial<TenantUserEntity>, m: EntityManager): Promise<TenantUserEntity> {
    return this.repo(m).save(link as TenantUserEntity);
  }

  async delete(tenantId: string, userId: string, m: EntityManager): Promise<void> {
    await this.repo(m).delete({ tenantId, userId });
  }

  /** Drops a deleted constituency from every member's list. */
  async removeConstituency(tenantId: string, constituencyId: string, m: EntityManager): Promise<void> {
    await m.query(
      `UPDATE tenant_users SET constituencies = array_remove(constituencies, $2), updated_at = now() WHERE tenant_id = $1 AND $2 = ANY(constituencies)`,
      [tenantId, constituencyId],
    );
  }
}
