import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { TenantUserEntity, type UserEntity } from '@edu/persistence';

/** A tenant's record of a person with the person's id and e-mail address. */
export type LinkedUser = TenantUserEntity & { user: Pick<UserEntity, 'id' | 'email'> };

/**
 * Persons: one row per e-mail address with the user id, nothing else. Tenants reach a person only
 * through their own tenant-user record.
 */
@Injectable()
export class UserRepository {
  /**
   * The id of the person with `email`, creating them with `newId` when no one has them. The row
   * stays locked until the transaction ends, so a concurrent removal of the person's last tenant
   * (deleteOrphans) either runs first or sees the new tenant-user record.
   */
  async ensurePerson(email: string, newId: string, m: EntityManager): Promise<string> {
    // DO NOTHING (any unique index): two tenants adding the same new person at once derive the
    // same id, and the loser waits for the winner instead of failing on the primary key. The
    // loop covers the person being deleted between the two statements; the last try takes a
    // random id in case another address already holds `newId`.
    for (const id of [newId, newId, randomUUID()]) {
      await m.query(`INSERT INTO users (id, email) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [id, email]);
      const rows: { id: string }[] = await m.query(`SELECT id FROM users WHERE email = $1 FOR UPDATE`, [email]);
      if (rows.length) return rows[0].id;
    }
    throw new Error('could not add the person: their row kept disappearing');
  }

  /** Deletes those of `ids` that no tenant has any more (locking them first; see ensurePerson). */
  async deleteOrphans(ids: string[], m: EntityManager): Promise<void> {
    if (ids.length === 0) return;
    await m.query(`SELECT id FROM users WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`, [ids]);
    await m.query(
      `DELETE FROM users u WHERE u.id = ANY($1::uuid[]) AND NOT EXISTS (SELECT 1 FROM tenant_users tu WHERE tu.user_id = u.id)`,
      [ids],
    );
  }

  /**
   * Removes identifiers at a deleted tenant provider from the tenant's records. Only records of the
   * provider's own tenant can hold them (identifiers are checked against the writing tenant's providers).
   */
  async removeIdentifiersOf(tenantId: string, idpId: string, m: EntityManager): Promise<void> {
    await m.query(
      `UPDATE tenant_users
          SET idp_identifiers = COALESCE((SELECT jsonb_agg(i.e ORDER BY i.n) FROM jsonb_array_elements(idp_identifiers) WITH ORDINALITY AS i(e, n) WHERE i.e->>'idp_id' <> $1), '[]'::jsonb),
              updated_at = now()
        WHERE tenant_id = $2 AND idp_identifiers @> jsonb_build_array(jsonb_build_object('idp_id', $1::text))`,
      [idpId, tenantId],
    );
  }
}

/** Tenant-user records: a tenant's constituencies, profile and identifiers of a person. */
@Injectable()
export class TenantUserRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  private repo(m?: EntityManager) {
    return (m ?? this.ds.manager).getRepository(TenantUserEntity);
  }

  private withUser(m?: EntityManager) {
    return this.repo(m).createQueryBuilder('tu').innerJoin('tu.user', 'u').addSelect(['u.id', 'u.email']);
  }

  /** The tenant's records, by e-mail address. */
  list(tenantId: string, m?: EntityManager): Promise<LinkedUser[]> {
    return this.withUser(m)
      .where('tu.tenant_id = :tenantId', { tenantId })
      .orderBy('u.email', 'ASC')
      .getMany() as Promise<LinkedUser[]>;
  }

  /** The tenant's record of the person with `email` (normalized). */
  async findByEmail(tenantId: string, email: string, m?: EntityManager): Promise<LinkedUser | null> {
    return (await this.withUser(m)
      .where('tu.tenant_id = :tenantId AND u.email = :email', { tenantId, email })
      .getOne()) as LinkedUser | null;
  }

  exists(tenantId: string, userId: string, m: EntityManager): Promise<boolean> {
    return this.repo(m).exists({ where: { tenantId, userId } });
  }

  async userIds(tenantId: string, m?: EntityManager): Promise<string[]> {
    const rows = await this.repo(m).find({ where: { tenantId }, select: { userId: true } });
    return rows.map((r) => r.userId);
  }

  /** Always an INSERT: a record that exists already is a unique violation, never overwritten. */
  async insert(
    link: Omit<TenantUserEntity, 'createdAt' | 'updatedAt' | 'tenant' | 'user'>,
    m: EntityManager,
  ): Promise<TenantUserEntity> {
    const entity = this.repo(m).create(link);
    await this.repo(m).insert(entity);
    return entity;
  }

  /** Writes the changed columns of one record (never the joined person). */
  async update(link: LinkedUser, m: EntityManager): Promise<LinkedUser> {
    const { user, tenant: _tenant, ...columns } = link;
    const saved = await this.repo(m).save(columns);
    return Object.assign(saved, { user });
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
