import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiError, type Principal } from '@edu/domain';
import { AccessPolicy } from '../common/access-policy';
import { fieldError, uniqueOr409 } from '../common/api-errors';
import { emailOr404, normalizeEmail } from '../common/ids';
import { ConstituencyRepository } from '../directory/constituency.repository';
import type { CreateTenantUserDto, UpdateTenantUserDto } from './dto/user.dto';
import { ALREADY_AT_TENANT, TenantUserRecords } from './tenant-user-records';
import { PeopleVisibility, type PeopleView } from './people-visibility';
import { TenantUserRepository, type LinkedUser } from '../directory/user.repository';
import { toTenantUserView, type TenantUserView } from './user.view';

/**
 * Tenant-user records of the tenant named in the path, which must be the token's tenant (spec 2.6).
 * An app whose deployment has a data sharing sees and changes only the people it shares.
 */
@Injectable()
export class TenantUsersService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly links: TenantUserRepository,
    private readonly records: TenantUserRecords,
    private readonly constituencies: ConstituencyRepository,
    private readonly policy: AccessPolicy,
    private readonly visibility: PeopleVisibility,
  ) {}

  /** The tenant's records of the people the caller's deployment's sharing shares (all without sharing). */
  async list(who: Principal, rawTenantId: string): Promise<TenantUserView[]> {
    const tenantId = this.policy.pathTenant(who, 'read', rawTenantId);
    const view = await this.visibility.of(who, tenantId);
    return (await view.visible(await this.links.list(tenantId))).map((l) => toTenantUserView(l, view.withheld));
  }

  /**
   * Adds the person to the tenant with constituencies and the tenant's own profile of them, the
   * same way whether the person is new or known to other tenants (their profiles never show).
   */
  async create(who: Principal, rawTenantId: string, dto: CreateTenantUserDto): Promise<TenantUserView> {
    const tenantId = this.policy.pathTenant(who, 'write', rawTenantId);
    return uniqueOr409(
      () =>
        this.ds.transaction(async (m) => {
          await this.checkConstituencies(tenantId, dto.constituencies, m);
          const { name, nickname, picture } = dto.user;
          const link = await this.records.add(
            tenantId,
            normalizeEmail(dto.user_email),
            { constituencies: [...dto.constituencies], name, nickname: nickname ?? name, picture, idpIdentifiers: [] },
            m,
          );
          return toTenantUserView(link);
        }),
      ALREADY_AT_TENANT,
    );
  }

  async update(
    who: Principal,
    rawTenantId: string,
    rawEmail: string,
    dto: UpdateTenantUserDto,
  ): Promise<TenantUserView> {
    const tenantId = this.policy.pathTenant(who, 'write', rawTenantId);
    const email = emailOr404(rawEmail, 'Tenant user');
    const view = await this.visibility.of(who, tenantId);
    return this.ds.transaction(async (m) => {
      const link = await this.linked(tenantId, email, view, m);
      await this.checkConstituencies(tenantId, dto.constituencies, m);
      link.constituencies = [...dto.constituencies];
      return toTenantUserView(await this.links.update(link, m), view.withheld);
    });
  }

  /** Removes the tenant's record; a person no tenant has any more is deleted. */
  async remove(who: Principal, rawTenantId: string, rawEmail: string): Promise<void> {
    const tenantId = this.policy.pathTenant(who, 'write', rawTenantId);
    const email = emailOr404(rawEmail, 'Tenant user');
    const view = await this.visibility.of(who, tenantId);
    await this.ds.transaction(async (m) => {
      await this.linked(tenantId, email, view, m);
      await this.records.remove(tenantId, email, 'Tenant user', m);
    });
  }

  /** The tenant's record of the person, if the caller may name them (a person its sharing hides is unknown). */
  private async linked(tenantId: string, email: string, view: PeopleView, m: EntityManager): Promise<LinkedUser> {
    const link = await this.links.findByEmail(tenantId, email, m);
    if (!link || !(await view.addressable(link))) throw ApiError.notFound('Tenant user');
    return link;
  }

  private async checkConstituencies(tenantId: string, ids: string[], m: EntityManager): Promise<void> {
    const known = await this.constituencies.ids(tenantId, m);
    const i = ids.findIndex((id) => !known.has(id));
    if (i >= 0) throw fieldError('constituencies', `[${i}] "${ids[i]}" is not a constituency of this tenant`);
  }
}
