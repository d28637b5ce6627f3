import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiError, type Principal } from '@edu/domain';
import { AccessPolicy } from '../common/access-policy';
import { uniqueOr409 } from '../common/api-errors';
import { emailOr404, normalizeEmail } from '../common/ids';
import { IdentityProviderRepository } from '../directory/identity-provider.repository';
import { ProviderRefs } from '../directory/provider-refs';
import type { CreateUserDto, UpdateUserDto } from './dto/user.dto';
import { PeopleVisibility, type PeopleView } from './people-visibility';
import { ALREADY_AT_TENANT, TenantUserRecords, tenantIdentifiers } from './tenant-user-records';
import { TenantUserRepository, type LinkedUser } from '../directory/user.repository';
import { toUserView, type UserView } from './user.view';

/**
 * Users of the token's tenant (spec 2.7): the person's id and e-mail address with the tenant's
 * own profile and identifiers. Nothing here reads or writes another tenant's record of a person.
 * An app whose deployment has a data sharing sees and changes only the people it shares.
 */
@Injectable()
export class UsersService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly links: TenantUserRepository,
    private readonly records: TenantUserRecords,
    private readonly providers: IdentityProviderRepository,
    private readonly policy: AccessPolicy,
    private readonly visibility: PeopleVisibility,
  ) {}

  /** The tenant's people the caller's deployment's sharing shares (all of them without sharing), less what it withholds. */
  async list(who: Principal, rawEmail?: string): Promise<UserView[]> {
    const tenantId = this.policy.tenant(who, 'read');
    const [refs, view] = await Promise.all([
      ProviderRefs.load(this.providers, tenantId),
      this.visibility.of(who, tenantId),
    ]);
    if (rawEmail === undefined)
      return (await view.visible(await this.links.list(tenantId))).map((l) => toUserView(l, refs, view.withheld));
    const link = await this.links.findByEmail(tenantId, emailOr404(rawEmail));
    if (!link || !(await view.addressable(link))) throw ApiError.notFound('User');
    return [toUserView(link, refs, view.withheld)];
  }

  /** Adds the person to the token's tenant (no constituencies yet) with the profile given. */
  async create(who: Principal, dto: CreateUserDto): Promise<UserView> {
    const tenantId = this.policy.tenant(who, 'write');
    const email = normalizeEmail(dto.email);
    return uniqueOr409(
      () =>
        this.ds.transaction(async (m) => {
          const refs = await ProviderRefs.load(this.providers, tenantId, m);
          const idpIdentifiers = tenantIdentifiers(dto.idp_identifiers ?? [], refs);
          const link = await this.records.add(
            tenantId,
            email,
            {
              constituencies: [],
              name: dto.name,
              nickname: dto.nickname ?? dto.name,
              picture: dto.picture,
              idpIdentifiers,
            },
            m,
          );
          return toUserView(link, refs);
        }),
      ALREADY_AT_TENANT,
    );
  }

  /** Changes the tenant's own profile and identifiers of the person. */
  async update(who: Principal, rawEmail: string, dto: UpdateUserDto): Promise<UserView> {
    const tenantId = this.policy.tenant(who, 'write');
    const email = emailOr404(rawEmail);
    const view = await this.visibility.of(who, tenantId);
    return this.ds.transaction(async (m) => {
      const link = await this.linked(tenantId, email, view, m);
      const refs = await ProviderRefs.load(this.providers, tenantId, m);
      if (dto.name !== undefined) link.name = dto.name;
      if (dto.nickname !== undefined) link.nickname = dto.nickname;
      if (dto.picture !== undefined) link.picture = dto.picture;
      if (dto.idp_identifiers !== undefined) link.idpIdentifiers = tenantIdentifiers(dto.idp_identifiers, refs);
      return toUserView(await this.links.update(link, m), refs, view.withheld);
    });
  }

  /** Removes the person from the token's tenant; a person no tenant has any more is deleted. */
  async remove(who: Principal, rawEmail: string): Promise<void> {
    const tenantId = this.policy.tenant(who, 'write');
    const email = emailOr404(rawEmail);
    const view = await this.visibility.of(who, tenantId);
    await this.ds.transaction(async (m) => {
      await this.linked(tenantId, email, view, m);
      await this.records.remove(tenantId, email, 'User', m);
    });
  }

  /** The tenant's record of the person, if the caller may name them (a person its sharing hides is unknown). */
  private async linked(tenantId: string, email: string, view: PeopleView, m: EntityManager): Promise<LinkedUser> {
    const link = await this.links.findByEmail(tenantId, email, m);
    if (!link || !(await view.addressable(link))) throw ApiError.notFound('User');
    return link;
  }
}
