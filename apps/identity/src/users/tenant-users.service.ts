import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiError, type Principal } from '@edu/domain';
import { AccessPolicy } from '../common/access-policy';
import { conflict, fieldError, uniqueOr409 } from '../common/api-errors';
import { emailOr404, normalizeEmail } from '../common/ids';
import { ConstituencyRepository } from '../constituencies/constituency.repository';
import type { CreateTenantUserDto, UpdateTenantUserDto } from './dto/user.dto';
import { TenantUserRepository, UserRepository } from './user.repository';
import { toTenantUserView, type TenantUserView } from './user.view';

const LINKED = 'The user is already linked to this tenant';

/** Tenant-user links of the tenant named in the path, which must be the token's tenant (spec 2.6). */
@Injectable()
export class TenantUsersService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly users: UserRepository,
    private readonly links: TenantUserRepository,
    private readonly constituencies: ConstituencyRepository,
    private readonly policy: AccessPolicy,
  ) {}

  async list(who: Principal, rawTenantId: string): Promise<TenantUserView[]> {
    const tenantId = this.policy.pathTenant(who, 'read', rawTenantId);
    return (await this.links.list(tenantId)).map((l) => toTenantUserView(l, l.user));
  }

  async create(who: Principal, rawTenantId: string, dto: CreateTenantUserDto): Promise<TenantUserView> {
    const tenantId = this.policy.pathTenant(who, 'write', rawTenantId);
    return uniqueOr409(
      () =>
        this.ds.transaction(async (m) => {
          const user = await this.users.findByEmail(normalizeEmail(dto.user_email), m);
          if (!user) throw fieldError('user_email', 'no user has this e-mail address; create the user with POST /users');
          if (await this.links.find(tenantId, user.id, m)) throw conflict(LINKED);
          await this.checkConstituencies(tenantId, dto.constituencies, m);
          const link = await this.links.save({ tenantId, userId: user.id, constituencies: [...dto.constituencies] }, m);
          return toTenantUserView(link, user);
        }),
      LINKED,
    );
  }

  async update(who: Principal, rawTenantId: string, rawEmail: string, dto: UpdateTenantUserDto): Promise<TenantUserView> {
    const tenantId = this.policy.pathTenant(who, 'write', rawTenantId);
    const email = emailOr404(rawEmail, 'Tenant user');
    return this.ds.transaction(async (m) => {
      const user = await this.users.findLinked(tenantId, email, m);
      const link = user && (await this.links.find(tenantId, user.id, m));
      if (!user || !link) throw ApiError.notFound('Tenant user');
      await this.checkConstituencies(tenantId, dto.constituencies, m);
      link.constituencies = [...dto.constituencies];
      return toTenantUserView(await this.links.save(link, m), user);
    });
  }

  /** Unlinks the user; a user no tenant links to any more is deleted. */
  async remove(who: Principal, rawTenantId: string, rawEmail: string): Promise<void> {
    const tenantId = this.policy.pathTenant(who, 'write', rawTenantId);
    const email = emailOr404(rawEmail, 'Tenant user');
    await this.ds.transaction(async (m) => {
      const user = await this.users.findLinked(tenantId, email, m);
      if (!user) throw ApiError.notFound('Tenant user');
      await this.links.delete(tenantId, user.id, m);
      await this.users.deleteOrphans([user.id], m);
    });
  }

  private async checkConstituencies(tenantId: string, ids: string[], m: EntityManager): Promise<void> {
    const known = await this.constituencies.ids(tenantId, m);
    const i = ids.findIndex((id) => !known.has(id));
    if (i >= 0) throw fieldError('constituencies', `[${i}] "${ids[i]}" is not a constituency of this tenant`);
  }
}
