import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiError, isUuid, type Principal } from '@edu/domain';
import type { UserEntity, UserIdpIdentifier } from '@edu/persistence';
import { AccessPolicy } from '../common/access-policy';
import { conflict, fieldError, uniqueOr409 } from '../common/api-errors';
import { emailOr404, normalizeEmail } from '../common/ids';
import { IdentityProviderRepository } from '../identity-providers/identity-provider.repository';
import { ProviderRefs } from '../identity-providers/provider-refs';
import type { CreateUserDto, IdpIdentifierDto, UpdateUserDto } from './dto/user.dto';
import { TenantUserRepository, UserRepository } from './user.repository';
import { toUserView, type UserView } from './user.view';

const EMAIL_TAKEN = 'A user with this e-mail address already exists; link it to the tenant with POST /tenants/{id}/users';

/**
 * Replaces the identifiers `refs` can see with `given` (ids assigned where missing), keeping the
 * identifiers at other tenants' providers untouched. Problems name the offending entry.
 */
export function replaceVisibleIdentifiers(current: UserIdpIdentifier[], given: IdpIdentifierDto[], refs: ProviderRefs): UserIdpIdentifier[] {
  const hidden = current.filter((i) => !refs.visible(i.idp_id));
  const normalized = given.map((i) => ({ id: (i.id ?? randomUUID()).toLowerCase(), idp_id: isUuid(i.idp_id) ? i.idp_id.toLowerCase() : i.idp_id }));
  const unknown = refs.firstUnknown(normalized.map((i) => i.idp_id));
  if (unknown) throw fieldError('idp_identifiers', unknown);
  const seen = new Set(hidden.map((i) => i.id));
  normalized.forEach((i, index) => {
    if (seen.has(i.id)) throw fieldError('idp_identifiers', `[${index}] id ${i.id} is used twice`);
    seen.add(i.id);
  });
  return [...hidden, ...normalized];
}

/** Users linked to the token's tenant (spec 2.7). Users are global and keyed by e-mail. */
@Injectable()
export class UsersService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly users: UserRepository,
    private readonly links: TenantUserRepository,
    private readonly providers: IdentityProviderRepository,
    private readonly policy: AccessPolicy,
  ) {}

  async list(who: Principal, rawEmail?: string): Promise<UserView[]> {
    const tenantId = this.policy.tenant(who, 'read');
    const refs = await ProviderRefs.load(this.providers, tenantId);
    if (rawEmail === undefined) return (await this.users.listLinked(tenantId)).map((u) => toUserView(u, refs));
    const user = await this.users.findLinked(tenantId, emailOr404(rawEmail));
    if (!user) throw ApiError.notFound('User');
    return [toUserView(user, refs)];
  }

  /** Creates the user and links it to the token's tenant (no constituencies yet). */
  async create(who: Principal, dto: CreateUserDto): Promise<UserView> {
    const tenantId = this.policy.tenant(who, 'write');
    const email = normalizeEmail(dto.email);
    return uniqueOr409(
      () =>
        this.ds.transaction(async (m) => {
          if (await this.users.findByEmail(email, m)) throw conflict(EMAIL_TAKEN);
          const refs = await ProviderRefs.load(this.providers, tenantId, m);
          const user = await this.users.save(
            { email, name: dto.name, nickname: dto.nickname ?? dto.name, picture: dto.picture, idpIdentifiers: replaceVisibleIdentifiers([], dto.idp_identifiers ?? [], refs) },
            m,
          );
          await this.links.save({ tenantId, userId: user.id, constituencies: [] }, m);
          return toUserView(user, refs);
        }),
      EMAIL_TAKEN,
    );
  }

  async update(who: Principal, rawEmail: string, dto: UpdateUserDto): Promise<UserView> {
    const tenantId = this.policy.tenant(who, 'write');
    const email = emailOr404(rawEmail);
    return this.ds.transaction(async (m) => {
      const user = await this.linked(tenantId, email, m);
      const refs = await ProviderRefs.load(this.providers, tenantId, m);
      if (dto.name !== undefined) user.name = dto.name;
      if (dto.nickname !== undefined) user.nickname = dto.nickname;
      if (dto.picture !== undefined) user.picture = dto.picture;
      if (dto.idp_identifiers !== undefined) user.idpIdentifiers = replaceVisibleIdentifiers(user.idpIdentifiers, dto.idp_identifiers, refs);
      return toUserView(await this.users.save(user, m), refs);
    });
  }

  /** Removes the user from the token's tenant; a user no tenant links to any more is deleted. */
  async remove(who: Principal, rawEmail: string): Promise<void> {
    const tenantId = this.policy.tenant(who, 'write');
    const email = emailOr404(rawEmail);
    await this.ds.transaction(async (m) => {
      const user = await this.linked(tenantId, email, m);
      await this.links.delete(tenantId, user.id, m);
      await this.users.deleteOrphans([user.id], m);
    });
  }

  private async linked(tenantId: string, email: string, m: EntityManager): Promise<UserEntity> {
    const user = await this.users.findLinked(tenantId, email, m);
    if (!user) throw ApiError.notFound('User');
    return user;
  }
}
